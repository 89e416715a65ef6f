#include "harness/report.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/common/error.h"
#include "harness/runner.h"
#include "tests/harness/toy_experiment.h"

namespace arena {
namespace {

namespace fs = std::filesystem;
using testing::Contains;
using testing::ReadFile;

const char* kClaims = R"(
[[claim]]
id = "toy.mean_metric"
experiment = "toy"
description = "mean of the metric | over all cases"
paper = "0.5"

[[claim]]
id = "toy.not_measured"
experiment = "toy"
description = "a claim Summarize does not return"
paper = "3"
unit = "s"

[[claim]]
id = "idle.claim"
experiment = "idle"
description = "an experiment that is registered but not run"
paper = "1"

[[claim]]
id = "future.claim"
experiment = "future"
description = "an experiment not implemented yet"
paper = "42%"
)";

class Idle : public testing::ToyExperiment {
 public:
  std::string name() const override { return "idle"; }
};

class ReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::WriteFile(dir_ / "configs/toy.toml", testing::kToyConfig);
    testing::WriteFile(dir_ / "claims.toml", kClaims);
    experiments_.push_back(std::make_unique<testing::ToyExperiment>());
    experiments_.push_back(std::make_unique<Idle>());
    options_.plots_dir = dir_ / "plots/out";
    options_.experiments = &experiments_;
  }
  void RunToy() {
    RunOptions o;
    o.out_dir = dir_ / "results";
    o.config_dir = dir_ / "configs";
    o.progress = false;
    o.model_registry = &testing::ToyModels();
    RunExperiment(*experiments_[0], o);
  }

  testing::TempDir dir_;
  std::vector<std::unique_ptr<Experiment>> experiments_;
  ReportOptions options_;
};

TEST_F(ReportTest, VerdictsAndNotes) {
  RunToy();
  testing::WriteFile(dir_ / "plots/out/toy_fig1.png", "not really a png");
  const ReportSummary s = WriteReport(dir_ / "results", dir_ / "claims.toml", options_);
  ASSERT_EQ(s.entries.size(), 4u);
  EXPECT_EQ(s.reproduced, 1);
  EXPECT_EQ(s.differs, 0);
  EXPECT_EQ(s.not_run, 3);
  EXPECT_TRUE(s.errors.empty());
  EXPECT_EQ(s.entries[0].verdict, Verdict::kReproduced);
  EXPECT_FALSE(s.entries[0].ours.empty());
  EXPECT_EQ(s.entries[1].verdict, Verdict::kNotRun);
  EXPECT_TRUE(Contains(s.entries[1].note, "model not implemented yet"));
  EXPECT_EQ(s.entries[2].note, "experiment not run");
  EXPECT_EQ(s.entries[3].verdict, Verdict::kNotRun);
  EXPECT_EQ(s.entries[3].note, "experiment not implemented yet");

  const auto j = nlohmann::json::parse(ReadFile(dir_ / "results/report.json"));
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), 4u);
  for (const auto& claim : j) {
    for (const char* key : {"id", "experiment", "description", "paper", "ours", "unit", "verdict", "note"}) {
      EXPECT_TRUE(claim.contains(key)) << key;
    }
  }
  EXPECT_EQ(j[0]["id"], "toy.mean_metric");
  EXPECT_EQ(j[0]["verdict"], "reproduced");
  EXPECT_TRUE(j[0]["ours"].is_number());
  EXPECT_EQ(j[1]["unit"], "s");
  EXPECT_TRUE(j[1]["ours"].is_null());
  EXPECT_EQ(j[3]["verdict"], "not_run");
  EXPECT_EQ(j[3]["paper"], "42%");

  const std::string md = ReadFile(dir_ / "results/REPORT.md");
  EXPECT_TRUE(Contains(md, "| reproduced | 1 |"));
  EXPECT_TRUE(Contains(md, "| not_run | 3 |"));
  EXPECT_TRUE(Contains(md, "## toy — toy paper, Fig. 1"));
  EXPECT_TRUE(Contains(md, "mean of the metric \\| over all cases"));  // pipes escaped
  EXPECT_TRUE(Contains(md, "![toy_fig1](../plots/out/toy_fig1.png)"));
  EXPECT_FALSE(Contains(md, "toy_missing"));  // no PNG, no link
  EXPECT_TRUE(Contains(md, "Observations"));
  EXPECT_TRUE(Contains(md, "## Experiments not run"));
  EXPECT_TRUE(Contains(md, "`idle` (toy paper, Fig. 1): no results yet"));
  EXPECT_TRUE(Contains(md, "`future`: not implemented yet"));
  EXPECT_TRUE(Contains(md, "profile quick, commit"));
}

TEST_F(ReportTest, NothingRun) {
  const ReportSummary s = WriteReport(dir_ / "results", dir_ / "claims.toml", options_);
  EXPECT_EQ(s.not_run, 4);
  EXPECT_TRUE(fs::exists(dir_ / "results/report.json"));
  EXPECT_TRUE(fs::exists(dir_ / "results/REPORT.md"));
}

TEST_F(ReportTest, ClaimResultNotInCatalogueIsAnError) {
  RunToy();
  static_cast<testing::ToyExperiment&>(*experiments_[0]).extra_claim = "toy.typo_claim";
  try {
    WriteReport(dir_ / "results", dir_ / "claims.toml", options_);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_TRUE(Contains(e.what(), "toy: toy.typo_claim"));
  }
  EXPECT_FALSE(fs::exists(dir_ / "results/report.json"));
}

TEST_F(ReportTest, SummarizeFailureIsReported) {
  RunToy();
  testing::WriteFile(dir_ / "results/toy/toy.csv", "case_id,model\na,alpha\n");  // no metric
  const ReportSummary s = WriteReport(dir_ / "results", dir_ / "claims.toml", options_);
  ASSERT_EQ(s.errors.size(), 1u);
  EXPECT_TRUE(Contains(s.entries[0].note, "summary failed"));
}

TEST(LoadClaimsTest, Errors) {
  testing::TempDir dir;
  testing::WriteFile(dir / "a.toml", "[[claim]]\nid = \"x\"\nexperiment = \"e\"\ndescription = \"d\"\n");
  try {
    LoadClaims(dir / "a.toml");
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_TRUE(Contains(e.what(), "claim #1 (line 1): missing field 'paper'"));
  }
  testing::WriteFile(dir / "b.toml",
                     "[[claim]]\nid = \"x\"\nexperiment = \"e\"\ndescription = \"d\"\npaper = 0.1\n");
  EXPECT_THROW(LoadClaims(dir / "b.toml"), ParseError);  // paper is a string as printed
  testing::WriteFile(dir / "c.toml",
                     "[[claim]]\nid = \"x\"\nexperiment = \"e\"\ndescription = \"d\"\npaper = \"1\"\n"
                     "papr = \"2\"\n");
  EXPECT_THROW(LoadClaims(dir / "c.toml"), ParseError);  // unknown field
  testing::WriteFile(dir / "d.toml", "[[claim]\n");
  try {
    LoadClaims(dir / "d.toml");
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_TRUE(Contains(e.where(), "line 1"));
  }
  const std::string one = "[[claim]]\nid = \"x\"\nexperiment = \"e\"\ndescription = \"d\"\npaper = \"1\"\n";
  testing::WriteFile(dir / "e.toml", one + one);
  EXPECT_THROW(LoadClaims(dir / "e.toml"), ParseError);  // duplicate id
  testing::WriteFile(dir / "f.toml", one);
  EXPECT_EQ(LoadClaims(dir / "f.toml").size(), 1u);
}

TEST(LoadClaimsTest, RepositoryCatalogueParses) {
  const std::string path = std::string(ARENA_SOURCE_DIR) + "/experiments/claims.toml";
  if (!fs::exists(path)) GTEST_SKIP();
  EXPECT_NO_THROW(LoadClaims(path));
}

}  // namespace
}  // namespace arena
