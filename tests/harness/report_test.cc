#include "harness/report.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/common/error.h"
#include "harness/runner.h"
#include "tests/harness/toy_experiment.h"
#include "tests/test_paths.h"

namespace arena {
namespace report_test {

namespace fs = std::filesystem;
using testing::Contains;
using testing::ReadFile;

// The toy's quick profile has 30 rows (alpha: 5 xs x 2 stiffnesses x 2 repeats; beta: 5 x 2).
const char* kClaims = R"(
[[claim]]
id = "toy.mean_metric"
experiment = "toy"
description = "mean of the metric | over all cases"
paper = "0.5"
criterion = "between 0 and 1 and rows == 30"

[[claim]]
id = "toy.rows"
experiment = "toy"
kind = "observation"
description = "rows of the table, not a paper claim"
paper = "not reported"

[[claim]]
id = "toy.not_measured"
experiment = "toy"
description = "a claim Summarize does not return"
paper = "3"
unit = "s"
criterion = "ours < 5"

[[claim]]
id = "idle.claim"
experiment = "idle"
description = "an experiment that is registered but not run"
paper = "1"
criterion = "ours == 1"

[[claim]]
id = "future.claim"
experiment = "future"
description = "an experiment not implemented yet"
paper = "42%"
criterion = "within 10 % of 42"
)";

// kClaims with the first criterion replaced.
std::string ClaimsWithCriterion(const std::string& criterion) {
  std::string text = kClaims;
  const std::string old = "between 0 and 1 and rows == 30";
  text.replace(text.find(old), old.size(), criterion);
  return text;
}

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
  void RunToy() { RunExperiment(*experiments_[0], testing::ToyRunOptions(dir_.path())); }

  testing::ScratchDir dir_;
  std::vector<std::unique_ptr<Experiment>> experiments_;
  ReportOptions options_;
};

TEST_F(ReportTest, VerdictsAndNotes) {
  RunToy();
  testing::WriteFile(dir_ / "plots/out/toy_fig1.png", "not really a png");
  const ReportSummary s = WriteReport(dir_ / "results", dir_ / "claims.toml", options_);
  ASSERT_EQ(s.entries.size(), 5u);
  EXPECT_EQ(s.reproduced, 1);
  EXPECT_EQ(s.differs, 0);
  EXPECT_EQ(s.not_run, 3);
  EXPECT_EQ(s.observed, 1);  // counted apart from the claims
  EXPECT_EQ(s.observations_not_run, 0);
  EXPECT_TRUE(s.errors.empty());
  EXPECT_EQ(s.entries[0].verdict, Verdict::kReproduced);
  EXPECT_FALSE(s.entries[0].ours.empty());
  EXPECT_EQ(s.entries[0].note, "");
  EXPECT_EQ(s.entries[0].values.at("rows"), 30.0);
  EXPECT_EQ(s.entries[1].verdict, Verdict::kObserved);
  EXPECT_EQ(s.entries[1].ours, "30");
  EXPECT_EQ(s.entries[2].verdict, Verdict::kNotRun);
  EXPECT_TRUE(Contains(s.entries[2].note, "model not implemented yet"));
  EXPECT_EQ(s.entries[3].note, "experiment not run");
  EXPECT_EQ(s.entries[4].verdict, Verdict::kNotRun);
  EXPECT_EQ(s.entries[4].note, "experiment not implemented yet");

  const auto j = nlohmann::json::parse(ReadFile(dir_ / "results/report.json"));
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), 5u);
  for (const auto& claim : j) {
    for (const char* key : {"id", "experiment", "kind", "description", "paper", "ours", "values", "unit",
                            "criterion", "verdict", "note"}) {
      EXPECT_TRUE(claim.contains(key)) << key;
    }
  }
  EXPECT_EQ(j[0]["id"], "toy.mean_metric");
  EXPECT_EQ(j[0]["kind"], "claim");
  EXPECT_EQ(j[0]["criterion"], "between 0 and 1 and rows == 30");
  EXPECT_EQ(j[0]["verdict"], "reproduced");
  EXPECT_TRUE(j[0]["ours"].is_number());
  EXPECT_EQ(j[0]["values"]["rows"], 30.0);
  EXPECT_EQ(j[1]["kind"], "observation");
  EXPECT_TRUE(j[1]["criterion"].is_null());
  EXPECT_EQ(j[1]["verdict"], "observed");
  EXPECT_EQ(j[1]["ours"], 30.0);
  EXPECT_EQ(j[2]["unit"], "s");
  EXPECT_TRUE(j[2]["ours"].is_null());
  EXPECT_TRUE(j[2]["values"].empty());
  EXPECT_EQ(j[4]["verdict"], "not_run");
  EXPECT_EQ(j[4]["paper"], "42%");
  EXPECT_EQ(j[4]["criterion"], "within 10 % of 42");

  const std::string md = ReadFile(dir_ / "results/REPORT.md");
  EXPECT_TRUE(Contains(md, "| reproduced | 1 |"));
  EXPECT_TRUE(Contains(md, "| not_run | 3 |"));
  EXPECT_TRUE(Contains(md, "1 observed, 0 not run"));
  // The criterion beside the verdict; an observation has none.
  EXPECT_TRUE(Contains(md, "| claim | paper | ours | criterion | verdict | note |"));
  EXPECT_TRUE(Contains(md, "| `between 0 and 1 and rows == 30` | reproduced |"));
  EXPECT_TRUE(Contains(md, "| 30 | none (observation) | observed |"));
  EXPECT_TRUE(Contains(md, "| `ours < 5` | not_run |"));
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
  EXPECT_EQ(s.observed, 0);
  EXPECT_EQ(s.observations_not_run, 1);
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

// The report, not the experiment, decides: the same measurement differs under a stricter
// criterion, and the note says which clause failed with which value.
TEST_F(ReportTest, CriterionDecidesTheVerdict) {
  RunToy();
  testing::WriteFile(dir_ / "claims.toml", ClaimsWithCriterion("ours > 1 and rows == 30"));
  const ReportSummary s = WriteReport(dir_ / "results", dir_ / "claims.toml", options_);
  EXPECT_EQ(s.reproduced, 0);
  EXPECT_EQ(s.differs, 1);
  EXPECT_EQ(s.entries[0].verdict, Verdict::kDiffers);
  EXPECT_TRUE(Contains(s.entries[0].note, "ours > 1 does not hold: ours = 0."));
  EXPECT_FALSE(Contains(s.entries[0].note, "rows"));  // that clause holds
  EXPECT_TRUE(Contains(ReadFile(dir_ / "results/REPORT.md"), "| `ours > 1 and rows == 30` | differs | ours > 1 does not hold"));
}

// A claim only a larger profile decides (Claim::decided_at) is not judged at the toy's quick
// profile: its value is shown, the verdict says why there is none; a profile in the list judges.
TEST_F(ReportTest, ClaimNotDecidedAtTheRunsProfile) {
  RunToy();
  std::string text = kClaims;
  const std::string criterion = "criterion = \"between 0 and 1 and rows == 30\"\n";
  text.replace(text.find(criterion), criterion.size(), criterion + "decided_at = [\"paper\"]\n");
  testing::WriteFile(dir_ / "claims.toml", text);
  ReportSummary s = WriteReport(dir_ / "results", dir_ / "claims.toml", options_);
  EXPECT_EQ(s.entries[0].verdict, Verdict::kNotDecided);
  EXPECT_EQ(s.not_decided, 1);
  EXPECT_EQ(s.reproduced, 0);
  EXPECT_EQ(s.differs, 0);
  EXPECT_FALSE(s.entries[0].ours.empty());  // measured, shown
  EXPECT_TRUE(Contains(s.entries[0].note, "not decided at the quick profile (decided at: paper)"));
  EXPECT_TRUE(Contains(ReadFile(dir_ / "results/REPORT.md"), "| not_decided (a profile too small for the claim) | 1 |"));
  text = kClaims;
  text.replace(text.find(criterion), criterion.size(), criterion + "decided_at = [\"quick\", \"paper\"]\n");
  testing::WriteFile(dir_ / "claims.toml", text);
  s = WriteReport(dir_ / "results", dir_ / "claims.toml", options_);
  EXPECT_EQ(s.entries[0].verdict, Verdict::kReproduced);
  EXPECT_EQ(s.not_decided, 0);
}

// A ClaimResult with ours NaN (nothing measured) differs with the reason.
TEST_F(ReportTest, NaNDiffers) {
  RunToy();
  static_cast<testing::ToyExperiment&>(*experiments_[0]).extra_claim = "toy.not_measured";
  const ReportSummary s = WriteReport(dir_ / "results", dir_ / "claims.toml", options_);
  EXPECT_EQ(s.entries[2].verdict, Verdict::kDiffers);
  EXPECT_TRUE(Contains(s.entries[2].note, "ours < 5 cannot hold: ours is NaN"));
  EXPECT_EQ(s.differs, 1);
}

// A criterion reading a value Summarize does not return is a programming error, like an
// unknown id: nothing is written.
TEST_F(ReportTest, CriterionReadingAnUnmeasuredValueIsAnError) {
  RunToy();
  testing::WriteFile(dir_ / "claims.toml", ClaimsWithCriterion("ours > 0 and rows_typo == 30"));
  try {
    WriteReport(dir_ / "results", dir_ / "claims.toml", options_);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_TRUE(Contains(e.what(), "toy.mean_metric reads 'rows_typo'"));
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
  testing::ScratchDir dir;
  testing::WriteFile(dir / "a.toml", "[[claim]]\nid = \"x\"\nexperiment = \"e\"\ndescription = \"d\"\n");
  try {
    LoadClaims(dir / "a.toml");
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_TRUE(Contains(e.what(), "claim #1 (line 1) 'x': missing field 'paper'"));
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
  const std::string head = "[[claim]]\nid = \"x\"\nexperiment = \"e\"\ndescription = \"d\"\npaper = \"1\"\n";
  const std::string one = head + "criterion = \"ours >= 1\"\n";
  testing::WriteFile(dir / "e.toml", one + one);
  EXPECT_THROW(LoadClaims(dir / "e.toml"), ParseError);  // duplicate id
  testing::WriteFile(dir / "f.toml", one);
  const std::vector<Claim> claims = LoadClaims(dir / "f.toml");
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(claims[0].kind, ClaimKind::kClaim);
  ASSERT_TRUE(claims[0].criterion.has_value());
  EXPECT_EQ(claims[0].criterion->text(), "ours >= 1");

  // Each problem names the file, the claim and what is wrong.
  auto problem = [&](const std::string& text) -> std::string {
    testing::WriteFile(dir / "g.toml", text);
    try {
      LoadClaims(dir / "g.toml");
    } catch (const ParseError& e) {
      EXPECT_TRUE(Contains(e.what(), dir / "g.toml"));
      EXPECT_TRUE(Contains(e.where(), "claim #1 (line 1) 'x'"));
      return e.reason();
    }
    return "(loaded)";
  };
  EXPECT_TRUE(Contains(problem(head), "missing field 'criterion'"));
  EXPECT_TRUE(Contains(problem(head + "criterion = \"ours >=\"\n"),
                       "criterion \"ours >=\": column 8: expected 'ours', a measured value's name or a number"));
  EXPECT_TRUE(Contains(problem(head + "criterion = \"within 20 of 87.84\"\n"), "expected '%'"));
  EXPECT_TRUE(Contains(problem(head + "criterion = 0.95\n"), "field 'criterion' must be a string"));
  EXPECT_TRUE(Contains(problem(head + "kind = \"claimed\"\ncriterion = \"ours > 1\"\n"),
                       "unknown kind 'claimed'; kinds: claim, observation"));
  EXPECT_TRUE(Contains(problem(head + "kind = \"observation\"\ncriterion = \"ours > 1\"\n"),
                       "an observation has no criterion"));
  EXPECT_TRUE(Contains(problem(head + "criterion = \"ours > 1\"\ncriterium = \"ours > 1\"\n"),
                       "unknown field 'criterium'"));
  EXPECT_TRUE(Contains(problem(head + "criterion = \"ours > 1\"\ndecided_at = [\"full\"]\n"),
                       "field 'decided_at': each entry must be one of \"smoke\", \"quick\", \"paper\""));
  EXPECT_TRUE(Contains(problem(head + "criterion = \"ours > 1\"\ndecided_at = \"paper\"\n"),
                       "field 'decided_at' must be a non-empty array"));
  testing::WriteFile(dir / "h.toml", head + "kind = \"observation\"\n");
  const std::vector<Claim> observed = LoadClaims(dir / "h.toml");
  EXPECT_EQ(observed[0].kind, ClaimKind::kObservation);
  EXPECT_FALSE(observed[0].criterion.has_value());
}

TEST(LoadClaimsTest, KindAndVerdictNames) {
  EXPECT_EQ(ClaimKindFromString("claim"), ClaimKind::kClaim);
  EXPECT_EQ(ClaimKindFromString("observation"), ClaimKind::kObservation);
  EXPECT_EQ(ToString(ClaimKind::kObservation), "observation");
  EXPECT_THROW(ClaimKindFromString("Claim"), InvalidArgument);
  EXPECT_EQ(ToString(Verdict::kReproduced), "reproduced");
  EXPECT_EQ(ToString(Verdict::kDiffers), "differs");
  EXPECT_EQ(ToString(Verdict::kObserved), "observed");
  EXPECT_EQ(ToString(Verdict::kNotRun), "not_run");
  EXPECT_EQ(ToString(Verdict::kNotDecided), "not_decided");
}

TEST(LoadClaimsTest, RepositoryCatalogueParses) {
  std::vector<Claim> claims;
  ASSERT_NO_THROW(claims = LoadClaims(::arena::testing::SourceDir() + "/experiments"));
  EXPECT_GE(claims.size(), 50u);
  for (const Claim& c : claims) {
    EXPECT_EQ(c.criterion.has_value(), c.kind == ClaimKind::kClaim) << c.id;
  }
}

// A folder of experiment folders reads as one list: the named order first, then the other
// folders by name; a claim filed under another experiment's folder is an error.
TEST(LoadClaimsTest, FolderOfExperiments) {
  testing::ScratchDir dir;
  auto claim = [](const std::string& id, const std::string& experiment) {
    return "[[claim]]\nid = \"" + id + "\"\nexperiment = \"" + experiment +
           "\"\ndescription = \"d\"\npaper = \"1\"\ncriterion = \"ours == 1\"\n";
  };
  testing::WriteFile(dir / "b/claims.toml", claim("b.one", "b"));
  testing::WriteFile(dir / "a/claims.toml", claim("a.one", "a") + claim("a.two", "a"));
  testing::WriteFile(dir / "c/claims.toml", claim("c.one", "c"));
  testing::WriteFile(dir / "no_claims/config.toml", "");
  std::vector<std::string> ids;
  for (const Claim& c : LoadClaims(dir.path(), {"c", "b"})) ids.push_back(c.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"c.one", "b.one", "a.one", "a.two"}));
  testing::WriteFile(dir / "d/claims.toml", claim("d.one", "a"));
  try {
    LoadClaims(dir.path());
    ADD_FAILURE() << "a claim of a in d's folder";
  } catch (const ParseError& e) {
    EXPECT_TRUE(testing::Contains(e.what(), "is not this folder's ('d')"));
  }
  fs::remove(dir / "d/claims.toml");
  testing::WriteFile(dir / "d/claims.toml", claim("a.one", "d"));
  EXPECT_THROW(LoadClaims(dir.path()), ParseError);  // an id twice, in two files
}

}  // namespace report_test
}  // namespace arena
