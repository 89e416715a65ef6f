// ablations (seed 004 Fig. 13, Tables 4-5): the variants of each study, a run's time to converge
// (its horizon when the cube never gets there), and the three claims from a hand-made table.
#include "experiments/ablations/ablations.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "experiments/result_table.h"
#include "harness/report.h"
#include "tests/experiments/claim_verdict.h"
#include "tests/experiments/experiment_test_config.h"

namespace arena {
namespace ablations_test {

using ::testing::HasSubstr;
using testing_config::Reproduced;

ProfileConfig Config() {
  return testing_config::QuickConfig(
      "ablations",
      "horizon_s = 0.04\nwindow_s = 0.04\niterations = 1\nlearning_rate = 1e-2\nadam_beta1 = 0.3\nadam_beta2 = 0.5\ntarget_tolerance_m = 0.15\n"
      "smoothness_mu = 1e-6\nsmoothness_timestep_s = 0.04\ntimestep_mu = 1e-7\ntimesteps_s = [0.01, 0.08]\n"
      "mu_timestep_s = 0.04\nmus = [1e-6, 1e-10]\n");
}

TEST(Ablations, ExpandsEachStudysVariants) {
  const Sweep sweep = AblationsExperiment().Expand(Config(), {"longrange", "ipc", "mujoco"});
  std::vector<std::string> ids;
  for (const Case& c : sweep.cases) ids.push_back(c.id);
  EXPECT_THAT(ids, ::testing::ElementsAre("smoothness/longrange", "smoothness/ipc_global_barrier", "timestep/dt=0.01",
                                          "timestep/dt=0.08", "mu/mu=1e-06", "mu/mu=1e-10"));
  EXPECT_EQ(sweep.cases[1].model_options.at("barrier"), "global");
  EXPECT_EQ(sweep.cases[2].model_options.at("timestep"), "0.01");
  EXPECT_EQ(sweep.cases[2].model_options.at("mu"), "1e-07");
  auto steps = [](const Case& c) {
    for (const auto& [k, v] : c.params) {
      if (k == "steps") return std::get<std::int64_t>(v);
    }
    return std::int64_t{-1};
  };
  EXPECT_EQ(steps(sweep.cases[2]), 4);  // 0.04 s at dt 0.01
  EXPECT_EQ(steps(sweep.cases[3]), 1);  // at least one step at dt 0.08
  EXPECT_EQ(sweep.cases[5].model_options.at("mu"), "1e-10");
  EXPECT_THAT(::testing::PrintToString(sweep.notes), HasSubstr("mujoco: skipped"));
}

// Not at the target after its one step: the run counts as its horizon, 1 x 0.04 s.
TEST(Ablations, ARunThatNeverConvergesCountsAsItsHorizon) {
  const AblationsExperiment e;
  const Sweep sweep = e.Expand(Config(), {"ipc"});
  ASSERT_EQ(sweep.cases.size(), 1u);
  const std::vector<Row> rows = e.Run(sweep.cases[0]);
  EXPECT_DOUBLE_EQ(std::get<double>(rows[0].at("time_to_converge_s")), 0.04);
  EXPECT_FALSE(std::get<bool>(rows[0].at("reached")));
}

TEST(Ablations, SummarizeComparesTimesToConverge) {
  // The runs are found by their timestep_s and mu, as the CSV has them (the variant is a label).
  const std::vector<std::string> columns = {"study", "variant", "timestep_s", "mu", "record", "reached",
                                            "time_to_converge_s"};
  const ResultTable table(columns, {{"smoothness", "longrange", "0.04", "1e-06", "step", "true", "3.2"},
                                    {"smoothness", "ipc_global_barrier", "0.04", "", "step", "false", "8"},
                                    {"timestep", "dt=0.01", "0.01", "1e-07", "step", "true", "5.76"},
                                    {"timestep", "dt=0.08", "0.08", "1e-07", "step", "true", "2.8"},
                                    {"mu", "mu=1e-06", "0.04", "1e-06", "step", "true", "3.2"},
                                    {"mu", "mu=1e-08", "0.04", "1e-08", "step", "true", "3.24"},
                                    {"mu", "mu=1e-10", "0.04", "1e-10", "step", "true", "4.8"},
                                    {"mu", "mu=1e-10", "0.04", "1e-10", "cube", "", ""}});
  const std::vector<ClaimResult> claims = AblationsExperiment().Summarize(table);
  ASSERT_EQ(claims.size(), 3u);
  EXPECT_DOUBLE_EQ(claims[0].ours, 2.5);
  EXPECT_THAT(claims[0].note, HasSubstr("ipc_global_barrier 8 s (not reached)"));
  EXPECT_NEAR(claims[1].ours, 5.76 / 2.8, 1e-12);
  EXPECT_DOUBLE_EQ(claims[2].ours, 1.5);
  for (const ClaimResult& r : claims) EXPECT_TRUE(Reproduced(r)) << r.id;
  // Neither converged: two horizons' ratio is no measurement.
  const ResultTable none(columns, {{"timestep", "dt=0.01", "0.01", "1e-07", "step", "false", "8"},
                                   {"timestep", "dt=0.08", "0.08", "1e-07", "step", "false", "8"}});
  const std::vector<ClaimResult> unmeasured = AblationsExperiment().Summarize(none);
  ASSERT_EQ(unmeasured.size(), 1u);
  EXPECT_TRUE(std::isnan(unmeasured[0].ours));
  EXPECT_EQ(unmeasured[0].ours_text, "neither run converged within its horizon");
}

}  // namespace ablations_test
}  // namespace arena
