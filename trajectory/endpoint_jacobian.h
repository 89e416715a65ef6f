// The Jacobian of a rollout's end point with respect to its start, in world coordinates: chosen
// bodies' positions and linear velocities at the last frame against chosen bodies' positions
// and velocities at the first, one backward pass (trajectory/trajectory_backprop.h, any model's
// Vjp) per output. What a user of a differentiable simulator means by "the gradient of the
// final state", and what the gradient_truth experiment judges against closed forms.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trajectory/rollout.h"

namespace arena {

/// One world coordinate of a free body: its origin's position or linear velocity along an axis.
struct BodyCoordinate {
  enum class Kind { kPosition, kVelocity };
  int body = 0;
  Kind kind = Kind::kPosition;
  int axis = 0;  // 0, 1, 2: x, y, z
};

struct EndpointJacobian {
  VecX value;     // the outputs at the last frame
  MatX jacobian;  // d outputs / d inputs (outputs x inputs)
  Rollout rollout;
  /// Steps whose Vjp used the model's alternative gradient, summed over the backward passes.
  std::int64_t alternative_steps = 0;
  bool ok() const { return rollout.ok(); }
};

/// Rolls `steps` steps from `start` (no controls) and differentiates the `outputs` at the end
/// with respect to the `inputs` at the start. Every body named must be on a free joint to the
/// world, and an input's body unrotated in `start` (its tangent is then the world's); outputs
/// may have rotated. A failed rollout returns with value and jacobian empty and the failure in
/// rollout. Throws InvalidArgument for a body that breaks these rules.
EndpointJacobian DifferentiateEndpoint(Simulator& sim, const State& start, int steps,
                                       const std::vector<BodyCoordinate>& outputs,
                                       const std::vector<BodyCoordinate>& inputs);

/// The coordinate's value in `state` (world frame).
double WorldCoordinate(const Scene& scene, const State& state, const BodyCoordinate& c);

}  // namespace arena
