// chain_reach (seed 003 Fig. 10): the objective's gradient (spline coefficients and the shape,
// the tip's own dependence on the joints included) against central differences of its value;
// the sweep's variants and input checks; the claim from a table. Its quick profile is checked
// against the committed reference with every experiment's (quick_profiles_test.cc).
#include "experiments/chain_reach/chain_reach.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>

#include "experiments/result_table.h"
#include "core/common/random.h"
#include "experiments/chain_reach/chain_reach_task.h"
#include "models/registry.h"
#include "tests/experiments/experiment_test_config.h"

namespace arena {
namespace chain_reach_test {

using ::testing::HasSubstr;
using testing_config::InvalidArgumentMessage;
using testing_config::QuickConfig;
using testing_config::RowNumber;

// dL/dx . w against (L(x + h w) - L(x - h w)) / 2h at a point where the chain swings.
void CheckDirections(bool codesign) {
  const ReachingChains chains = ReachingChainsScene({.links = 2, .cap_points = 4});
  OptionMap options{{"timestep", "0.02"}};
  if (codesign) {
    options["design_derivatives"] = "true";
    options["design_colliders"] = "chain0_";
  }
  std::unique_ptr<Simulator> sim = MakeSimulator("sdrs", chains.scene, options);
  auto& ip = *sim;
  ChainReachObjective objective(ip, chains, 12, codesign);
  VecX x = objective.Start();
  x.head<4>() << 0.3, -0.2, 0.5, 0.4;
  VecX g;
  ASSERT_TRUE(std::isfinite(objective.Evaluate(x, &g)));
  ASSERT_EQ(g.size(), objective.dimension());
  Rng rng(3);
  for (int d = 0; d < 3; ++d) {
    VecX w(x.size());
    for (int i = 0; i < w.size(); ++i) w[i] = Uniform(rng, -1.0, 1.0);
    w /= w.norm();
    const double h = 1e-5;
    const double fd = (objective.Evaluate(x + h * w, nullptr) - objective.Evaluate(x - h * w, nullptr)) / (2.0 * h);
    EXPECT_NEAR(g.dot(w), fd, 1e-5 * std::max(1.0, std::abs(fd))) << "direction " << d;
    EXPECT_GT(std::abs(fd), 1e-4) << "direction " << d << ": the loss moves";
  }
}

TEST(ChainReach, ControlGradientMatchesDifferences) { CheckDirections(false); }
TEST(ChainReach, CodesignGradientMatchesDifferences) { CheckDirections(true); }

TEST(ChainReach, BasisIsACubicThatStartsAtZero) {
  const MatX B = CubicControlBasis(10);
  for (int t = 0; t < 10; ++t) EXPECT_NEAR(B.row(t).sum(), 1.0, 1e-15);
  EXPECT_DOUBLE_EQ(B(9, 3), 1.0);  // the last step's target is the last coefficient
}

const char* kConfig =
    "models = [\"sdrs\"]\n"
    "variants = [\"control\", \"codesign\"]\n"
    "links = 2\n"
    "cap_points = 4\n"
    "timestep_s = 0.02\n"
    "steps = 5\n"
    "iterations = 2\n"
    "learning_rate = 1e-2\n"
    "adam_beta1 = 0.9\n"
    "adam_beta2 = 0.999\n"
    "reach_tolerance_m = 0.05\n";

TEST(ChainReach, ExpandsVariantsAndChecksThem) {
  const Sweep sweep = ChainReachExperiment().Expand(QuickConfig("chain_reach", kConfig), {"sdrs", "ipc"});
  ASSERT_EQ(sweep.cases.size(), 3u);  // sdrs both, ipc control only (no design derivatives)
  EXPECT_EQ(sweep.cases[0].id, "sdrs/control");
  EXPECT_EQ(sweep.cases[1].model_options.at("design_derivatives"), "true");
  EXPECT_EQ(sweep.cases[2].id, "ipc/control");
  ASSERT_FALSE(sweep.notes.empty());
  EXPECT_THAT(sweep.notes.back(), HasSubstr("ipc: codesign skipped"));
  std::string bad = kConfig;
  bad.replace(bad.find("\"codesign\""), 10, "\"shape\"");
  EXPECT_THAT(InvalidArgumentMessage([&] { ChainReachExperiment().Expand(QuickConfig("chain_reach", bad), {"sdrs"}); }),
              HasSubstr("variants: unknown 'shape'"));
  // The variant decides what is designed: a user's design option is an error, not overwritten.
  const std::string designed = std::string(kConfig) + "[quick.options.sdrs]\ndesign_colliders = \"chain1_\"\n";
  EXPECT_THAT(InvalidArgumentMessage([&] { ChainReachExperiment().Expand(QuickConfig("chain_reach", designed), {"sdrs"}); }),
              HasSubstr("design_colliders"));
}

TEST(ChainReach, RunsBothVariants) {
  const ChainReachExperiment e;
  for (const Case& c : e.Expand(QuickConfig("chain_reach", kConfig), {"sdrs"}).cases) {
    SCOPED_TRACE(c.id);
    const std::vector<Row> rows = e.Run(c);
    int iterations = 0, poses = 0;
    const Row* last = nullptr;
    for (const Row& r : rows) {
      const std::string record = std::get<std::string>(r.at("record"));
      if (record == "iteration") {
        ++iterations;
        last = &r;
      }
      poses += record == "pose";
    }
    ASSERT_EQ(iterations, 3);  // the start and 2 iterations
    EXPECT_EQ(poses, 3 * 3);   // 3 chains, 2 joints and the tip
    EXPECT_EQ(RowNumber(*last, "design_parameters") > 0, c.id == "sdrs/codesign");
    EXPECT_GT(RowNumber(*last, "min_distance_m"), 0.0) << "hulls touched";
    EXPECT_LE(RowNumber(*last, "best_loss"), RowNumber(rows.front(), "loss"));
  }
}

TEST(ChainReach, SummarizesTheClaim) {
  const ResultTable t = ResultTable::ParseCsv(
      "model,variant,record,iterations,steps,reach_tolerance_m,loss,best_loss,best_distance_m,chain_length_m,failure\n"
      "sdrs,control,iteration,1,5,0.05,0.25,0.25,0.5,4,\n"
      "sdrs,control,iteration,1,5,0.05,0.16,0.16,0.4,4,\n"
      "sdrs,codesign,iteration,1,5,0.05,0.25,0.25,0.5,4,\n"
      "sdrs,codesign,iteration,1,5,0.05,0.0009,0.0009,0.03,4.4,\n",
      "table");
  const std::vector<ClaimResult> claims = ChainReachExperiment().Summarize(t);
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(claims[0].id, "chain_reach.codesign_reaches");
  EXPECT_DOUBLE_EQ(claims[0].ours, 0.03);
  EXPECT_DOUBLE_EQ(claims[0].values.at("control_only_distance_m"), 0.4);
  EXPECT_DOUBLE_EQ(claims[0].values.at("reach_tolerance_m"), 0.05);
  EXPECT_THAT(claims[0].note, HasSubstr("4.4 m at the last iterate"));
}

}  // namespace chain_reach_test
}  // namespace arena
