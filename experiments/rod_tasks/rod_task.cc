#include "experiments/rod_tasks/rod_task.h"

#include <chrono>
#include <cmath>
#include <limits>

#include "core/common/error.h"
#include "core/common/strings.h"
#include "core/multibody/data.h"
#include "core/multibody/kinematics.h"
#include "scenes/rod_scenes.h"
#include "trajectory/receding_horizon.h"

namespace arena {

namespace {

// The cube's and the rod's half sizes along x (scenes/rod_scenes.h): the rod is behind the cube
// once their centres are this far apart against the target's direction.
constexpr double kBehind = 0.15 + 0.05;

int BodyNamed(const Scene& scene, const std::string& name) {
  for (int b = 0; b < scene.model.num_bodies(); ++b) {
    if (scene.model.body(b).name == name) return b;
  }
  throw InvalidArgument(scene.name + ": the scene has no body '" + name + "'");
}

// The cubes' targets: each cube's centre height, so the loss is about the plane.
std::vector<Vec3> Targets(const std::string& task, const std::vector<Vec2>& cubes, double z) {
  std::vector<Vec3> out;
  for (size_t i = 0; i < cubes.size(); ++i) {
    if (task == "push") out.emplace_back(cubes[i].x() + 2.0, cubes[i].y(), z);
    if (task == "gather") out.emplace_back(0.0, 0.0, z);
    if (task == "sort") out.emplace_back(i % 2 == 0 ? -1.5 : 1.5, 0.0, z);
  }
  return out;
}

}  // namespace

const std::vector<std::string>& RodTaskNames() {
  static const std::vector<std::string> names = {"push", "gather", "sort"};
  return names;
}

RodTask MakeRodTask(const std::string& task, double tolerance) {
  RodTask t;
  t.name = task;
  std::vector<Vec2> cubes;
  if (task == "push") {
    t.scene = PushScene();
    cubes = {Vec2::Zero()};
  } else if (task == "gather" || task == "sort") {
    t.scene = task == "gather" ? GatherScene() : SortScene();
    cubes = ScatteredCubes();
  } else {
    throw InvalidArgument("unknown rod task '" + task + "'; valid: " + Join(RodTaskNames()));
  }
  t.rod = BodyNamed(*t.scene, "rod");
  auto loss = std::make_shared<ComTargetLoss>();
  for (size_t i = 0; i < cubes.size(); ++i) loss->bodies.push_back(BodyNamed(*t.scene, "cube" + std::to_string(i)));
  const State start = DefaultState(*t.scene);
  loss->targets = Targets(task, cubes, start.q[t.scene->model.body(loss->bodies[0]).idx_q + 2]);
  loss->tolerance = tolerance;
  t.loss = loss;
  return t;
}

RodRunSettings RodRunParams::run(std::int64_t steps, std::int64_t window,
                                 std::optional<GradientBundleOptions> bundle) const {
  RodRunSettings settings;
  settings.steps = static_cast<int>(steps);
  settings.window = static_cast<int>(window);
  settings.iterations = static_cast<int>(iterations);
  settings.adam = adam.options();
  settings.bundle = std::move(bundle);
  return settings;
}

std::vector<Column> RodTaskColumns() {
  return {
      {"steps", "H: real steps at most (the run stops once every cube is at its target)"},
      {"window", "h: frames optimised at each real step"},
      {"iterations", "Adam iterations per real step"},
      {"learning_rate", "Adam's step size"},
      {"adam_beta1", "Adam's first-moment decay"},
      {"adam_beta2", "Adam's second-moment decay"},
      {"target_tolerance_m", "eps_target: a cube is at its target within this distance"},
      {"record", "step (one real step) or cube (a cube's centre after a real step)", false, ColumnType::kText},
      {"step", "real step"},
      {"time_s", "step: simulated time at its end"},
      {"rod_x_m", "step: the rod's centre"},
      {"rod_y_m", "step: the rod's centre"},
      {"cubes_at_target", "step: cubes within the tolerance of their targets (in the plane)"},
      {"mean_distance_m", "step: mean cube-target distance in the plane"},
      {"window_loss", "step: the best loss of this step's window"},
      {"elapsed_s", "step: wall-clock time since the run started", true},
      {"cube", "cube: its body name", false, ColumnType::kText},
      {"x_m", "cube: its centre"},
      {"y_m", "cube: its centre"},
      {"reached", "last step row: every cube came within the tolerance (the run stops there)", false,
       ColumnType::kBool},
      {"reached_at_s", "last step row: simulated time when it did (the paper's time to converge)"},
      {"max_cubes_at_target", "last step row: the most cubes at their targets at any step"},
      {"min_mean_distance_m", "last step row: the smallest mean cube-target distance over the run"},
      {"went_around", "last step row, push: the rod's centre got behind the cube, seen from the target", false,
       ColumnType::kBool},
      {"failure", "last step row: why a real step failed", false, ColumnType::kText},
  };
}

std::vector<Row> RunRodTask(Simulator& sim, const RodTask& task, const RodRunSettings& settings) {
  const Scene& scene = *task.scene;
  const ComTargetLoss& loss = *task.loss;
  RecedingHorizonOptions mpc;
  mpc.steps = settings.steps;
  mpc.window = settings.window;
  mpc.iterations = settings.iterations;
  mpc.adam = settings.adam;
  mpc.bundle = settings.bundle;
  MultibodyData data(scene.model);
  ForwardKinematics(scene.model, data, DefaultState(scene).q);
  const Vec3 push_direction = (loss.targets[0] - data.X_WB[loss.bodies[0]].translation()).normalized();
  const double dt = sim.timestep();

  std::vector<Row> rows, steps;
  double reached_at = std::numeric_limits<double>::quiet_NaN(), min_mean = std::numeric_limits<double>::infinity();
  std::int64_t most = 0;
  bool went_around = false;
  const auto t0 = std::chrono::steady_clock::now();
  auto after_step = [&](int step, const State& s) {
    ForwardKinematics(scene.model, data, s.q);
    const Vec3 rod = data.X_WB[task.rod].translation();
    std::int64_t at_target = 0;
    double sum = 0.0;
    for (size_t i = 0; i < loss.bodies.size(); ++i) {
      const Vec3 p = data.X_WB[loss.bodies[i]].translation();
      const double d = (p - loss.targets[i]).head<2>().norm();
      at_target += d <= loss.tolerance;
      sum += d;
      rows.push_back({{"record", std::string("cube")}, {"step", static_cast<std::int64_t>(step)},
                      {"cube", scene.model.body(loss.bodies[i]).name}, {"x_m", p.x()}, {"y_m", p.y()}});
    }
    const double mean = sum / static_cast<double>(loss.bodies.size());
    min_mean = std::min(min_mean, mean);
    most = std::max(most, at_target);
    if (task.name == "push") {
      went_around = went_around || (rod - data.X_WB[loss.bodies[0]].translation()).dot(push_direction) < -kBehind;
    }
    steps.push_back({{"record", std::string("step")}, {"step", static_cast<std::int64_t>(step)},
                     {"time_s", (step + 1) * dt}, {"rod_x_m", rod.x()}, {"rod_y_m", rod.y()},
                     {"cubes_at_target", at_target}, {"mean_distance_m", mean},
                     {"elapsed_s", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()}});
    const bool done = at_target == static_cast<std::int64_t>(loss.bodies.size());
    if (done) reached_at = (step + 1) * dt;
    return !done;
  };
  const RecedingHorizonResult result = RunRecedingHorizon(sim, DefaultState(scene), task.loss, mpc, after_step);
  for (size_t k = 0; k < steps.size() && k < result.window_losses.size(); ++k) {
    steps[k]["window_loss"] = result.window_losses[k];
  }
  if (steps.empty()) steps.push_back({{"record", std::string("step")}});
  Row& last = steps.back();
  last["reached"] = !std::isnan(reached_at);
  if (!std::isnan(reached_at)) last["reached_at_s"] = reached_at;
  last["max_cubes_at_target"] = most;
  if (std::isfinite(min_mean)) last["min_mean_distance_m"] = min_mean;
  if (task.name == "push") last["went_around"] = went_around;
  if (!result.ok()) last["failure"] = result.failure;
  steps.insert(steps.end(), rows.begin(), rows.end());
  return steps;
}

}  // namespace arena
