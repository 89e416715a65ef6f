#include "scenes/ground_below.h"

#include <cmath>
#include <limits>
#include <string>

#include "core/common/error.h"
#include "core/geometry/support.h"
#include "core/multibody/data.h"
#include "core/multibody/kinematics.h"

namespace arena {

namespace {

bool IsUnbounded(const Shape& shape) {
  const ShapeType t = TypeOf(shape);
  return t == ShapeType::kHalfSpace || t == ShapeType::kHalfPlane2;
}

// A body that no joint lets move relative to the world.
bool WeldedToWorld(const MultibodyModel& model, int body) {
  for (int b = body; b != kWorldBody; b = model.body(b).parent) {
    if (model.body(b).joint.type != JointType::kFixed) return false;
  }
  return true;
}

}  // namespace

Vec3 UpDirection(const Scene& scene) {
  const Vec3& g = scene.model.gravity();
  return g.norm() > 0.0 ? Vec3(-g.normalized()) : Vec3(Vec3::UnitZ());
}

double LowestPointAlongUp(const Scene& scene, const VecX& q) {
  if (q.size() != scene.nq()) {
    throw InvalidArgument("LowestPointAlongUp: scene '" + scene.name + "' has nq = " +
                          std::to_string(scene.nq()) + ", got q of size " + std::to_string(q.size()));
  }
  MultibodyData data(scene.model);
  ForwardKinematics(scene.model, data, q);
  const Vec3 up = UpDirection(scene);
  double lowest = std::numeric_limits<double>::infinity();
  for (const Collider& c : scene.colliders) {
    if (IsUnbounded(c.shape)) continue;
    const SE3 X_WS = c.body == kWorldBody ? c.placement : data.X_WB[c.body] * c.placement;
    lowest = std::min(lowest, SupportWorld(c.shape, X_WS, -up).dot(up));
  }
  return lowest;
}

Collider& AddGroundBelow(Scene& scene, double gap, double friction) {
  if (!std::isfinite(gap) || gap < 0.0) {
    throw InvalidArgument("AddGroundBelow: gap " + std::to_string(gap) + " must be finite and >= 0");
  }
  if (scene.IsPlanar()) throw InvalidArgument("AddGroundBelow: scene '" + scene.name + "' is planar");
  const double lowest = LowestPointAlongUp(scene, DefaultState(scene).q);
  if (!std::isfinite(lowest)) {
    throw InvalidArgument("AddGroundBelow: scene '" + scene.name + "' has no bounded collider");
  }
  for (int b = 0; b < scene.model.num_bodies(); ++b) {
    if (WeldedToWorld(scene.model, b)) scene.excluded_body_pairs.emplace_back(b, kWorldBody);
  }
  // HalfSpace is z <= 0 in its frame: turn z onto up and put the origin on the boundary.
  const Vec3 up = UpDirection(scene);
  Collider ground;
  ground.name = "ground";
  ground.body = kWorldBody;
  ground.placement = SE3(Quat::FromTwoVectors(Vec3::UnitZ(), up).toRotationMatrix(), (lowest - gap) * up);
  ground.shape = HalfSpace{};
  ground.friction = friction;
  scene.colliders.push_back(ground);
  return scene.colliders.back();
}

}  // namespace arena
