// A terminal loss on a point fixed to a body: L = |x(q_T) - x*|^2 with x = T_b(q_T) p_b, seed
// 003's Fig. 10 ("the squared distance from the chain's tip to the target"). The gradient is in
// the tangent coordinates of q_T (the point's Jacobian, core/multibody/kinematics.h).
#pragma once

#include "trajectory/trajectory_loss.h"

namespace arena {

struct BodyPointLoss final : TrajectoryLoss {
  int body = 0;
  Vec3 local = Vec3::Zero();   // p_b, in the body's frame
  Vec3 target = Vec3::Zero();  // x*, world

  /// The point's world position at q.
  Vec3 Point(const Scene& scene, const VecX& q) const;
  double Value(const Scene& scene, const std::vector<State>& states, const VecX& controls) const override;
  void Gradient(const Scene& scene, const std::vector<State>& states, const VecX& controls,
                TrajectoryLossGradient* g) const override;
};

}  // namespace arena
