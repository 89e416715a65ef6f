#include "core/scene/initial_overlaps.h"

#include <algorithm>

#include "core/geometry/gjk.h"
#include "core/multibody/data.h"
#include "core/multibody/kinematics.h"

namespace arena {

namespace {

bool Bounded(const Shape& shape) {
  const ShapeType t = TypeOf(shape);
  return t != ShapeType::kHalfSpace && t != ShapeType::kHalfPlane2;
}

}  // namespace

std::vector<std::pair<int, int>> SelfPairsOverlappingAt(const Scene& scene, const VecX& q) {
  MultibodyData data(scene.model);
  ForwardKinematics(scene.model, data, q);
  const auto pose = [&](const Collider& c) { return data.X_WB[c.body] * c.placement; };
  std::vector<std::pair<int, int>> pairs;
  for (const auto& [a, b] : scene.CollisionPairs()) {
    const Collider& A = scene.colliders[a];
    const Collider& B = scene.colliders[b];
    if (A.body == kWorldBody || B.body == kWorldBody) continue;
    if (scene.TreeRoot(A.body) != scene.TreeRoot(B.body)) continue;
    if (!Bounded(A.shape) || !Bounded(B.shape)) continue;
    if (IsPlanar(TypeOf(A.shape)) != IsPlanar(TypeOf(B.shape))) continue;
    if (!GjkDistance(A.shape, pose(A), B.shape, pose(B)).intersecting) continue;
    pairs.emplace_back(std::min(A.body, B.body), std::max(A.body, B.body));
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

}  // namespace arena
