// biped (seed 003 Figs. 12-13): the scene on sdrs, its targets at zero, lands its 4 cm onto its
// feet and stands on them for a second, the six foot hulls carrying it and no hull reaching the
// ground (an inverted pendulum on round-heeled feet held by open-loop PD, it tips backwards
// slowly: pitch -0.02 rad after 1 s, -0.09 rad after 2 s); a run of both variants with the upright
// fraction; the claim from a table. The walkers' objective and its gradient are checked in
// spider_test.cc; the quick profile against the reference in quick_profiles_test.cc.
#include "experiments/biped/biped.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "experiments/result_table.h"
#include "experiments/common/meters/hull_distances.h"
#include "models/registry.h"
#include "scenes/biped_scenes.h"
#include "tests/experiments/experiment_test_config.h"
#include "trajectory/rollout.h"

namespace arena {
namespace biped_test {

using ::testing::HasSubstr;
using testing_config::QuickConfig;
using testing_config::RowNumber;

TEST(Biped, StandsOnItsFeetForASecond) {
  auto sim = MakeSimulator("sdrs", BipedScene(), {{"timestep", "0.01"}, {"x0", "0.02"}});
  const Scene& scene = sim->scene();
  ASSERT_EQ(scene.nv(), 12);
  ASSERT_EQ(scene.nu(), 12);
  Rollout r;
  RunRollout(*sim, DefaultState(scene), VecX::Zero(100 * scene.nu()), &r);
  ASSERT_TRUE(r.ok()) << r.failure;
  const State& end = r.states.back();
  EXPECT_EQ(r.reports.back().contacts, 6) << "the six foot hulls, nothing else";
  EXPECT_LT(std::abs(end.q[kBipedRootPitch]), 0.05);
  EXPECT_LT(std::abs(end.q[kBipedRootRoll]), 0.01);
  EXPECT_NEAR(end.q[kBipedRootZ], -0.04, 0.01) << "landed its 4 cm and stays up";
  EXPECT_GT(MinimumHullDistance(*sim, r.states), 0.0);
}

const char* kConfig =
    "models = [\"sdrs\"]\n"
    "variants = [\"control\", \"codesign\"]\n"
    "timestep_s = 0.01\n"
    "steps = 10\n"
    "terms = 1\n"
    "iterations = 2\n"
    "learning_rate = 1e-2\n"
    "adam_beta1 = 0.9\n"
    "adam_beta2 = 0.999\n"
    "target_distance_m = 1\n"
    "initial_amplitude_rad = 0.1\n"
    "hold_weight = 1\n"
    "running_hold_weight = 100\n"
    "design = \"\"\n"
    "[quick.options.sdrs]\n"
    "x0 = 0.02\n";

TEST(Biped, RunsBothVariantsAndMeasuresTheUprightFraction) {
  const BipedExperiment e;
  const Sweep sweep = e.Expand(QuickConfig("biped", kConfig), {"sdrs"});
  ASSERT_EQ(sweep.cases.size(), 2u);
  for (const Case& c : sweep.cases) {
    SCOPED_TRACE(c.id);
    const std::vector<Row> rows = e.Run(c);
    const Row* last = nullptr;
    int iterations = 0, design = 0;
    for (const Row& r : rows) {
      const std::string record = std::get<std::string>(r.at("record"));
      if (record == "iteration") ++iterations, last = &r;
      design += record == "design";
    }
    ASSERT_EQ(iterations, 3);
    EXPECT_EQ(design, c.id == "sdrs/codesign" ? 2 * 2 * 3 * 32 : 0);  // both feet's hulls, start and best
    EXPECT_DOUBLE_EQ(RowNumber(*last, "upright_fraction"), 1.0) << "a tenth of a second does not topple it";
    EXPECT_GT(RowNumber(*last, "min_distance_m"), 0.0);
  }
}

TEST(Biped, SummarizesTheClaim) {
  const ResultTable t = ResultTable::ParseCsv(
      "model,variant,record,iterations,steps,loss,best_loss,upright_fraction,failure\n"
      "sdrs,control,iteration,1,5,2,2,,\n"
      "sdrs,control,iteration,1,5,1,1,0.4,\n"
      "sdrs,codesign,iteration,1,5,2,2,,\n"
      "sdrs,codesign,iteration,1,5,0.5,0.5,1,\n",
      "table");
  const std::vector<ClaimResult> claims = BipedExperiment().Summarize(t);
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(claims[0].id, "biped.codesign_balance");
  EXPECT_DOUBLE_EQ(claims[0].ours, 1.0);
  EXPECT_DOUBLE_EQ(claims[0].values.at("control_upright_fraction"), 0.4);
  EXPECT_THAT(claims[0].note, HasSubstr("upright 1 of the rollout with co-design, 0.4 with control only"));
}

}  // namespace biped_test
}  // namespace arena
