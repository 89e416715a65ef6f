// The contact pairs of a silico step (planar and spatial alike): every collider pair the scene
// lets collide, oriented so that the "parent" is a scaled shape on a moving body and the "child"
// is anything else — a shape on another moving body, a shape fixed in the world, or the floor
// (half-plane / half-space, which must be fixed). Pairs of two fixed shapes are dropped.
#pragma once

#include <string>
#include <vector>

#include "core/scene/scene.h"

namespace arena::silico {

struct OrientedPair {
  int collider_p = 0, collider_c = 0;  // scene collider indices
  int body_p = 0;                      // dynamic-body slot of the parent
  int body_c = -1;                     // dynamic-body slot of the child, -1 when fixed
  SE3 X_p;                             // parent shape frame in its body frame
  SE3 X_c;                             // child shape frame in its body frame, or in the world if fixed
  double friction = 0.5;               // the smaller of the two coefficients
  std::string what;                    // "<model>: pair 'a' / 'b'", for error messages
};

/// `slot[b]` is the dynamic-body slot of scene body b (-1: fixed). Fixed bodies are placed by
/// forward kinematics at the scene's default configuration. Throws Unsupported for a floor on
/// a moving body. `model` prefixes the messages ("silico (planar)").
std::vector<OrientedPair> OrientPairs(const Scene& scene, const std::vector<int>& slot, const std::string& model);

}  // namespace arena::silico
