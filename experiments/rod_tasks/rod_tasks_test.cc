// push, gather and sort (seed 004 Figs. 7-8): the sweep and its config errors, the rod's first
// windows from rest (ipc: zero gradient, the rod never moves; longrange: it moves), the early
// stop once every cube is at its target, the tasks' targets, and the claims from hand-made tables.
#include "experiments/rod_tasks/rod_tasks.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "experiments/result_table.h"
#include "core/common/error.h"
#include "experiments/rod_tasks/rod_task.h"
#include "harness/report.h"
#include "tests/experiments/claim_verdict.h"
#include "tests/experiments/experiment_test_config.h"

namespace arena {
namespace rod_tasks_test {

using ::testing::HasSubstr;
using testing_config::Reproduced;

std::string Body(int steps, int window, int iterations, double tolerance = 0.15) {
  return "timestep_s = 0.04\nsteps = " + std::to_string(steps) + "\nwindow = " + std::to_string(window) +
         "\niterations = " + std::to_string(iterations) +
         "\nlearning_rate = 1e-2\nadam_beta1 = 0.3\nadam_beta2 = 0.5\ntarget_tolerance_m = " +
         std::to_string(tolerance) +
         "\nbundle_models = [\"ipc\"]\nbundle_samples = 2\nbundle_sigma = 0.1\nbundle_order = \"first_order\"\n"
         "[quick.options.longrange]\nmu = 1e-6\n";
}

ProfileConfig Config(const std::string& task, const std::string& body) {
  return testing_config::QuickConfig(task, body);
}

TEST(RodTasks, ExpandsOneCasePerModelAndTheBundleWhereAsked) {
  const Sweep sweep = RodTaskExperiment("push").Expand(Config("push", Body(3, 4, 2)), {"longrange", "ipc", "bilevel"});
  ASSERT_EQ(sweep.cases.size(), 3u);
  EXPECT_EQ(sweep.cases[0].id, "longrange");
  EXPECT_EQ(sweep.cases[2].id, "ipc/bundle");
  EXPECT_EQ(sweep.cases[0].model_options.at("mu"), "1e-06");
  EXPECT_EQ(sweep.cases[1].model_options.at("timestep"), "0.04");
  EXPECT_THAT(::testing::PrintToString(sweep.notes), HasSubstr("bilevel: skipped"));
}

TEST(RodTasks, RejectsBadConfigNamingTheKey) {
  auto error = [](const std::string& body) -> std::string {
    try {
      RodTaskExperiment("gather").Expand(Config("gather", body), {"ipc"});
    } catch (const InvalidArgument& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_THAT(error(Body(3, 0, 2)), HasSubstr("window"));
  EXPECT_THAT(error(Body(3, 2, 2, 0.0)), HasSubstr("target_tolerance_m"));
  EXPECT_THROW(MakeRodTask("stack", 0.1), InvalidArgument);
}

// Sort's even cubes go to the disc in -x, odd ones to the disc in +x; gather's all to the centre.
TEST(RodTasks, TargetsOfEachTask) {
  const RodTask sort = MakeRodTask("sort", 0.5);
  ASSERT_EQ(sort.loss->bodies.size(), 10u);
  EXPECT_EQ(sort.loss->targets[0].x(), -1.5);
  EXPECT_EQ(sort.loss->targets[1].x(), 1.5);
  EXPECT_EQ(sort.scene->nu(), 3);
  const RodTask gather = MakeRodTask("gather", 0.5);
  EXPECT_EQ(gather.loss->targets[7].head<2>(), Vec2::Zero());
  EXPECT_EQ(gather.scene->nu(), 4);
  const RodTask push = MakeRodTask("push", 0.15);
  ASSERT_EQ(push.loss->bodies.size(), 1u);
  EXPECT_EQ(push.loss->targets[0].x(), 2.0);
  EXPECT_EQ(push.scene->nu(), 6);
}

std::vector<Row> Records(const std::vector<Row>& rows, const std::string& record) {
  std::vector<Row> out;
  for (const Row& r : rows) {
    if (std::get<std::string>(r.at("record")) == record) out.push_back(r);
  }
  return out;
}

double Number(const Row& row, const char* key) { return std::get<double>(row.at(key)); }

// From rest the rod is 0.7 m from the cube: ipc's windows have no gradient (nor has the bundle
// around it), so Adam keeps the zero plan and the rod stays exactly where it was; longrange's
// first window already moves it.
TEST(RodTasks, OnlyLongrangeMovesTheRodFromRest) {
  const RodTaskExperiment e("push");
  const Sweep sweep = e.Expand(Config("push", Body(2, 2, 1)), {"ipc", "longrange"});
  const std::vector<Row> ipc = e.Run(sweep.cases[0]);
  const std::vector<Row> steps = Records(ipc, "step");
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(Records(ipc, "cube").size(), 2u);  // one cube, two steps
  for (const Row& r : steps) {
    EXPECT_EQ(Number(r, "rod_x_m"), 0.7);
    EXPECT_EQ(Number(r, "rod_y_m"), 0.1);
  }
  EXPECT_FALSE(std::get<bool>(steps.back().at("reached")));
  EXPECT_FALSE(std::get<bool>(steps.back().at("went_around")));
  // The bundle around ipc: no perturbed plan reaches the cube either.
  ASSERT_EQ(sweep.cases[1].id, "ipc/bundle");
  for (const Row& r : Records(e.Run(sweep.cases[1]), "step")) EXPECT_EQ(Number(r, "rod_x_m"), 0.7);
  ASSERT_EQ(sweep.cases[2].id, "longrange");
  const std::vector<Row> longrange = Records(e.Run(sweep.cases[2]), "step");
  ASSERT_EQ(longrange.size(), 2u);
  EXPECT_NE(Number(longrange[0], "rod_x_m"), 0.7);
}

// A tolerance the cube already meets (it starts 2 m from its target): the run stops after its
// first real step.
TEST(RodTasks, StopsOnceEveryCubeIsThere) {
  const RodTaskExperiment e("push");
  const Sweep sweep = e.Expand(Config("push", Body(5, 2, 1, 2.5)), {"ipc"});
  const std::vector<Row> steps = Records(e.Run(sweep.cases[0]), "step");
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_TRUE(std::get<bool>(steps[0].at("reached")));
  EXPECT_DOUBLE_EQ(Number(steps[0], "reached_at_s"), 0.04);
}

ResultTable Table(const std::string& ipc_reached, const std::string& ipc_most) {
  const std::vector<std::string> columns = {"model", "method", "record", "step", "time_s", "window", "iterations",
                                             "reached", "reached_at_s", "max_cubes_at_target", "min_mean_distance_m",
                                             "went_around"};
  return ResultTable(columns,
                     {{"longrange", "gradient", "step", "0", "0.04", "48", "50", "", "", "", "", ""},
                      {"longrange", "gradient", "step", "1", "0.08", "48", "50", "true", "3.2", "10", "0.1", "true"},
                      {"longrange", "gradient", "cube", "1", "", "48", "50", "", "", "", "", ""},
                      {"ipc", "gradient", "step", "0", "0.04", "48", "50", "", "", "", "", ""},
                      {"ipc", "gradient", "step", "1", "0.08", "48", "50", ipc_reached, "", ipc_most, "2", "false"},
                      {"ipc", "bundle", "step", "0", "0.04", "48", "50", "false", "", "0", "2", "false"}});
}

TEST(RodTasks, SummarizeCountsWhoFinishedTheTask) {
  std::vector<ClaimResult> claims = RodTaskExperiment("push").Summarize(Table("false", "0"));
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(claims[0].id, "push.goes_around");
  EXPECT_EQ(claims[0].ours, 1.0);
  EXPECT_EQ(claims[0].values.at("other_models_reached"), 0.0);
  EXPECT_TRUE(Reproduced(claims[0]));
  EXPECT_THAT(claims[0].note, HasSubstr("longrange: done at 3.2 s"));
  EXPECT_THAT(claims[0].note, HasSubstr("ipc: not done after 0.08 s, at most 0 cubes"));
  EXPECT_THAT(claims[0].note, HasSubstr("ipc (bundle): not done after 0.04 s"));
  EXPECT_FALSE(Reproduced(RodTaskExperiment("push").Summarize(Table("true", "1"))[0]));
  // gather counts cubes: longrange 10, ipc at most 3 -> reproduced; sort counts finished runs.
  claims = RodTaskExperiment("gather").Summarize(Table("false", "3"));
  EXPECT_EQ(claims[0].id, "gather.longrange_only");
  EXPECT_EQ(claims[0].ours, 10.0);
  EXPECT_EQ(claims[0].values.at("other_models_max_gathered"), 3.0);
  EXPECT_TRUE(Reproduced(claims[0]));
  claims = RodTaskExperiment("sort").Summarize(Table("false", "3"));
  EXPECT_EQ(claims[0].id, "sort.longrange_only");
  EXPECT_TRUE(Reproduced(claims[0]));
  EXPECT_EQ(RodTaskExperiment("sort").Observe(Table("false", "3")).size(), 3u);
}

}  // namespace rod_tasks_test
}  // namespace arena
