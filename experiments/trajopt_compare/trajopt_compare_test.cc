// trajopt_compare (Nimble Fig. 7): config validation, a short run of each optimiser on the
// cartpole (finite losses; L-BFGS lowers the loss), and the claim from a hand-made table.
#include "experiments/trajopt_compare/trajopt_compare.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "core/common/error.h"
#include "config/profile_config.h"
#include "tests/experiments/claim_verdict.h"
#include "tests/experiments/experiment_test_config.h"
#include "harness/report.h"
#include "experiments/result_table.h"
#include "models/registry.h"

namespace arena {
namespace trajopt_compare_test {

using ::testing::HasSubstr;
using testing_config::Reproduced;

ProfileConfig Config(const std::string& body) { return testing_config::QuickConfig("trajopt_compare", body); }

std::string Body(const std::string& problems, const std::string& methods, const std::string& per_problem,
                 int max_rollouts) {
  const std::string rollouts = "[" + std::to_string(max_rollouts) + "]";
  return "problems = " + problems + "\nmethods = " + methods + "\nthresholds = " + per_problem +
         "\nmax_rollouts = " + rollouts + "\ntime_budgets_s = [0]\ncem_population = 64\ncem_elites = 8\n"
         "cem_initial_std = 0.5\nms_shot_steps = 10\nms_inner_iterations = 10\nms_initial_penalty = 1\n";
}

std::string ExpandError(const std::string& body) {
  const TrajoptCompareExperiment e;
  try {
    e.Expand(Config(body), {"nimble"});
  } catch (const InvalidArgument& error) {
    return error.what();
  }
  return "";
}

// Every model that can simulate the problem runs; gradient methods only where the model has
// step derivatives, and the case says where its gradient comes from.
TEST(TrajoptCompare, ExpandsEveryCapableModel) {
  const TrajoptCompareExperiment e;
  const Sweep sweep = e.Expand(Config(Body("[\"cartpole\"]", "[\"lbfgs\", \"cem\"]", "[1e-3]", 100)),
                               {"nimble", "mujoco", "silico"});
  ASSERT_EQ(sweep.cases.size(), 4u);
  EXPECT_EQ(sweep.cases[0].id, "nimble/cartpole/lbfgs");
  EXPECT_EQ(sweep.cases[1].id, "nimble/cartpole/cem");
  EXPECT_EQ(sweep.cases[2].id, "mujoco/cartpole/lbfgs");
  EXPECT_EQ(sweep.cases[0].model_options.at("timestep"), "0.01");
  auto gradient = [](const Case& c) {
    for (const auto& [k, v] : c.params) {
      if (k == "gradient") return std::get<std::string>(v);
    }
    return std::string();
  };
  EXPECT_EQ(gradient(sweep.cases[0]), "analytical");
  EXPECT_EQ(gradient(sweep.cases[1]), "none");
  EXPECT_EQ(gradient(sweep.cases[2]), "finite_differences");
  // silico has no articulated trees: skipped with the reason.
  EXPECT_THAT(::testing::PrintToString(sweep.notes), HasSubstr("silico: skipped cartpole"));
}

TEST(TrajoptCompare, RejectsBadConfigNamingTheKey) {
  EXPECT_THAT(ExpandError(Body("[\"acrobot\"]", "[\"lbfgs\"]", "[1e-3]", 100)),
              HasSubstr("trajopt_compare.toml: key problems: unknown problem 'acrobot'"));
  EXPECT_THAT(ExpandError(Body("[\"cartpole\"]", "[\"ddp\"]", "[1e-3]", 100)),
              HasSubstr("trajopt_compare.toml: key methods: unknown method 'ddp'"));
  EXPECT_THAT(ExpandError(Body("[\"cartpole\"]", "[\"lbfgs\"]", "[1e-3, 1e-3]", 100)),
              HasSubstr("key thresholds needs one value per entry of problems"));
  EXPECT_THAT(ExpandError(Body("[\"cartpole\"]", "[\"lbfgs\"]", "[0]", 100)), HasSubstr("key 'thresholds'"));
  EXPECT_THAT(ExpandError(Body("[\"cartpole\"]", "[\"lbfgs\"]", "[1e-3]", 0)), HasSubstr("key 'max_rollouts'"));
}

double Number(const Row& row, const char* key) { return std::get<double>(row.at(key)); }

// 40 rollouts each: L-BFGS cuts the cartpole's loss at least tenfold, multiple shooting at
// least in half; CEM's stays finite and never rises (it is the best so far) and stops on the
// rollout budget.
TEST(TrajoptCompare, ShortRunsOnTheCartpole) {
  const TrajoptCompareExperiment e;
  const Sweep sweep =
      e.Expand(Config(Body("[\"cartpole\"]", "[\"lbfgs\", \"cem\", \"multiple_shooting\"]", "[1e-12]", 40)), {"nimble"});
  const std::vector<Row> lbfgs = e.Run(sweep.cases[0]);
  const std::vector<Row> cem = e.Run(sweep.cases[1]);
  const std::vector<Row> ms = e.Run(sweep.cases[2]);
  ASSERT_GE(ms.size(), 2u);
  EXPECT_LT(Number(ms.back(), "loss"), 0.5 * Number(ms[0], "loss"));
  EXPECT_EQ(Number(ms[0], "loss"), Number(lbfgs[0], "loss"));
  ASSERT_GE(lbfgs.size(), 3u);
  ASSERT_GE(cem.size(), 2u);
  for (const std::vector<Row>* rows : {&lbfgs, &cem}) {
    for (const Row& r : *rows) EXPECT_TRUE(std::isfinite(Number(r, "loss")));
  }
  EXPECT_EQ(std::get<std::string>(cem.back().at("stop")), "max_rollouts");
  EXPECT_FALSE(std::get<bool>(cem.back().at("reached")));
  EXPECT_LT(Number(lbfgs.back(), "loss"), 0.1 * Number(lbfgs[0], "loss"));
  EXPECT_LE(Number(cem.back(), "loss"), Number(cem[0], "loss"));
  EXPECT_EQ(Number(lbfgs[0], "loss"), Number(cem[0], "loss"));  // both start from zero controls
}

// On each problem the gradient method the paper used counts: L-BFGS (for DDP) on the cartpole,
// multiple shooting on the catapult, where L-BFGS here stalls (it must not count).
ResultTable Table(const std::string& cem_reached, const std::string& cem_time) {
  const std::vector<std::string> columns = {"model", "problem", "method", "gradient", "elapsed_s",
                                             "reached", "time_to_threshold_s", "loss"};
  return ResultTable(columns, {{"nimble", "cartpole", "lbfgs", "analytical", "0.5", "true", "0.5", "1e-4"},
                               {"nimble", "cartpole", "multiple_shooting", "analytical", "9", "false", "", "2"},
                               {"nimble", "cartpole", "cem", "none", cem_time, cem_reached,
                                cem_reached == "true" ? cem_time : "", "1e-4"},
                               {"nimble", "catapult", "lbfgs", "analytical", "3", "false", "", "0.8"},
                               {"nimble", "catapult", "multiple_shooting", "analytical", "2", "true", "1", "1e-3"},
                               {"nimble", "catapult", "cem", "none", "30", "false", "", "0.3"},
                               {"penalty", "catapult", "multiple_shooting", "analytical", "0.1", "true", "0.1", "1e-3"}});
}

TEST(TrajoptCompare, SummarizeCountsTheProblemsWhereTheGradientWins) {
  const TrajoptCompareExperiment e;
  std::vector<ClaimResult> claims = e.Summarize(Table("true", "2"));
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(claims[0].id, "trajopt_compare.gradient_faster");
  EXPECT_EQ(claims[0].ours_text, "faster on 2 of 2 problems");
  EXPECT_EQ(claims[0].ours, 2.0);
  EXPECT_EQ(claims[0].values.at("compared"), 2.0);
  EXPECT_TRUE(Reproduced(claims[0]));
  EXPECT_THAT(claims[0].note, HasSubstr("counted as its budget"));
  EXPECT_THAT(claims[0].note, HasSubstr("ratio 4"));  // cartpole 2 / 0.5
  EXPECT_THAT(claims[0].note, HasSubstr("catapult: multiple_shooting 1 s"));
  EXPECT_EQ(e.Observe(Table("true", "2")).size(), 7u);  // every model, problem and method
  claims = e.Summarize(Table("true", "0.25"));  // cem first on the cartpole
  EXPECT_EQ(claims[0].ours_text, "faster on 1 of 2 problems");
  EXPECT_EQ(claims[0].ours, 1.0);
  EXPECT_FALSE(Reproduced(claims[0]));
}

}  // namespace trajopt_compare_test
}  // namespace arena
