// gradient_truth (issue 23): the problems' exact answers and scenes agree, the sweep (models x
// scenes x timesteps, skipping what a model cannot run), config errors naming the key, and the
// head-to-head finding the report quotes: nimble's two-ball gradient is exact with its Sec. VI
// bounce Jacobian and wrong without it, in the experiment's own rows and its claim.
#include "experiments/gradient_truth/gradient_truth.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "experiments/result_table.h"
#include "core/common/error.h"
#include "experiments/gradient_truth/gradient_truth_problems.h"
#include "tests/experiments/experiment_test_config.h"

namespace arena {
namespace gradient_truth_test {

using ::testing::HasSubstr;

std::string Body(const std::string& scenes, const std::string& extra = "", const std::string& timesteps = "[0.01]") {
  return "scenes = " + scenes + "\ntimesteps_s = " + timesteps +
         "\nbox_clearance_m = 1e-3\ncue_target_m = 1.0\ncue_initial_speed_mps = 0.5\n"
         "cue_iterations = 4\ncue_learning_rate = 0.4\n" + extra;
}

ProfileConfig Config(const std::string& body) { return testing_config::QuickConfig("gradient_truth", body); }

TEST(GradientTruthProblems, StartWhereTheClosedFormsStart) {
  for (const std::string& name : gradient_truth::TruthProblemNames()) {
    const gradient_truth::TruthProblem p = gradient_truth::MakeTruthProblem(name, 0.01, 1e-3);
    ASSERT_EQ(p.exact.value.size(), static_cast<Eigen::Index>(p.outputs.size())) << name;
    ASSERT_EQ(p.exact.jacobian.cols(), static_cast<Eigen::Index>(p.inputs.size())) << name;
    EXPECT_TRUE(p.exact.contact) << name << ": the contact event comes before the horizon";
    for (size_t i = 0; i < p.inputs.size(); ++i) {
      EXPECT_TRUE(std::isfinite(WorldCoordinate(*p.scene, p.start, p.inputs[i]))) << name;
    }
  }
  const gradient_truth::TruthProblem balls = gradient_truth::MakeTruthProblem("two_balls", 0.01, 0.0);
  EXPECT_EQ(balls.steps, 100);
  EXPECT_NEAR(balls.exact.value[1], 1.2, 1e-12);  // p2x
  EXPECT_LT((balls.exact.jacobian.row(1) - Eigen::RowVector4d(1, 0, 1, 0)).norm(), 1e-12);
  EXPECT_DOUBLE_EQ(WorldCoordinate(*balls.scene, balls.start, balls.inputs[1]), 0.52);
  EXPECT_DOUBLE_EQ(WorldCoordinate(*balls.scene, balls.start, balls.inputs[2]), 1.0);
  EXPECT_THROW(gradient_truth::MakeTruthProblem("two_cubes", 0.01, 0.0), InvalidArgument);
  EXPECT_THROW(gradient_truth::MakeTruthProblem("two_balls", 0.0, 0.0), InvalidArgument);
}

TEST(GradientTruth, ExpandsModelsScenesAndTimestepsSkippingWhatAModelCannotRun) {
  const Sweep sweep = GradientTruthExperiment().Expand(
      Config(Body("[\"two_balls\", \"cue_to_target\"]", "", "[0.01, 0.001]")), {"nimble", "bilevel"});
  std::vector<std::string> ids;
  for (const Case& c : sweep.cases) ids.push_back(c.id);
  EXPECT_THAT(ids, ::testing::ElementsAre("nimble/two_balls/dt=0.01", "nimble/two_balls/dt=0.001",
                                          "nimble/cue_to_target/dt=0.01", "nimble/cue_to_target/dt=0.001"));
  EXPECT_EQ(sweep.cases[1].model_options.at("timestep"), "0.001");
  EXPECT_THAT(::testing::PrintToString(sweep.notes), HasSubstr("bilevel: skipped two_balls"));
}

std::string ExpandError(const std::string& body) {
  try {
    GradientTruthExperiment().Expand(Config(body), {"nimble"});
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

TEST(GradientTruth, RejectsBadConfigNamingTheKey) {
  EXPECT_THAT(ExpandError(Body("[\"two_cubes\"]")), HasSubstr("gradient_truth.toml: key scenes: unknown 'two_cubes'"));
  EXPECT_THAT(ExpandError(Body("[\"two_balls\"]", "", "[0.0]")), HasSubstr("timesteps_s"));
  EXPECT_THAT(ExpandError("scenes = [\"two_balls\"]\ntimesteps_s = [0.01]\n"), HasSubstr("box_clearance_m"));
}

// The public report's case: exact with the bounce Jacobian (Sec. VI), and wrong without it, in
// the rows the experiment writes and in the claim the report shows.
TEST(GradientTruth, NimbleTwoBallGradientIsExactOnlyWithTheBounceJacobian) {
  const GradientTruthExperiment e;
  const Sweep sweep = e.Expand(Config(Body("[\"two_balls\"]", "[quick.sweep.nimble]\nbounce_approximation = [true, false]\n")),
                               {"nimble"});
  ASSERT_EQ(sweep.cases.size(), 2u);
  std::vector<std::string> columns{"case_id", "model"};
  for (const Column& c : e.columns()) columns.push_back(c.name);
  std::vector<std::vector<std::string>> cells;
  std::vector<double> errors;
  for (const Case& c : sweep.cases) {
    Row params;
    for (const auto& [k, v] : c.params) params[k] = v;
    for (Row row : e.Run(c)) {
      for (const auto& [k, v] : params) row[k] = v;
      if (std::get<std::string>(row.at("record")) == "summary") errors.push_back(std::get<double>(row.at("gradient_error")));
      std::vector<std::string> line{c.id, c.model};
      for (size_t i = 2; i < columns.size(); ++i) line.push_back(row.count(columns[i]) ? ToText(row.at(columns[i])) : "");
      cells.push_back(line);
    }
  }
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_LT(errors[0], 1e-9);  // bounce_approximation = true
  EXPECT_GT(errors[1], 0.5);   // false: the velocity-level LCP's Jacobian misses the time of impact
  const std::vector<ClaimResult> claims = e.Summarize(ResultTable(columns, cells));
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(claims[0].id, "gradient_truth.two_balls.nimble");
  EXPECT_LT(claims[0].ours, 1e-9);
  EXPECT_THAT(claims[0].ours_text, HasSubstr("bounce_approximation true: (1, 0, 1, 0)"));
  EXPECT_THAT(claims[0].ours_text, HasSubstr("vs exact (1, 0, 1, 0)"));
}

}  // namespace gradient_truth_test
}  // namespace arena
