// How fast the collider meshes' vertices can move along the incremental-potential solver's
// trial path x(q (+) alpha d), alpha in [0, 1], for a step bound that needs no continuous
// collision detection along straight lines (vertices of rotating bodies move on arcs, and those
// of deeper links on compositions of arcs, which a chord cannot bound: a two-link arm moving
// from elbow-up to elbow-down leaves its tip's chord zero while the tip moves).
//
// Every joint moves its child by a one-parameter subgroup in its child frame (core/multibody/
// configuration.h Integrate): X_PB(alpha) = X_PB(0) Exp(alpha xi), xi = S d the joint's twist
// (omega, v) for the step d. A point y of body k, at y_l in the frame of body b_l on k's path
// (root b_1 ... b_m = k), then has the world velocity
//   dx/dalpha = sum_l R_l(alpha) (omega_l x y_l(alpha) + v_l),
// so |dx/dalpha| <= sum_l (|omega_l| |y_l| + |v_l|), with |y_l| <= |y| + sum_{n > l} s_n and
// s_n = |t(X_PB_n(0))| + |v_n| (the translation of Exp(alpha xi) is V(alpha omega) alpha v,
// |V| <= 1, so no joint frame moves farther from its parent's origin than that). The bound
//   |dx/dalpha| <= A_k |y| + B_k,   A_k = A_p + |omega_k|,   B_k = B_p + A_p s_k + |v_k|
// (p the parent, A = B = 0 for the world) holds for every alpha in [0, 1], so a vertex moves at
// most |b - a| (A_k |y| + B_k) between any two points a, b of the path.
#pragma once

#include <vector>

#include "core/multibody/model.h"
#include "models/incremental_potential/collider_meshes.h"

namespace arena {

/// Per mesh, per vertex: the bound A_k |y| + B_k above (m per unit alpha) for the path
/// q (+) alpha d; 0 for static meshes and bodies the step does not move.
void PathSpeedBounds(const MultibodyModel& model, const std::vector<ColliderMesh>& meshes, const VecX& q,
                     const VecX& d, std::vector<VecX>* out);

/// The same bound for the vertices of `mesh` in the frame of body `frame` (the mesh's body or one
/// of its ancestors; kWorldBody gives PathSpeedBounds's): the recursion starts at `frame` with
/// A = B = 0, so only the joints between it and the mesh's body count. A distance between a
/// vertex and anything fixed to `frame` changes at most this fast: two links of one swinging
/// chain, which hardly move relative to each other, get a bound of their relative motion instead
/// of the whole chain's. Throws InvalidArgument when `frame` is not on the mesh's path.
void RelativePathSpeedBound(const MultibodyModel& model, const ColliderMesh& mesh, int frame, const VecX& q,
                            const VecX& d, VecX* out);

}  // namespace arena
