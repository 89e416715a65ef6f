// Seed 004's task loss (Sec. 6, App. A.6): bring the centres of mass of chosen free bodies to
// their targets at the last state, each within a tolerance eps_target:
//   L = sum_i ReLU(|x_i(q_T) - x*_i|^2 - eps^2),  x_i = p_i + R_i c_i
// (p_i, R_i the body's pose on its free joint, c_i its centre of mass in the body frame). The
// hinge makes a body already within eps of its target contribute nothing.
#pragma once

#include <vector>

#include "trajectory/trajectory_loss.h"

namespace arena {

struct ComTargetLoss final : TrajectoryLoss {
  std::vector<int> bodies;     // bodies on a free joint to the world
  std::vector<Vec3> targets;   // x*_i (world, m), one per body
  double tolerance = 0.0;      // eps_target (m)

  /// Empty when valid for `scene`, else the problem (a body that is not free, sizes).
  std::string Validate(const Scene& scene) const;
  double Value(const Scene& scene, const std::vector<State>& states, const VecX& controls) const override;
  /// dL/dq_T in the free joints' tangent coordinates (omega, v in the body frame):
  /// dL/dv = R^T g, dL/domega = c x (R^T g) with g = dL/dx.
  void Gradient(const Scene& scene, const std::vector<State>& states, const VecX& controls,
                TrajectoryLossGradient* g) const override;
};

}  // namespace arena
