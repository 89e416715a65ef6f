// grasp (seed 000 Fig. 1): the sweep's cases per model and seed (mujoco skipped: the scene is
// planar), the smoothing relaxation handed to the metric's model, bad keys refused; a silico
// case's plan accounts for every iteration and writes its path and tree; the claim from a table. Its quick profile is
// checked against the committed reference with every experiment's (quick_profiles_test.cc).
#include "experiments/grasp/grasp.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <utility>

#include "experiments/result_table.h"
#include "scenes/silico_scenes.h"
#include "tests/experiments/experiment_test_config.h"

namespace arena {
namespace grasp_test {

using ::testing::HasSubstr;
using testing_config::InvalidArgumentMessage;
using testing_config::QuickConfig;
using testing_config::RowNumber;

const char* kConfig =
    "models = [\"silico\"]\nfingertips = \"octagon\"\nseeds = 2\ntimestep_s = 0.05\nsubsteps = 1\nsmoothing_rho = 3e-3\niterations = 1000\n"
    "metric_regularizer = 3e-3\nextension = 0.2\ngoal_probability = 0.5\ncontact_probability = 0.1\n"
    "goal_distance = 0.05\n";

// The paper's quasi-static grasp has contacts star-floor and star-fingertip only.
TEST(Grasp, FingertipsTouchOnlyTheStar) {
  for (bool disk : {false, true}) {
    const std::shared_ptr<const Scene> scene = GraspScene({.disk_fingertips = disk});
    std::set<std::pair<std::string, std::string>> pairs;
    for (const auto& [a, b] : scene->CollisionPairs()) {
      pairs.insert({scene->colliders[a].name, scene->colliders[b].name});
    }
    const std::set<std::pair<std::string, std::string>> expected = {
        {"star_up", "finger_left"}, {"star_up", "finger_right"}, {"star_down", "finger_left"},
        {"star_down", "finger_right"}, {"star_up", "ground"}, {"star_down", "ground"}};
    EXPECT_EQ(pairs, expected);
  }
}

TEST(Grasp, ExpandsModelsAndSeedsAndChecksKeys) {
  const std::string config = std::string(kConfig) + "[quick.by_model.mujoco]\ntimestep_s = 0.00025\nsubsteps = 200\n";
  const Sweep sweep = GraspExperiment().Expand(QuickConfig("grasp", config), {"silico", "penalty", "mujoco", "bilevel"});
  ASSERT_EQ(sweep.cases.size(), 6u);
  EXPECT_EQ(sweep.cases[0].id, "silico/seed=0");
  EXPECT_EQ(sweep.cases[3].id, "penalty/seed=1");
  EXPECT_EQ(sweep.cases[5].id, "mujoco/seed=1");
  for (const auto& [k, v] : sweep.cases[3].params) {
    if (k == "smoothing") {
      EXPECT_EQ(ToText(v), "none");  // penalty has no relaxation to raise
    }
  }
  // Every model steps at timestep_s x substeps but mujoco, which has its own (by_model).
  EXPECT_EQ(sweep.cases[0].model_options.at("timestep"), "0.05");
  EXPECT_EQ(sweep.cases[3].model_options.at("timestep"), "0.05");
  EXPECT_EQ(sweep.cases[5].model_options.at("timestep"), "0.00025");
  for (const int i : {0, 5}) {
    for (const auto& [k, v] : sweep.cases[i].params) {
      if (k == "substeps") {
        EXPECT_EQ(ToText(v), i == 0 ? "1" : "200");
      }
    }
  }
  bool smoothing = false;
  for (const auto& [k, v] : sweep.cases[0].params) smoothing |= k == "smoothing" && ToText(v) == "rho=0.003";
  EXPECT_TRUE(smoothing);
  std::string disk = kConfig;
  disk.replace(disk.find("octagon"), 7, "round");
  EXPECT_THAT(InvalidArgumentMessage([&] { GraspExperiment().Expand(QuickConfig("grasp", disk), {"silico"}); }),
              HasSubstr("fingertips"));
  ASSERT_EQ(sweep.notes.size(), 1u);
  EXPECT_THAT(sweep.notes[0], HasSubstr("bilevel: skipped (no step derivatives)"));
  std::string bad = kConfig;
  bad.replace(bad.find("goal_probability = 0.5"), 22, "goal_probability = 1.5");
  EXPECT_THAT(InvalidArgumentMessage([&] { GraspExperiment().Expand(QuickConfig("grasp", bad), {"silico"}); }),
              HasSubstr("goal_probability"));
  const std::string zero_substeps = std::string(kConfig) + "[quick.by_model.mujoco]\nsubsteps = 0\n";
  EXPECT_THAT(InvalidArgumentMessage([&] { GraspExperiment().Expand(QuickConfig("grasp", zero_substeps), {"mujoco"}); }),
              HasSubstr("by_model.mujoco.substeps"));
}

// Every iteration adds a node or counts a failure; the path runs from the start through parents
// to its last node; the first seed writes its whole tree. (Whether the plan reaches the goal is
// the claim's business: silico's solves stall on many grasp steps, experiments/grasp/README.md.)
TEST(Grasp, APlanAccountsForEveryIterationAndWritesItsPathAndTree) {
  const GraspExperiment e;
  std::string config = kConfig;
  config.replace(config.find("iterations = 1000"), 17, "iterations = 40");
  const Sweep sweep = e.Expand(QuickConfig("grasp", config), {"silico"});
  const Case& c = sweep.cases[0];
  const std::vector<Row> rows = e.Run(c);
  const Row& plan = rows[0];
  ASSERT_EQ(std::get<std::string>(plan.at("record")), "plan");
  EXPECT_EQ(RowNumber(plan, "iterations_run"), 40);
  EXPECT_EQ(RowNumber(plan, "nodes") + RowNumber(plan, "failed_steps") + RowNumber(plan, "failed_metrics"), 41);
  EXPECT_GT(RowNumber(plan, "nodes"), 1);
  EXPECT_EQ(std::get<bool>(plan.at("success")), RowNumber(plan, "goal_metric") <= 0.05);
  int paths = 0, trees = 0;
  double previous = -1.0;
  for (const Row& r : rows) {
    const std::string record = std::get<std::string>(r.at("record"));
    if (record == "path") {
      EXPECT_EQ(RowNumber(r, "parent"), previous);
      previous = RowNumber(r, "node");
      if (paths == 0) {
        EXPECT_DOUBLE_EQ(RowNumber(r, "star_x_m"), 1.0);
        EXPECT_DOUBLE_EQ(RowNumber(r, "left_x_m"), 0.25);
      }
      ++paths;
    }
    trees += record == "tree";
  }
  EXPECT_EQ(paths, RowNumber(plan, "path_nodes"));
  EXPECT_EQ(trees, RowNumber(plan, "nodes"));
}

TEST(Grasp, ClaimIsSilicosMedianTimeOverSolvedSeeds) {
  const ResultTable table = ResultTable::ParseCsv(
      "model,record,success,planning_time_s,iterations,iterations_run,failed_steps,failed_metrics,smoothing,fingertips,"
      "position_error_m,angle_error_rad\n"
      "silico,plan,true,0.5,1000,100,10,0,rho=0.003,octagon,0.01,0.01\n"
      "silico,plan,true,1.5,1000,200,20,10,rho=0.003,octagon,0.02,0.02\n"
      "silico,plan,false,9.0,1000,1000,100,0,rho=0.003,octagon,0.3,0.5\n"
      "penalty,plan,false,20.0,1000,1000,0,0,none,octagon,0.78102496759066542,1.8849555921538759\n",
      "grasp.csv");
  const std::vector<ClaimResult> claims = GraspExperiment().Summarize(table);
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(claims[0].id, "grasp.planning_time_s");
  EXPECT_DOUBLE_EQ(claims[0].ours, 1.0);
  EXPECT_NEAR(claims[0].values.at("success_rate"), 2.0 / 3.0, 1e-12);
  EXPECT_THAT(claims[0].note, HasSubstr("2 of 3 seeds"));
  EXPECT_NEAR(claims[0].values.at("failed_step_fraction"), 140.0 / 1300.0, 1e-12);
  // A model that does not move the star ends where it started: 1 of the start's errors.
  EXPECT_THAT(claims[0].note, HasSubstr("penalty: 0 of 1 seeds reach the goal, the path ends at 1 of the start's position "
                                        "error and 1 of its angle error"));
}

}  // namespace grasp_test
}  // namespace arena
