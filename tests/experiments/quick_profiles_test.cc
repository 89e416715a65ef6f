// Every registered experiment: its quick profile end to end through the runner on one thread,
// against the committed reference in tests/data/reference/<experiment>/ (timing columns excluded).
// The references are written by `arena run` on every core (scripts/update-reference.sh; 2 on
// our machines), so this also checks that the thread count does not change the results. Then
// the claims it measures: each is in its folder's claims.toml (experiments/<name>/), and each
// claim's criterion finds the values it reads. And a resume of the finished run keeps every row
// (the rows read back as their declared column types) and runs nothing. And, where an experiment
// runs the barrier models, that they have rows and that none of them ever touched or
// interpenetrated (BarrierViolation). After an intended change, regenerate with
// scripts/update-reference.sh and say why in the commit.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "experiments/registry.h"
#include "harness/report.h"
#include "experiments/result_table.h"
#include "harness/runner.h"
#include "tests/scratch_dir.h"
#include "tests/test_paths.h"

namespace arena {
namespace quick_profiles_test {

namespace fs = std::filesystem;

// The barrier models (seed 004's longrange and its IPC baseline, seed 003's sdrs) each
// experiment's quick profile runs. A barrier is infinite at contact, so no run of theirs may ever bring two meshes together:
// every row records min_distance_m (the exact mesh-mesh distance over the run, experiments/common/meters/
// collider_distances.h), and it must be > 0 (it reads 0 when the meshes touch to within 1e-10 of
// their size, < 0 when they interpenetrate). The reference match alone would not see a reference
// regenerated without their rows or with a negative distance.
const std::map<std::string, std::vector<std::string>>& BarrierModels() {
  static const std::map<std::string, std::vector<std::string>> models = {
      {"book_stacking", {"longrange", "ipc"}},
      {"box_drop", {"longrange", "ipc", "sdrs"}},
      {"stacking", {"longrange", "ipc"}},
  };
  return models;
}

// "" when each of `models` has rows in `table` and every one of them has a min_distance_m > 0,
// else the first problem.
std::string BarrierViolation(const ResultTable& table, const std::vector<std::string>& models) {
  if (table.ColumnIndex("min_distance_m") < 0) return "no min_distance_m column";
  for (const std::string& model : models) {
    const ResultTable rows = table.Filter("model", model);
    if (rows.num_rows() == 0) return "no row of " + model;
    for (int i = 0; i < rows.num_rows(); ++i) {
      const double d = rows.Number(i, "min_distance_m");
      if (!(d > 0.0)) {
        return rows.Text(i, "case_id") + ": min_distance_m = '" + rows.Text(i, "min_distance_m") +
               "', not > 0 (0: touching, < 0: interpenetrating, empty: not measured)";
      }
    }
  }
  return "";
}

// The check can fail: a missing model, a touching, an interpenetrating or an unmeasured row.
TEST(BarrierViolation, FlagsMissingRowsAndDistancesNotAboveZero) {
  auto table = [](const std::string& ipc_distance) {
    return ResultTable({"case_id", "model", "min_distance_m"},
                       {{"longrange/a", "longrange", "1e-4"}, {"ipc/a", "ipc", ipc_distance}, {"penalty/a", "penalty", "-0.1"}});
  };
  EXPECT_EQ(BarrierViolation(table("2e-6"), {"longrange", "ipc"}), "");
  EXPECT_NE(BarrierViolation(table("2e-6"), {"longrange", "ipc", "nimble"}).find("no row of nimble"), std::string::npos);
  EXPECT_NE(BarrierViolation(table("0"), {"ipc"}).find("ipc/a"), std::string::npos);
  EXPECT_NE(BarrierViolation(table("-1e-9"), {"ipc"}).find("interpenetrating"), std::string::npos);
  EXPECT_NE(BarrierViolation(table(""), {"ipc"}).find("not measured"), std::string::npos);
  EXPECT_NE(BarrierViolation(ResultTable({"case_id", "model"}, {{"ipc/a", "ipc"}}), {"ipc"}), "");
}

class QuickProfile : public ::testing::TestWithParam<std::string> {};

TEST_P(QuickProfile, MatchesReference) {
  const std::string name = GetParam();
  const Experiment& experiment = FindExperiment(name);
  RunOptions options;
  options.threads = 1;
  options.progress = false;
  const testing::ScratchDir scratch;  // removed on every way out, a failed ASSERT's too
  options.out_dir = scratch.path();
  options.config_dir = ::arena::testing::SourceDir() + "/experiments";
  const RunSummary summary = RunExperiment(experiment, options);
  EXPECT_EQ(summary.cases_failed, 0);
  const ResultTable got = ResultTable::ReadCsv(summary.csv_path);
  const ResultTable ref =
      ResultTable::ReadCsv(::arena::testing::SourceDir() + "/tests/data/reference/" + name + "/" + name + ".csv");
  ASSERT_EQ(got.num_rows(), ref.num_rows()) << "the quick sweep changed: regenerate the reference";
  ASSERT_EQ(got.columns(), ref.columns());
  std::set<std::string> timing;
  for (const Column& c : experiment.columns()) {
    if (c.timing) timing.insert(c.name);
  }
  for (int i = 0; i < ref.num_rows(); ++i) {
    const std::string id = ref.Text(i, "case_id");
    ASSERT_EQ(got.Text(i, "case_id"), id);
    // DART is not bit-reproducible (FCL reports a pair's contacts in alternating order, so a
    // repeated step differs at 1e-16 and a rollout amplifies it): its rows are checked by its
    // own tests (tests/models/engines/dart_test.cc), not against a reference.
    if (ref.Text(i, "model") == "dart") continue;
    for (const std::string& col : ref.columns()) {
      if (timing.count(col) > 0) continue;
      const std::string& a = got.Text(i, col);
      const std::string& b = ref.Text(i, col);
      char* end_a = nullptr;
      char* end_b = nullptr;
      const double x = std::strtod(a.c_str(), &end_a), y = std::strtod(b.c_str(), &end_b);
      if (!a.empty() && !b.empty() && *end_a == '\0' && *end_b == '\0') {
        EXPECT_NEAR(x, y, 1e-9 * (1.0 + std::abs(y))) << id << " " << col;
      } else {
        EXPECT_EQ(a, b) << id << " " << col;
      }
    }
  }
  // Every row the run wrote reads back as valid (its column types hold): resuming the finished
  // run keeps every row, runs nothing and leaves the bytes alone.
  {
    std::ifstream before_file(summary.csv_path, std::ios::binary);
    const std::string before((std::istreambuf_iterator<char>(before_file)), std::istreambuf_iterator<char>());
    const RunSummary again = RunExperiment(experiment, options);
    EXPECT_EQ(again.cases_run, 0);
    EXPECT_EQ(again.rows_kept, ref.num_rows());
    EXPECT_EQ(again.rows_dropped + again.cases_rerun, 0);
    std::ifstream after_file(summary.csv_path, std::ios::binary);
    EXPECT_EQ(std::string((std::istreambuf_iterator<char>(after_file)), std::istreambuf_iterator<char>()), before);
  }
  if (const auto barrier = BarrierModels().find(name); barrier != BarrierModels().end()) {
    EXPECT_EQ(BarrierViolation(got, barrier->second), "") << "this run";
    EXPECT_EQ(BarrierViolation(ref, barrier->second), "") << "the reference";
  }
  std::map<std::string, const Claim*> catalogue;
  const std::vector<Claim> claims = LoadClaims(::arena::testing::SourceDir() + "/experiments");
  for (const Claim& c : claims) catalogue[c.id] = &c;
  for (const ClaimResult& r : experiment.Summarize(got)) {
    auto c = catalogue.find(r.id);
    ASSERT_TRUE(c != catalogue.end() && c->second->experiment == name) << r.id << " is not a claim of " << name;
    if (c->second->criterion) {
      EXPECT_NO_THROW(c->second->criterion->Evaluate(r.ours, r.values)) << r.id;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Registered, QuickProfile, ::testing::ValuesIn(ExperimentNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace quick_profiles_test
}  // namespace arena
