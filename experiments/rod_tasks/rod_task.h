// The rod-and-cubes tasks of seed 004 (Sec. 6, App. A.6; scenes/rod_scenes.h) and one run of
// each under receding-horizon control (trajectory/receding_horizon.h), for any model:
//   push    (Fig. 7) the cube to a target 2 m away on the rod's side (the rod must go around it);
//   gather  (Fig. 8) all ten cubes into one disc at the centre of their square;
//   sort    (Fig. 8) even-numbered cubes into a disc 1.5 m in -x, odd ones into one 1.5 m in +x.
// The loss of every window is ReLU(|x_i - x*_i|^2 - eps^2) summed over the cubes at the
// window's end (trajectory/com_target_loss.h). Targets and discs are our guesses
// (docs/deviations.md); the tolerance eps is the caller's.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "experiments/common/settings/adam_config.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "experiments/experiment.h"
#include "models/simulator.h"
#include "solvers/first_order_optimizers.h"
#include "trajectory/com_target_loss.h"
#include "trajectory/gradient_bundle.h"

namespace arena {

struct RodTask {
  std::string name;
  std::shared_ptr<const Scene> scene;
  int rod = -1;                            // the body carrying the rod
  std::shared_ptr<const ComTargetLoss> loss;  // its bodies are the cubes, its targets theirs
};

/// `task` is push, gather or sort; throws InvalidArgument naming the valid ones otherwise.
RodTask MakeRodTask(const std::string& task, double tolerance);
const std::vector<std::string>& RodTaskNames();

struct RodRunSettings {
  int steps = 0;       // H: real steps at most
  int window = 0;      // h
  int iterations = 0;  // Adam iterations per real step
  AdamOptions adam;
  std::optional<GradientBundleOptions> bundle;  // set: Adam follows the bundle (seed 004's GB)
};

/// The settings of a run every rod experiment's cases carry besides steps and window (which the
/// experiment sets: from its config, or from each run's timestep); a group its settings forward to.
struct RodRunParams {
  std::int64_t iterations = 0;
  AdamSettings adam;
  double target_tolerance_m = 0.0;

  template <class V>
  void VisitFields(V&& v) {
    v("iterations", iterations, "Adam iterations per real step", "", Closed(1, kMaxIterationsPerCase));
    adam.VisitFields(v);
    v("target_tolerance_m", target_tolerance_m, "eps_target: a cube is at its target within this distance", "m",
      Positive(100.0));
  }
  /// The run of `steps` real steps, windows of `window` frames (and the bundle's options, for a bundle case).
  RodRunSettings run(std::int64_t steps, std::int64_t window, std::optional<GradientBundleOptions> bundle) const;
};

/// One receding-horizon run of `sim` on `task`, stopping early once every cube is within the
/// tolerance of its target. Rows: `record = step` per real step (the rod's centre, the cubes at
/// their targets, the mean cube-target distance, the window's best loss) and `record = cube` per
/// real step and cube (its centre); the last step row adds reached, reached_at_s,
/// min_mean_distance_m, went_around (push: the rod's centre got 0.2 m past the cube, seen from
/// the target) and failure.
std::vector<Row> RunRodTask(Simulator& sim, const RodTask& task, const RodRunSettings& settings);

/// The columns of a run's settings (steps, window, iterations, Adam's, the tolerance), then the
/// columns RunRodTask writes.
std::vector<Column> RodTaskColumns();

}  // namespace arena
