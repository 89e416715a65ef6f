#include "experiments/metrics.h"

#include <algorithm>
#include <limits>

#include "core/geometry/signed_distance.h"
#include "core/multibody/energy.h"
#include "core/multibody/kinematics.h"

namespace arena {

double MinSignedDistance(const Scene& scene, MultibodyData& data, const VecX& q) {
  ForwardKinematics(scene.model, data, q);
  double d_min = std::numeric_limits<double>::infinity();
  for (const auto& [a, b] : scene.CollisionPairs()) {
    const Collider& A = scene.colliders[a];
    const Collider& B = scene.colliders[b];
    const SE3 XA = A.body == kWorldBody ? A.placement : data.X_WB[A.body] * A.placement;
    const SE3 XB = B.body == kWorldBody ? B.placement : data.X_WB[B.body] * B.placement;
    d_min = std::min(d_min, SignedDistance(A.shape, XA, B.shape, XB).distance);
  }
  return d_min;
}

double Penetration(const Scene& scene, MultibodyData& data, const VecX& q) {
  return std::max(0.0, -MinSignedDistance(scene, data, q));
}

double TotalEnergy(const Scene& scene, MultibodyData& data, const State& state) {
  return KineticEnergy(scene.model, data, state.q, state.v) +
         PotentialEnergy(scene.model, data, state.q);
}

}  // namespace arena
