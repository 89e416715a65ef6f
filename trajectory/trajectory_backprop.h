// The adjoint (backward) pass of a rollout through any model: the loss gradient at x_T is
// pulled back step by step with Simulator::Vjp (analytical, or differences of the model's own
// step for the engines), accumulating the gradients with respect to every control, the design
// parameters and the start state.
#pragma once

#include <cstdint>

#include "models/simulator.h"
#include "trajectory/rollout.h"
#include "trajectory/trajectory_loss.h"

namespace arena {

struct TrajectoryGradient {
  VecX controls;  // dL/du, stacked like the controls
  VecX design;    // dL/dp (empty without design parameters)
  VecX q0, v0;    // dL/d(start state), q0 in tangent coordinates
  /// Steps whose Vjp chose the model's alternative gradient (StepGradient::alternative).
  std::int64_t alternative_steps = 0;
};

/// Needs a complete rollout (rollout.ok()) of `controls` by the same simulator; `g` from the
/// loss at that rollout. Throws Unsupported when the model has no derivatives.
void BackpropagateTrajectory(Simulator& sim, const Rollout& rollout, const VecX& controls,
                             const TrajectoryLossGradient& g, TrajectoryGradient* out);

}  // namespace arena
