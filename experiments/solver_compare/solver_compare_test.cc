// solver_compare (issue 18): settings, which models run which problems, bad configs named by
// their key, the problems' closed-form outcomes, and what one run's row holds.
#include "experiments/solver_compare/solver_compare.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "core/common/error.h"
#include "experiments/solver_compare/solver_compare_problems.h"
#include "scenes/solver_compare_scenes.h"
#include "tests/experiments/experiment_test_config.h"

namespace arena {
namespace solver_compare_test {

using ::testing::HasSubstr;

constexpr char kRest[] =
    "timesteps_s = [0.01]\nduration_s = 0.2\nsettle_s = 1.0\nstack_mass_ratios = [1e3, 1e6]\nclearance_m = 0.001\n"
    "tower_boxes = 2\nslope_over_mu = 0.95\nslide_speed = 1.0\n";

ProfileConfig Config(const std::string& extra, const std::string& problems = "\"cube_rest\", \"cube_slide\"") {
  return testing_config::QuickConfig("solver_compare", "problems = [" + problems + "]\n" + kRest + extra);
}

std::string ErrorOf(const std::string& extra, const std::vector<std::string>& models,
                    const std::string& problems = "\"cube_rest\", \"cube_slide\"") {
  try {
    SolverCompareExperiment().Expand(Config(extra, problems), models);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "";
}

TEST(SolverCompare, ParsesSettings) {
  EXPECT_TRUE(SolverCompareExperiment::ParseSetting("default", "here").empty());
  const OptionMap o = SolverCompareExperiment::ParseSetting(" lcp_solver = pgs, pgs_max_sweeps=10 ", "here");
  EXPECT_EQ(o.at("lcp_solver"), "pgs");
  EXPECT_EQ(o.at("pgs_max_sweeps"), "10");
  EXPECT_THROW(SolverCompareExperiment::ParseSetting("lcp_solver", "here"), InvalidArgument);
  EXPECT_THROW(SolverCompareExperiment::ParseSetting("a=1,a=2", "here"), InvalidArgument);
}

// One case per model x setting x problem x timestep; a model without settings runs its defaults.
TEST(SolverCompare, ExpandsEverySettingOfEveryModel) {
  const Sweep sweep = SolverCompareExperiment().Expand(
      Config("[quick.solvers]\nmujoco = [\"solver=pgs,iterations=10\", \"solver=newton\"]\n"), {"mujoco", "penalty"});
  std::vector<std::string> ids;
  for (const Case& c : sweep.cases) ids.push_back(c.id);
  EXPECT_THAT(ids, ::testing::ElementsAre("mujoco/cube_rest/solver=pgs,iterations=10/dt=0.01",
                                          "mujoco/cube_slide/solver=pgs,iterations=10/dt=0.01",
                                          "mujoco/cube_rest/solver=newton/dt=0.01", "mujoco/cube_slide/solver=newton/dt=0.01",
                                          "penalty/cube_rest/default/dt=0.01", "penalty/cube_slide/default/dt=0.01"));
  EXPECT_EQ(sweep.cases[0].model_options.at("iterations"), "10");
  EXPECT_EQ(sweep.cases[0].model_options.at("timestep"), "0.01");
}

// A model that cannot run a problem is skipped with the reason: bilevel is planar, MuJoCo cannot
// drive Atlas's free root joint (only building the model finds that).
TEST(SolverCompare, SkipsWhatAModelCannotRun) {
  const Sweep sweep =
      SolverCompareExperiment().Expand(Config("", "\"cube_rest\", \"atlas_stand\""), {"bilevel", "mujoco"});
  ASSERT_EQ(sweep.cases.size(), 1u);
  EXPECT_EQ(sweep.cases[0].id, "mujoco/cube_rest/default/dt=0.01");
  const std::string notes = ::testing::PrintToString(sweep.notes);
  EXPECT_THAT(notes, HasSubstr("bilevel: skipped problem cube_rest"));
  EXPECT_THAT(notes, HasSubstr("mujoco: skipped problem atlas_stand"));
}

TEST(SolverCompare, BadConfigsNameTheKey) {
  EXPECT_THAT(ErrorOf("[quick.solvers]\nnimble = [\"lcp_solver=simplex\"]\n", {"nimble"}), HasSubstr("lcp_solver"));
  EXPECT_THAT(ErrorOf("[quick.solvers]\nnimble = [\"sweeps=3\"]\n", {"nimble"}), HasSubstr("sweeps"));
  EXPECT_THAT(ErrorOf("[quick.solvers]\nnimble = [\"timestep=0.1\"]\n", {"nimble"}), HasSubstr("timesteps_s"));
  EXPECT_THAT(ErrorOf("[quick.options.nimble]\nlcp_solver = \"pgs\"\n[quick.solvers]\nnimble = [\"lcp_solver=dantzig\"]\n",
                      {"nimble"}),
              HasSubstr("vary it in solvers.nimble"));
  EXPECT_THAT(ErrorOf("[quick.problems_of]\nipc = [\"towr\"]\n", {"ipc"}), HasSubstr("problems_of.ipc"));
  // A problem of problems_of that the run's problems leave out is dropped (--set problems=[...]).
  EXPECT_TRUE(SolverCompareExperiment().Expand(Config("[quick.problems_of]\nipc = [\"tower\"]\n"), {"ipc"}).cases.empty());
  EXPECT_THAT(ErrorOf("", {"penalty"}, "\"juggling\""), HasSubstr("unknown problem 'juggling'"));
  EXPECT_THAT(ErrorOf("[quick.solvers]\nnimbel = [\"lcp_solver=pgs\"]\n", {"nimble"}), HasSubstr("unknown model 'nimbel'"));
}

// The stack runs once per mass ratio.
TEST(SolverCompare, ExpandsTheStackPerMassRatio) {
  const Sweep sweep = SolverCompareExperiment().Expand(Config("", "\"mass_ratio_stack\""), {"penalty"});
  ASSERT_EQ(sweep.cases.size(), 2u);
  EXPECT_EQ(sweep.cases[0].id, "penalty/mass_ratio_stack(r=1000)/default/dt=0.01");
}

// The closed forms, on hand-made end states from a settled start on the ground.
TEST(SolverCompare, OutcomesAreTheClosedForms) {
  const ContactProblemParams params;
  const double g = 9.81, mu = 0.5;
  // A cube launched at 1 m/s stops after v^2 / (2 mu g); in a run shorter than v / (mu g) it
  // covers v T - mu g T^2 / 2.
  const auto cube = ContactProblemSettleScene("cube_slide", params);
  const State start = ContactProblemLaunch("cube_slide", DefaultState(*cube), params);
  EXPECT_EQ(start.v[3], 1.0);
  State end = start;
  end.q[0] += 1.0 / (2.0 * mu * g);
  EXPECT_NEAR(ContactProblemOutcomeError("cube_slide", *cube, start, end, 1.0, params), 0.0, 1e-12);
  end.q[0] += 0.01;
  EXPECT_NEAR(ContactProblemOutcomeError("cube_slide", *cube, start, end, 1.0, params), 0.01, 1e-12);
  end = start;
  end.q[0] += 0.1 - 0.5 * mu * g * 0.01;
  EXPECT_NEAR(ContactProblemOutcomeError("cube_slide", *cube, start, end, 0.1, params), 0.0, 1e-12);
  // Resting: any move along the ground is the error, settling down is not.
  end = start;
  end.q[2] -= 1e-3;
  end.q[1] += 0.002;
  EXPECT_NEAR(ContactProblemOutcomeError("cube_rest", *cube, start, end, 1.0, params), 0.002, 1e-12);
  // The ball rolls v T; under the drag 1.5 mu m g it rolls with acceleration 5/7 of it; under
  // the 10 N lift it rises (10 - g) T^2 / 2.
  const auto ball = ContactProblemSettleScene("ball_roll", params);
  const State ball_start = ContactProblemLaunch("ball_roll", DefaultState(*ball), params);
  EXPECT_DOUBLE_EQ(ball_start.v[1] * kContactProblemHalfSize, ball_start.v[3]);  // no slip
  end = ball_start;
  end.q[0] += 0.5;
  EXPECT_NEAR(ContactProblemOutcomeError("ball_roll", *ball, ball_start, end, 0.5, params), 0.0, 1e-12);
  const auto drag = ContactProblemScene("ball_drag", params);
  EXPECT_NEAR(drag->model.gravity().x(), 1.5 * mu * g, 1e-12);
  const State rest = ContactProblemLaunch("ball_drag", DefaultState(*ball), params);
  EXPECT_TRUE(rest.v.isZero());
  end = rest;
  end.q[0] += 0.5 * (5.0 / 7.0) * 1.5 * mu * g;
  EXPECT_NEAR(ContactProblemOutcomeError("ball_drag", *drag, rest, end, 1.0, params), 0.0, 1e-12);
  const auto lift = ContactProblemScene("ball_lift", params);
  EXPECT_NEAR(lift->model.gravity().z(), 10.0 - g, 1e-12);
  end = rest;
  end.q[2] += 0.5 * (10.0 - g) * 4.0;
  EXPECT_NEAR(ContactProblemOutcomeError("ball_lift", *lift, rest, end, 2.0, params), 0.0, 1e-12);
  // The slope below its threshold: static friction holds the settled cube.
  const auto slope = ContactProblemScene("tilted_box", params);
  end = start;
  end.q[0] += 0.003;
  EXPECT_NEAR(ContactProblemOutcomeError("tilted_box", *slope, start, end, 1.0, params), 0.003, 1e-12);
  // The stack: 1 g under 1 t at r = 1e6; the error is a cube's distance from the exact stack.
  const auto stack = ContactProblemSettleScene("mass_ratio_stack", params);
  EXPECT_NEAR(stack->model.body(0).inertia.mass(), 1e-3, 1e-15);
  EXPECT_NEAR(stack->model.body(1).inertia.mass(), 1e3, 1e-9);
  const State top = DefaultState(*stack);  // 1 mm above the ground, 1 mm between the cubes
  EXPECT_NEAR(ContactProblemOutcomeError("mass_ratio_stack", *stack, top, top, 1.0, params), 2e-3, 1e-12);
}

// One run: MuJoCo's Newton solver on the resting cube holds it (outcome ~0), its contact points
// carry the weight without leaving the cone, and no energy is made.
TEST(SolverCompare, RowHoldsTimesCriteriaAndOutcome) {
  const SolverCompareExperiment e;
  const Sweep sweep = e.Expand(Config("[quick.solvers]\nmujoco = [\"solver=newton\"]\n"), {"mujoco"});
  const Row row = e.Run(sweep.cases.at(0)).at(0);
  EXPECT_EQ(std::get<bool>(row.at("failed")), false);
  EXPECT_EQ(std::get<std::int64_t>(row.at("steps_done")), 120);  // 100 settling, 20 launched
  EXPECT_GT(std::get<double>(row.at("step_time_s")), 0.0);
  EXPECT_LT(std::get<double>(row.at("outcome_error_m")), 1e-6);
  EXPECT_GT(std::get<double>(row.at("contact_points_mean")), 0.0);
  EXPECT_LT(std::get<double>(row.at("coulomb_rel")), 1e-9);
  EXPECT_LE(std::get<double>(row.at("energy_gain_j")), 1e-9);
}

}  // namespace solver_compare_test
}  // namespace arena
