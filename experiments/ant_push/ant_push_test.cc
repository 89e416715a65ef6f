// ant_push (seed 004 Fig. 9): the scene's box rests out of the spider's reach; from the sines'
// start, over a horizon that never touches the box, the long-range model's gradient is not zero
// and ipc's and sdrs's are exactly zero (the paper's point, as in billiards); the long-range
// gradient against central differences along directions; the sweep's methods and input checks;
// the claim from a table. Its quick profile is checked against the committed reference with
// every experiment's (quick_profiles_test.cc).
#include "experiments/ant_push/ant_push.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "experiments/result_table.h"
#include "core/common/random.h"
#include "models/registry.h"
#include "scenes/spider_scenes.h"
#include "tests/experiments/experiment_test_config.h"
#include "trajectory/com_target_loss.h"
#include "trajectory/controller_objective.h"
#include "trajectory/shooting_objective.h"

namespace arena {
namespace ant_push_test {

using ::testing::HasSubstr;
using testing_config::InvalidArgumentMessage;
using testing_config::QuickConfig;
using testing_config::RowNumber;

constexpr int kSteps = 12;
constexpr double kDt = 0.02;

// The experiment's objective on `model` over kSteps: the box's loss through the sines.
struct Objective {
  explicit Objective(const std::string& model, const OptionMap& options)
      : scene(AntPushScene({.spider = {.slope_deg = 0.0, .foot_points = 12}})),
        sim(MakeSimulator(model, scene, options)),
        loss(AntPushBoxLoss(*scene, 1.5, 0.15)),
        shooting(*sim, DefaultState(*scene), kSteps, loss),
        controller(shooting, SineWaveControls(scene->nu(), kDt, kSteps, SineWaveChannelsOf(*scene), 4)) {}
  VecX Start() const { return controller.controller().Initial(0.2, 4.0, 8.0, 0.7); }

  std::shared_ptr<const Scene> scene;
  std::unique_ptr<Simulator> sim;
  std::shared_ptr<ComTargetLoss> loss;
  ShootingObjective shooting;
  ControllerObjective controller;
};

std::unique_ptr<Objective> Make(const std::string& model, OptionMap options) {
  options["timestep"] = "0.02";
  return std::make_unique<Objective>(model, options);
}

TEST(AntPush, SceneHasTheSpiderAndAFreeBoxOutOfReach) {
  const auto scene = AntPushScene();
  EXPECT_EQ(scene->nv(), 22);
  EXPECT_EQ(scene->nu(), 24);
  const int box = scene->model.FindBody(kAntPushBox);
  ASSERT_GE(box, 0);
  EXPECT_NEAR(scene->model.body(box).inertia.mass(), 100.0 * 0.027, 1e-12);
  EXPECT_THAT(InvalidArgumentMessage([] { AntPushScene({.box_ahead = 0.2}); }), HasSubstr("box_ahead"));
}

// From the start the legs never reach the box in kSteps: only the long-range potential links
// the box to the controls.
TEST(AntPush, OnlyTheLongRangeGradientIsNotZeroFromTheStart) {
  struct Expectation {
    std::string model;
    OptionMap options;
    bool zero;
  };
  const Expectation expectations[] = {
      {"longrange", {{"ground_mesh", "top"}, {"mu", "1e-8"}}, false},
      {"ipc", {{"ground_mesh", "top"}}, true},
      {"sdrs", {{"ground_mesh", "top"}, {"x0", "0.02"}}, true},
  };
  for (const Expectation& e : expectations) {
    SCOPED_TRACE(e.model);
    auto o = Make(e.model, e.options);
    VecX g;
    ASSERT_TRUE(std::isfinite(o->controller.Evaluate(o->Start(), &g)));
    ASSERT_EQ(g.size(), 4 * 3 * 12);
    EXPECT_EQ(g.isZero(0.0), e.zero) << "|g| = " << g.norm();
    EXPECT_GT(o->shooting.last_rollout().contact_steps(), 0) << "the feet reach the ground";
  }
}

// dL/dtheta . w against (L(theta + h w) - L(theta - h w)) / 2h on longrange: the far-field
// gradient is small (1e-4) but it is the loss's own. The loss wrinkles on the scale of 1e-3 in
// theta (the feet's contacts with the ground), so the differences step is 3e-6: along the
// gradient they agree to 1e-5 there, and to 1 % at h = 1e-4, 50 % at 1e-3.
TEST(AntPush, LongRangeGradientMatchesDifferences) {
  auto o = Make("longrange", {{"ground_mesh", "top"}, {"mu", "1e-8"}});
  const VecX x = o->Start();
  VecX g;
  ASSERT_TRUE(std::isfinite(o->controller.Evaluate(x, &g)));
  Rng rng(3);
  for (int d = 0; d < 2; ++d) {
    VecX w = g.normalized();
    if (d == 1) {
      for (int i = 0; i < w.size(); ++i) w[i] = Uniform(rng, -1.0, 1.0);
      w.normalize();
    }
    const double h = 3e-6;
    const double fd = (o->controller.Evaluate(x + h * w, nullptr) - o->controller.Evaluate(x - h * w, nullptr)) / (2.0 * h);
    EXPECT_NEAR(g.dot(w), fd, 1e-3 * std::abs(g.dot(w)) + 1e-9) << "direction " << d;
  }
}

const char* kConfig =
    "models = [\"sdrs\", \"mujoco\"]\n"
    "timestep_s = 0.02\n"
    "steps = 4\n"
    "terms = 2\n"
    "iterations = 1\n"
    "learning_rate = 3e-2\n"
    "adam_beta1 = 0.3\n"
    "adam_beta2 = 0.5\n"
    "target_distance_m = 1.5\n"
    "target_tolerance_m = 0.15\n"
    "initial_amplitude_rad = 0.2\n"
    "foot_points = 8\n"
    "bundle_models = [\"mujoco\"]\n"
    "bundle_samples = 2\n"
    "bundle_sigma = 0.1\n"
    "bundle_order = \"first_order\"\n"
    "[quick.options.sdrs]\n"
    "x0 = 0.02\n"
    "[quick.options.mujoco]\n"
    "integrator = \"implicit\"\n";

TEST(AntPush, ExpandsMethodsAndChecksKeys) {
  const Sweep sweep = AntPushExperiment().Expand(QuickConfig("ant_push", kConfig), {"sdrs", "mujoco", "silico"});
  ASSERT_EQ(sweep.cases.size(), 3u);
  EXPECT_EQ(sweep.cases[0].id, "sdrs/gradient");
  EXPECT_EQ(sweep.cases[1].id, "mujoco/gradient");
  EXPECT_EQ(sweep.cases[2].id, "mujoco/bundle");
  EXPECT_THAT(sweep.notes.back(), HasSubstr("silico: skipped"));
  std::string bad = kConfig;
  bad.replace(bad.find("foot_points = 8"), 15, "foot_points = 2");
  EXPECT_THAT(InvalidArgumentMessage([&] { AntPushExperiment().Expand(QuickConfig("ant_push", bad), {"sdrs"}); }),
              HasSubstr("foot_points"));
}

TEST(AntPush, RunsEveryMethodAndWritesTheBestPath) {
  const AntPushExperiment e;
  for (const Case& c : e.Expand(QuickConfig("ant_push", kConfig), {"sdrs", "mujoco"}).cases) {
    SCOPED_TRACE(c.id);
    const std::vector<Row> rows = e.Run(c);
    int iterations = 0, paths = 0, targets = 0;
    const Row* last = nullptr;
    for (const Row& r : rows) {
      const std::string record = std::get<std::string>(r.at("record"));
      if (record == "iteration") ++iterations, last = &r;
      paths += record == "path";
      targets += record == "target";
    }
    std::string failures;
    for (const Row& r : rows) {
      if (r.contains("failure")) failures += ToText(r.at("failure")) + "; ";
    }
    ASSERT_EQ(iterations, 2) << failures;
    EXPECT_EQ(paths, 5);  // the start and 4 steps
    EXPECT_EQ(targets, 1);
    EXPECT_FALSE(last->contains("failure"));
    EXPECT_LT(RowNumber(*last, "box_travel_m"), 0.01) << "nothing reaches the box in 4 steps";
    EXPECT_NEAR(RowNumber(*last, "box_distance_m"), 1.5, 0.01);
    EXPECT_EQ(last->contains("min_distance_m"), c.model == "sdrs");
  }
}

ResultTable Table(const std::string& csv) { return ResultTable::ParseCsv(csv, "ant_push.csv"); }

TEST(AntPush, ClaimComparesLongRangeWithEveryOtherRun) {
  const std::string header = "model,method,record,iterations,steps,loss,best_loss,failure\n";
  const ResultTable table = Table(header +
                                  "longrange,gradient,iteration,1,4,2.0,2.0,\n"
                                  "longrange,gradient,iteration,1,4,1.0,1.0,\n"
                                  "ipc,gradient,iteration,1,4,2.0,2.0,\n"
                                  "ipc,gradient,iteration,1,4,2.0,2.0,\n"
                                  "mujoco,bundle,iteration,1,4,2.0,2.0,\n"
                                  "mujoco,bundle,iteration,1,4,1.5,1.5,\n");
  const std::vector<ClaimResult> claims = AntPushExperiment().Summarize(table);
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(claims[0].id, "ant_push.longrange_best");
  EXPECT_DOUBLE_EQ(claims[0].ours, 0.5);
  EXPECT_DOUBLE_EQ(claims[0].values.at("other_models_min_loss_ratio"), 0.75);
  EXPECT_THAT(claims[0].note, HasSubstr("mujoco (bundle) 0.75"));
}

}  // namespace ant_push_test
}  // namespace arena
