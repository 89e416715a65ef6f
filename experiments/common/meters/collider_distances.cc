#include "experiments/common/meters/collider_distances.h"

#include <algorithm>
#include <limits>

#include "core/geometry/mesh_distance.h"
#include "core/multibody/kinematics.h"
#include "models/incremental_potential/collider_meshes.h"

namespace arena {

namespace {

SE3 PoseOf(const MultibodyData& data, int body) { return body == kWorldBody ? SE3() : data.X_WB[body]; }

}  // namespace

ColliderDistances::ColliderDistances(const Scene& scene) : scene_(scene), data_(scene.model) {
  for (const ColliderMesh& m : BuildColliderMeshes(scene, ColliderMeshOptions{})) {
    body_.push_back(m.body);
    radius_.push_back(m.vertices.rowwise().norm().maxCoeff());
    mesh_.push_back(MakeTriangleMesh(m.vertices, m.triangles).data);
  }
}

double ColliderDistances::Between(const VecX& q, int a, int b) {
  ForwardKinematics(scene_.model, data_, q);
  return MeshDistance(*mesh_[a], PoseOf(data_, body_[a]), *mesh_[b], PoseOf(data_, body_[b])).distance;
}

double ColliderDistances::Minimum(const VecX& q) {
  ForwardKinematics(scene_.model, data_, q);
  std::vector<std::pair<int, int>> pairs;
  for (int a = 0; a < size(); ++a) {
    for (int b = a + 1; b < size(); ++b) pairs.emplace_back(a, b);
  }
  return MinimumOver(pairs);
}

double ColliderDistances::MinimumOverCollisionPairs(const VecX& q) {
  ForwardKinematics(scene_.model, data_, q);
  return MinimumOver(scene_.CollisionPairs());
}

double ColliderDistances::MinimumOver(const std::vector<std::pair<int, int>>& pairs) const {
  double best = std::numeric_limits<double>::infinity();
  for (const auto& [a, b] : pairs) {
    if (body_[a] == body_[b]) continue;
    const SE3 X_WA = PoseOf(data_, body_[a]), X_WB = PoseOf(data_, body_[b]);
    const double bound = (X_WA.translation() - X_WB.translation()).norm() - radius_[a] - radius_[b];
    if (bound > best) continue;
    best = std::min(best, MeshDistance(*mesh_[a], X_WA, *mesh_[b], X_WB).distance);
  }
  return best;
}

double ColliderDistances::Observe(const VecX& q) {
  const double d = Minimum(q);
  closest_ = std::min(closest_, d);
  return d;
}

}  // namespace arena
