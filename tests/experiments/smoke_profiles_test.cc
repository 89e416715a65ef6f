// Every registered experiment's smoke profile (its quick profile shrunk by the [smoke] table of
// experiments/<name>/config.toml to a run of seconds) end to end through the runner: every case
// runs without an error row, and Summarize reads the table into claims of the experiment's own
// folder. The fast check that an experiment still runs at all; the golden comparison of whole
// quick profiles is QuickProfile.MatchesReference (the regression tier).
#include <gtest/gtest.h>

#include <map>

#include "config/profile_config.h"
#include "experiments/registry.h"
#include "experiments/result_table.h"
#include "harness/claims.h"
#include "harness/csv_writer.h"
#include "harness/runner.h"
#include "tests/scratch_dir.h"
#include "tests/test_paths.h"

namespace arena {
namespace smoke_profiles_test {

class SmokeProfile : public ::testing::TestWithParam<std::string> {};

TEST_P(SmokeProfile, RunsAndSummarizes) {
  const Experiment& experiment = FindExperiment(GetParam());
  const testing::ScratchDir scratch;
  RunOptions options;
  options.threads = 1;
  options.progress = false;
  options.profile = kSmokeProfile;
  options.out_dir = scratch.path();
  const RunSummary summary = RunExperiment(experiment, options);
  EXPECT_GT(summary.cases_total, 0);
  EXPECT_EQ(summary.cases_failed, 0);
  const ResultTable table = ResultTable::ReadCsv(summary.csv_path);
  ASSERT_GT(table.num_rows(), 0);
  for (int r = 0; r < table.num_rows(); ++r) {
    EXPECT_EQ(table.Text(r, kErrorColumn), "") << table.Text(r, "case_id");
  }
  std::map<std::string, std::string> experiment_of;
  for (const Claim& c : LoadClaims(::arena::testing::SourceDir() + "/experiments/" + GetParam() + "/claims.toml")) {
    experiment_of[c.id] = c.experiment;
  }
  std::vector<ClaimResult> claims;
  ASSERT_NO_THROW(claims = experiment.Summarize(table));
  for (const ClaimResult& c : claims) EXPECT_EQ(experiment_of[c.id], GetParam()) << c.id;
}

INSTANTIATE_TEST_SUITE_P(Registered, SmokeProfile, ::testing::ValuesIn(ExperimentNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace smoke_profiles_test
}  // namespace arena
