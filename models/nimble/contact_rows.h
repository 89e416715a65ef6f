// The constraint rows of Nimble's LCP (seed 002 Sec. III, App. A; laid out as DART's): per
// contact one normal row and, with friction, two tangent rows whose box is +-mu times the normal
// impulse.
// A row's Jacobian maps generalized velocity to the velocity of body B relative to body A at the
// contact point along the row's direction (the impulse pushes B along it and A against it).
#pragma once

#include <vector>

#include "core/multibody/data.h"
#include "core/scene/scene.h"
#include "models/point_contact/contact_kernels.h"
#include "solvers/boxed_lcp.h"

namespace arena::nimble {

/// Two colliders that may touch, with their combined friction min(mu_A, mu_B) (DART's rule).
struct ColliderPair {
  int a = 0, b = 0;  // collider indices
  double friction = 0.0;
  double restitution = 0.0;  // max(e_A, e_B), the scene's rule
};

/// One contact point between two colliders' bodies (kWorldBody for the environment).
struct Contact {
  int body_a = kWorldBody, body_b = kWorldBody;
  Vec3 point_W;
  Vec3 normal_W;        // unit, from A to B
  double depth = 0.0;   // penetration (> 0 inside)
  double friction = 0.0;
  double restitution = 0.0;
  int pair = -1;   // the model's collider pair that produced it
  int point = -1;  // its index in that pair's kernel output (to redo the kernel with AD)
};

/// ODE's tangent basis (`getTangentBasisMatrixODE` in Nimble's code): t1 = normalize(z x n),
/// falling back to x x n, then y x n when degenerate; t2 = n x t1. Singular for n ~ +-z, which
/// Nimble's Y-up scenes avoid.
template <class V>
void TangentBasisOde(const V& n, V* t1, V* t2) {
  using contact::Val;
  V t = V(0, 0, 1).cross(n);
  if (Val(t.squaredNorm()) < 1e-12) t = V(1, 0, 0).cross(n);
  if (Val(t.squaredNorm()) < 1e-12) t = V(0, 1, 0).cross(n);
  *t1 = t / t.norm();
  *t2 = n.cross(*t1);
}

/// Friction below this is none (DART's threshold, kept by Nimble's released code).
inline constexpr double kMinFriction = 1e-3;
/// DART's bounce: restitution below 1e-3 is none; a contact bounces when the speed it must leave
/// with, -e (J v*)_n, exceeds 0.1 m/s, capped at 100 m/s (DART_*_THRESHOLD, ContactConstraint).
inline constexpr double kMinRestitution = 1e-3;
inline constexpr double kMinBounceSpeed = 0.1;
inline constexpr double kMaxBounceSpeed = 100.0;

/// Rows of every contact: J (rows x nv, after ForwardKinematics) and the LCP bounds / findex of
/// `lcp` (A and b are left to the caller). Returns the first row of each contact.
std::vector<int> BuildContactRows(const MultibodyModel& model, const MultibodyData& data,
                                  const std::vector<Contact>& contacts, MatX* J, BoxedLcp* lcp);

}  // namespace arena::nimble
