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
    "timesteps_s = [0.01]\nduration_s = 0.2\nclearance_m = 0.001\ntower_boxes = 2\nslope_over_mu = 0.95\n"
    "slide_speed = 1.0\n";

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
  EXPECT_THAT(ErrorOf("[quick.problems_of]\nipc = [\"tower\"]\n", {"ipc"}), HasSubstr("problems_of.ipc"));
  EXPECT_THAT(ErrorOf("", {"penalty"}, "\"juggling\""), HasSubstr("unknown problem 'juggling'"));
  EXPECT_THAT(ErrorOf("[quick.solvers]\nnimbel = [\"lcp_solver=pgs\"]\n", {"nimble"}), HasSubstr("unknown model 'nimbel'"));
}

// The closed forms, on hand-made end states: a cube that lands from 1 mm and slides at 1 m/s
// travels 1.0 t_land + (1 - 0.5 v_land)^2 / (2 0.5 g); on the slope below its threshold it only
// drifts during the fall.
TEST(SolverCompare, OutcomesAreTheClosedForms) {
  const ContactProblemParams params;
  const double g = 9.81, t_land = std::sqrt(2e-3 / g), v_land = std::sqrt(2e-3 * g);
  const double slide = 1.0 * t_land + std::pow(1.0 - 0.5 * v_land, 2) / (2.0 * 0.5 * g);
  const auto cube = ContactProblemScene("cube_slide", params);
  const State start = ContactProblemStart("cube_slide", *cube, params);
  State end = start;
  end.q[0] += slide;
  EXPECT_NEAR(ContactProblemOutcomeError("cube_slide", *cube, start, end, 1.0, params), 0.0, 1e-12);
  end.q[0] += 0.01;
  EXPECT_NEAR(ContactProblemOutcomeError("cube_slide", *cube, start, end, 1.0, params), 0.01, 1e-12);
  // Resting: any move along the ground is the error, settling down is not.
  end = start;
  end.q[2] -= 1e-3;
  end.q[1] += 0.002;
  EXPECT_NEAR(ContactProblemOutcomeError("cube_rest", *cube, start, end, 1.0, params), 0.002, 1e-12);
  // The ball rolls v T.
  const auto ball = ContactProblemScene("ball_roll", params);
  const State ball_start = ContactProblemStart("ball_roll", *ball, params);
  EXPECT_DOUBLE_EQ(ball_start.v[1] * kContactProblemHalfSize, ball_start.v[3]);  // no slip
  end = ball_start;
  end.q[0] += 0.5;
  EXPECT_NEAR(ContactProblemOutcomeError("ball_roll", *ball, ball_start, end, 0.5, params), 0.0, 1e-12);
  // The slope: g_x t^2 / 2 of the fall, then static friction holds.
  const auto slope = ContactProblemScene("tilted_box", params);
  const double a = std::atan(0.95 * 0.5), t = std::sqrt(2e-3 / (g * std::cos(a)));
  end = start;
  end.q[0] += 0.5 * g * std::sin(a) * t * t;
  EXPECT_NEAR(ContactProblemOutcomeError("tilted_box", *slope, start, end, 1.0, params), 0.0, 1e-12);
}

// One run: MuJoCo's Newton solver on the resting cube holds it (outcome ~0), its contact points
// carry the weight without leaving the cone, and no energy is made.
TEST(SolverCompare, RowHoldsTimesCriteriaAndOutcome) {
  const SolverCompareExperiment e;
  const Sweep sweep = e.Expand(Config("[quick.solvers]\nmujoco = [\"solver=newton\"]\n"), {"mujoco"});
  const Row row = e.Run(sweep.cases.at(0)).at(0);
  EXPECT_EQ(std::get<bool>(row.at("failed")), false);
  EXPECT_EQ(std::get<std::int64_t>(row.at("steps_done")), 20);
  EXPECT_GT(std::get<double>(row.at("step_time_s")), 0.0);
  EXPECT_LT(std::get<double>(row.at("outcome_error_m")), 1e-6);
  EXPECT_GT(std::get<double>(row.at("contact_points_mean")), 0.0);
  EXPECT_LT(std::get<double>(row.at("coulomb_rel")), 1e-9);
  EXPECT_LE(std::get<double>(row.at("energy_gain_j")), 1e-9);
}

}  // namespace solver_compare_test
}  // namespace arena
