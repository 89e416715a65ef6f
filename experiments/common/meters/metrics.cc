#include "experiments/common/meters/metrics.h"

#include <algorithm>
#include <limits>

#include "core/geometry/signed_distance.h"
#include "core/multibody/energy.h"
#include "core/multibody/kinematics.h"
#include "models/point_contact/contact_kernels.h"

namespace arena {

std::vector<double> PairSignedDistances(const Scene& scene, MultibodyData& data, const VecX& q) {
  ForwardKinematics(scene.model, data, q);
  std::vector<double> out;
  for (const auto& [a, b] : scene.CollisionPairs()) {
    const Collider& A = scene.colliders[a];
    const Collider& B = scene.colliders[b];
    if (A.body == kWorldBody && B.body == kWorldBody) continue;
    out.push_back(SignedDistance(A.shape, contact::ColliderPose(data, A), B.shape, contact::ColliderPose(data, B)).distance);
  }
  return out;
}


double MinSignedDistance(const Scene& scene, MultibodyData& data, const VecX& q) {
  double d_min = std::numeric_limits<double>::infinity();
  for (double d : PairSignedDistances(scene, data, q)) d_min = std::min(d_min, d);
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
