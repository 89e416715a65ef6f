// Receding-horizon control (MPC) on any model, as seed 004 drives its push, gather and sort tasks
// (Sec. 6, App. A.6, Table 3): at every real step, optimise the controls of the next `window`
// frames from the current state (single shooting, Adam, a fixed number of iterations), apply the
// first frame's control for one real step, and shift the plan by one frame as the next window's
// start. The loss is the task's TrajectoryLoss on each window's rollout.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/simulator.h"
#include "solvers/first_order_optimizers.h"
#include "trajectory/gradient_bundle.h"
#include "trajectory/trajectory_loss.h"

namespace arena {

struct RecedingHorizonOptions {
  int steps = 0;           // H: real steps to take
  int window = 0;          // h: frames optimised at each real step
  int iterations = 0;      // Adam iterations per real step
  AdamOptions adam;
  /// Set: Adam follows the gradient bundle around each window's objective (seed 004's GB
  /// baseline, trajectory/gradient_bundle.h) instead of its gradient; each window draws its own
  /// samples (the seed advanced by the real step).
  std::optional<GradientBundleOptions> bundle;
  /// "" when valid: steps, window and iterations >= 1, valid Adam and bundle options.
  std::string Validate() const;
};

struct RecedingHorizonResult {
  std::vector<State> states;          // x_0 .. x_k (k = steps, or the step that failed)
  VecX controls;                      // the applied controls, stacked (k * nu)
  std::vector<double> window_losses;  // the best loss of each window's optimisation
  std::string failure;                // empty when every real step succeeded
  bool ok() const { return failure.empty(); }
};

/// `after_step` (optional) is called after each real step with its index and the state it
/// reached; returning false ends the run there (e.g. the task is done). A failed real step ends
/// the run with `failure` naming the step (never throws for a model's non-convergence).
using AfterRealStep = std::function<bool(int step, const State& state)>;
RecedingHorizonResult RunRecedingHorizon(Simulator& sim, const State& start,
                                         std::shared_ptr<const TrajectoryLoss> loss,
                                         const RecedingHorizonOptions& options, const AfterRealStep& after_step = {});

}  // namespace arena
