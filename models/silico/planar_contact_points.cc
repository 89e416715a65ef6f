#include "models/silico/planar_contact_points.h"

#include "models/contact_criteria.h"

namespace arena::silico {

ContactPoint PlanarContactPoint(const Scene& scene, MultibodyData& data, const State& end, const PlanarPair& pair,
                                const Vec2& point, const Vec2& normal, const Vec2& force_on_parent) {
  const Collider& P = scene.colliders[pair.collider_p];
  const Collider& C = scene.colliders[pair.collider_c];
  return {P.body,
          C.body,
          Vec3(point.x(), point.y(), 0.0),
          Vec3(normal.x(), normal.y(), 0.0),
          ColliderGap(scene, data, end, pair.collider_p, pair.collider_c),
          false,
          Vec3(force_on_parent.x(), force_on_parent.y(), 0.0),
          pair.friction};
}

}  // namespace arena::silico
