#include "models/silico/oriented_pairs.h"

#include <algorithm>

#include "core/common/error.h"
#include "core/multibody/data.h"
#include "core/multibody/kinematics.h"

namespace arena::silico {

namespace {
bool IsFloor(const Shape& s) { return std::holds_alternative<HalfPlane2>(s) || std::holds_alternative<HalfSpace>(s); }
}  // namespace

std::vector<OrientedPair> OrientPairs(const Scene& scene, const std::vector<int>& slot, const std::string& model) {
  const auto& mb = scene.model;
  MultibodyData data(mb);
  ForwardKinematics(mb, data, scene.default_q.size() == mb.nq() ? scene.default_q : mb.Neutral());
  auto fixed = [&](const Collider& c) { return c.body == kWorldBody || slot[c.body] < 0; };
  auto frame = [&](const Collider& c) {
    return c.body == kWorldBody ? c.placement : fixed(c) ? data.X_WB[c.body] * c.placement : c.placement;
  };
  std::vector<OrientedPair> out;
  for (const auto& [a, b] : scene.CollisionPairs()) {
    int p = a, c = b;
    if (fixed(scene.colliders[p]) && fixed(scene.colliders[c])) continue;
    if (fixed(scene.colliders[p]) || IsFloor(scene.colliders[p].shape)) std::swap(p, c);
    const Collider& cp = scene.colliders[p];
    const Collider& cc = scene.colliders[c];
    OrientedPair pair;
    pair.what = model + ": pair '" + cp.name + "' / '" + cc.name + "'";
    if (fixed(cp) || IsFloor(cp.shape) || (IsFloor(cc.shape) && !fixed(cc))) {
      throw Unsupported(pair.what + ": a floor (half-plane or half-space) must be fixed and face a moving shape");
    }
    pair.collider_p = p;
    pair.collider_c = c;
    pair.body_p = slot[cp.body];
    pair.body_c = fixed(cc) ? -1 : slot[cc.body];
    pair.X_p = frame(cp);
    pair.X_c = frame(cc);
    pair.friction = std::min(cp.friction, cc.friction);
    out.push_back(std::move(pair));
  }
  return out;
}

}  // namespace arena::silico
