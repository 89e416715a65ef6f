// Sharded sweeps (`arena run --shard K/N`, harness/merge.h): the shards of the toy sweep merged
// are the unsharded run's table and seeds; a shard resumes on its own; what merge refuses.
#include "harness/merge.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "experiments/result_table.h"
#include "core/common/error.h"
#include "harness/sidecar.h"
#include "tests/harness/toy_experiment.h"

namespace arena {
namespace merge_test {

namespace fs = std::filesystem;
using testing::Contains;
using testing::ToyExperiment;
using testing::WithoutTiming;

constexpr int kQuickCases = 30;  // the toy's quick sweep (runner_test.cc)

class MergeTest : public ::testing::Test {
 protected:
  void SetUp() override { testing::WriteFile(dir_ / "configs/toy.toml", testing::kToyConfig); }
  RunOptions Options(const std::string& out, int shard = 1, int shards = 1) const {
    RunOptions o = testing::ToyRunOptions(dir_.path(), out);
    o.shard = shard;
    o.shards = shards;
    return o;
  }
  std::string Dir(const std::string& out) const { return dir_ / out; }
  ResultTable Table(const std::string& out) const { return ResultTable::ReadCsv(dir_ / (out + "/toy/toy.csv")); }
  std::string MergeError(const std::vector<std::string>& shards, const RunOptions& options) {
    try {
      MergeShards(toy_, shards, options);
    } catch (const InvalidArgument& e) {
      return e.what();
    }
    return "";
  }

  ToyExperiment toy_;
  testing::ScratchDir dir_;
};

TEST_F(MergeTest, MergedShardsAreTheUnshardedRun) {
  RunExperiment(toy_, Options("whole"));
  const RunSummary a = RunExperiment(toy_, Options("s1", 1, 3));
  const RunSummary b = RunExperiment(toy_, Options("s2", 2, 3));
  const RunSummary c = RunExperiment(toy_, Options("s3", 3, 3));
  EXPECT_EQ(a.cases_total + b.cases_total + c.cases_total, kQuickCases);
  EXPECT_EQ(a.cases_total, 10);  // every third case
  const MergeSummary m = MergeShards(toy_, {Dir("s3"), Dir("s1"), Dir("s2")}, Options("merged"));
  EXPECT_EQ(m.shards, 3);
  EXPECT_EQ(m.cases, kQuickCases);
  EXPECT_EQ(WithoutTiming(Table("merged")), WithoutTiming(Table("whole")));
  const SidecarJson whole = *ReadSidecar(Dir("whole") + "/toy/toy.json");
  const SidecarJson merged = *ReadSidecar(m.sidecar_path);
  EXPECT_EQ(merged["seeds"], whole["seeds"]);
  EXPECT_EQ(merged["cases"]["total"], kQuickCases);
  EXPECT_EQ(merged["cases"]["run"], kQuickCases);
  EXPECT_FALSE(merged.contains("shard"));
  EXPECT_EQ(merged["merged_from"].size(), 3u);
}

// A shard resumes like any run; results of another shard in its folder are not mixed in.
TEST_F(MergeTest, AShardResumesOnItsOwn) {
  RunExperiment(toy_, Options("s1", 1, 2));
  EXPECT_EQ(RunExperiment(toy_, Options("s1", 1, 2)).cases_run, 0);
  const RunSummary other = RunExperiment(toy_, Options("s1", 2, 2));
  EXPECT_EQ(other.cases_run, 15);  // shard 1's results were moved aside, not extended
  EXPECT_EQ(Table("s1").num_rows(), 15);
  EXPECT_TRUE(fs::exists(Dir("s1") + "/toy/superseded"));
}

TEST_F(MergeTest, RefusesShardsThatAreNotOneWholeSweep) {
  RunExperiment(toy_, Options("s1", 1, 2));
  RunExperiment(toy_, Options("s2", 2, 2));
  EXPECT_TRUE(Contains(MergeError({Dir("s1")}, Options("m")), "shard 2/2 is missing"));
  EXPECT_TRUE(Contains(MergeError({Dir("s1"), Dir("s1")}, Options("m")), "given twice"));
  RunOptions other = Options("o2", 2, 2);
  other.overrides = {"xs=[1,2]"};
  RunExperiment(toy_, other);
  EXPECT_TRUE(Contains(MergeError({Dir("s1"), Dir("o2")}, Options("m")), "another sweep"));
  EXPECT_TRUE(Contains(MergeError({Dir("s1"), Dir("nowhere")}, Options("m")), "holds no results"));
  EXPECT_TRUE(Contains(MergeError({Dir("s1"), Dir("s2")}, Options("s1")), "a shard's own"));
  MergeShards(toy_, {Dir("s1"), Dir("s2")}, Options("m"));
  EXPECT_TRUE(Contains(MergeError({Dir("s1"), Dir("s2")}, Options("m")), "--fresh"));
  RunOptions fresh = Options("m");
  fresh.fresh = true;
  EXPECT_NO_THROW(MergeShards(toy_, {Dir("s1"), Dir("s2")}, fresh));
}

TEST_F(MergeTest, ShardOutOfRangeOrEmptyIsAnError) {
  EXPECT_THROW(RunExperiment(toy_, Options("x", 3, 2)), InvalidArgument);
  EXPECT_THROW(RunExperiment(toy_, Options("x", 0, 2)), InvalidArgument);
  try {
    RunExperiment(toy_, Options("x", 31, 31));
    FAIL() << "an empty shard ran";
  } catch (const InvalidArgument& e) {
    EXPECT_TRUE(Contains(e.what(), "has no cases"));
  }
}

}  // namespace merge_test
}  // namespace arena
