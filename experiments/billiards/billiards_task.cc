#include "experiments/billiards/billiards_task.h"

#include <cmath>
#include <vector>

#include "core/common/error.h"
#include "core/common/random.h"
#include "scenes/longrange_scenes.h"

namespace arena {

namespace {

constexpr double kBallRadius = 0.5;   // BilliardsScene's balls
constexpr double kTargetSquare = 6.0; // m: side of the square the targets are drawn from

int BodyNamed(const Scene& scene, const std::string& name) {
  for (int b = 0; b < scene.model.num_bodies(); ++b) {
    if (scene.model.body(b).name == name) return b;
  }
  throw InvalidArgument("billiards: the scene has no body '" + name + "'");
}

// The two target balls and their targets (see MakeBilliardsTask).
std::shared_ptr<ComTargetLoss> DrawTargets(const Scene& scene, const State& start, int cue, std::uint64_t seed,
                                           double tolerance) {
  std::vector<int> rack;
  Vec3 centre = Vec3::Zero();
  for (int b = 0; b < scene.model.num_bodies(); ++b) {
    if (b == cue) continue;
    rack.push_back(b);
    const int i = scene.model.body(b).idx_q;
    centre += Vec3(start.q[i], start.q[i + 1], 0.0);
  }
  centre /= static_cast<double>(rack.size());
  Rng rng(seed);
  auto loss = std::make_shared<ComTargetLoss>();
  loss->tolerance = tolerance;
  const int first = static_cast<int>(rng() % rack.size());
  int second = static_cast<int>(rng() % (rack.size() - 1));
  if (second >= first) ++second;  // distinct
  for (int k : {first, second}) {
    loss->bodies.push_back(rack[k]);
    const double half = 0.5 * kTargetSquare;
    loss->targets.emplace_back(Uniform(rng, centre.x() - half, centre.x() + half),
                               Uniform(rng, centre.y() - half, centre.y() + half), kBallRadius);
  }
  return loss;
}

}  // namespace

BilliardsTask MakeBilliardsTask(const std::string& initialisation, std::uint64_t target_seed,
                                std::uint64_t launch_seed, double tolerance) {
  if (!(tolerance >= 0.0) || !std::isfinite(tolerance)) {
    throw InvalidArgument("billiards: the target tolerance must be >= 0 and finite");
  }
  BilliardsTask task;
  task.scene = BilliardsScene();
  task.start = DefaultState(*task.scene);
  task.cue = BodyNamed(*task.scene, "cue");
  task.loss = DrawTargets(*task.scene, task.start, task.cue, target_seed, tolerance);
  const BodyModel& cue = task.scene->model.body(task.cue);
  task.launch = VecX::Zero(4);
  task.launch << task.start.q[cue.idx_q], task.start.q[cue.idx_q + 1], 0.0, 0.0;
  if (initialisation == "sampled") {
    Rng rng(launch_seed);
    task.launch << Uniform(rng, 0.42, 4.42), Uniform(rng, 1.5, 3.5), Uniform(rng, -2.0, 2.0), Uniform(rng, -4.0, 0.0);
  } else if (initialisation != "trivial") {
    throw InvalidArgument("billiards: unknown initialisation '" + initialisation + "'; valid: trivial, sampled");
  }
  return task;
}

}  // namespace arena
