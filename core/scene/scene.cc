#include "core/scene/scene.h"

#include <algorithm>
#include <cmath>

#include "core/common/error.h"

namespace arena {

bool Scene::IsPlanar() const {
  for (const auto& b : model.bodies()) {
    const bool on_world = b.parent == kWorldBody && (b.joint.type == JointType::kPlanar ||
                                                     b.joint.type == JointType::kFixed);
    if (!on_world) return false;
  }
  for (const auto& c : colliders) {
    if (!arena::IsPlanar(TypeOf(c.shape))) return false;
  }
  return true;
}

const char* ToString(PairExclusion exclusion) {
  switch (exclusion) {
    case PairExclusion::kNone: return "";
    case PairExclusion::kGroupMask: return "group/mask";
    case PairExclusion::kSameBody: return "same body";
    case PairExclusion::kParentChild: return "parent-child";
    case PairExclusion::kExcludedPair: return "excluded pair";
    case PairExclusion::kSameTree: return "same tree";
    case PairExclusion::kDefaultPoseOverlap: return "default-pose overlap";
  }
  return "";
}

int Scene::TreeRoot(int body) const {
  while (body != kWorldBody && model.body(body).parent != kWorldBody) body = model.body(body).parent;
  return body;
}

bool Scene::CanCollide(int a, int b) const { return Exclusion(a, b, nullptr) == PairExclusion::kNone; }

PairExclusion Scene::Exclusion(int a, int b) const { return Exclusion(a, b, nullptr); }

PairExclusion Scene::Exclusion(int a, int b, const std::vector<int>* roots) const {
  const Collider& A = colliders[a];
  const Collider& B = colliders[b];
  if (!(A.group & B.mask) || !(B.group & A.mask)) return PairExclusion::kGroupMask;
  if (A.body == B.body) return PairExclusion::kSameBody;  // includes two world colliders
  // Parent-child pairs of bodies; a body on a joint to the world still touches the world.
  if (A.body >= 0 && B.body >= 0 &&
      (model.body(A.body).parent == B.body || model.body(B.body).parent == A.body)) {
    return PairExclusion::kParentChild;
  }
  for (const auto& [x, y] : excluded_body_pairs) {
    if ((x == A.body && y == B.body) || (x == B.body && y == A.body)) return PairExclusion::kExcludedPair;
  }
  if (!self_collision && A.body >= 0 && B.body >= 0) {
    const int ra = roots != nullptr ? (*roots)[A.body] : TreeRoot(A.body);
    const int rb = roots != nullptr ? (*roots)[B.body] : TreeRoot(B.body);
    if (ra == rb) return PairExclusion::kSameTree;
  }
  for (const auto& [x, y] : default_pose_overlaps) {
    if ((x == A.body && y == B.body) || (x == B.body && y == A.body)) return PairExclusion::kDefaultPoseOverlap;
  }
  return PairExclusion::kNone;
}

std::vector<std::pair<int, int>> Scene::CollisionPairs() const {
  // Bodies come in topological order (a parent before its children): one pass finds the roots.
  std::vector<int> roots(model.num_bodies());
  for (int k = 0; k < model.num_bodies(); ++k) {
    const int parent = model.body(k).parent;
    roots[k] = parent == kWorldBody ? k : roots[parent];
  }
  std::vector<std::pair<int, int>> pairs;
  const int n = static_cast<int>(colliders.size());
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      if (Exclusion(a, b, &roots) == PairExclusion::kNone) pairs.emplace_back(a, b);
    }
  }
  return pairs;
}

State DefaultState(const Scene& scene) {
  State s;
  s.q = scene.default_q.size() == scene.nq() ? scene.default_q : scene.model.Neutral();
  s.v = VecX::Zero(scene.nv());
  return s;
}

void ValidateState(const Scene& scene, const State& state) {
  if (state.q.size() != scene.nq() || state.v.size() != scene.nv()) {
    throw InvalidArgument("state: q has size " + std::to_string(state.q.size()) + " and v " +
                          std::to_string(state.v.size()) + "; scene '" + scene.name +
                          "' needs nq = " + std::to_string(scene.nq()) + ", nv = " +
                          std::to_string(scene.nv()));
  }
  if (std::string bad = FirstNonFiniteEntry(state); !bad.empty()) {
    throw InvalidArgument("state: " + bad + " is not finite");
  }
}

std::string FirstNonFiniteEntry(const State& state) {
  auto check = [](const VecX& x, const char* name) -> std::string {
    for (int i = 0; i < x.size(); ++i) {
      if (!std::isfinite(x[i])) return std::string(name) + "[" + std::to_string(i) + "] = " + std::to_string(x[i]);
    }
    return "";
  };
  if (std::string q = check(state.q, "q"); !q.empty()) return q;
  if (std::string v = check(state.v, "v"); !v.empty()) return v;
  if (!std::isfinite(state.t)) return "t = " + std::to_string(state.t);
  return "";
}

}  // namespace arena
