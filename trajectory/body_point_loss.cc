#include "trajectory/body_point_loss.h"

#include "core/multibody/kinematics.h"

namespace arena {

Vec3 BodyPointLoss::Point(const Scene& scene, const VecX& q) const {
  MultibodyData data(scene.model);
  ForwardKinematics(scene.model, data, q);
  return data.X_WB[body].Act(local);
}

double BodyPointLoss::Value(const Scene& scene, const std::vector<State>& states, const VecX& /*controls*/) const {
  return (Point(scene, states.back().q) - target).squaredNorm();
}

void BodyPointLoss::Gradient(const Scene& scene, const std::vector<State>& states, const VecX& /*controls*/,
                             TrajectoryLossGradient* g) const {
  g->q.assign(states.size(), VecX());
  g->v.assign(states.size(), VecX());
  g->u.resize(0);
  MultibodyData data(scene.model);
  ForwardKinematics(scene.model, data, states.back().q);
  const Vec3 x = data.X_WB[body].Act(local);
  MatX J;
  PointJacobian(scene.model, data, body, x, &J);
  g->q.back() = J.transpose() * (2.0 * (x - target));
}

}  // namespace arena
