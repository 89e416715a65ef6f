// The contact pairs of a silico step (planar and spatial alike): every collider pair the scene
// lets collide, oriented so that the "parent" is a scaled shape on a moving body and the "child"
// is anything else — a shape on another moving body, a shape fixed in the world, or the floor
// (half-plane / half-space, which must be fixed). Pairs of two fixed shapes are dropped.
#pragma once

#include <string>
#include <vector>

#include "core/common/error.h"
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

/// Copies the orientation (colliders, body slots, friction) into a planar or spatial pair whose
/// shapes are set, and checks that the pair fits the residual's fixed scratch (throws
/// Unsupported naming the pair otherwise).
template <class Pair>
void AdoptOrientation(const OrientedPair& oriented, int max_rows, int max_aux, int max_local, Pair* pair) {
  pair->collider_p = oriented.collider_p;
  pair->collider_c = oriented.collider_c;
  pair->body_p = oriented.body_p;
  pair->body_c = oriented.body_c;
  pair->friction = oriented.friction;
  if (pair->shape_p.num_rows() > max_rows || pair->shape_c.num_rows() > max_rows ||
      pair->shape_p.num_aux() > max_aux || pair->shape_c.num_aux() > max_aux || pair->num_local() > max_local) {
    throw Unsupported(oriented.what + ": shapes too large for the residual's scratch (more than " +
                      std::to_string(max_rows) + " faces)");
  }
}

}  // namespace arena::silico
