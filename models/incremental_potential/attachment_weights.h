// A joint's attachment point written in its parent hull's vertices (seed 003 Sec. III-B: the
// attachment point must stay inside a hull of the parent, kept linear in the design): fixed
// convex weights w >= 0, sum w_i = 1, sum w_i v_i = a, chosen once at the initial shape, so that
// moving the vertices moves the joint with them, never farther than the farthest of them moves.
#pragma once

#include <utility>
#include <vector>

#include "models/incremental_potential/collider_meshes.h"

namespace arena {

/// Convex weights of `a` (in the mesh's body frame) over the mesh's vertices: with c the
/// vertices' mean, the ray from c through a leaves the closed mesh through a triangle (i, j, k),
/// and a = (1 - s) c + alpha v_i + beta v_j + gamma v_k with alpha, beta, gamma >= 0 and
/// s = alpha + beta + gamma <= 1. Returns (vertex row, weight) pairs; empty when a is outside
/// the mesh.
std::vector<std::pair<int, double>> AttachmentWeights(const ColliderMesh& mesh, const Vec3& a);

}  // namespace arena
