// A hull pair's Hessian carried to its two bodies' twists in O(K), K the active vertices, instead
// of through its 3K x 3K vertex Hessian in O(K^2): seed 003 Sec. IV-B accumulates the contact
// terms per link, which is what keeps its cost linear in the vertex count (Sec. IX, Fig. 8).
//
// With B_v = dx_v/dxi = [-[x_v]x, I] (a world twist xi = [omega; v] of the vertex's body applied on
// the left) and the Schur form of the vertex Hessian (models/sdrs/hull_pair_potential.h),
//   d2P/dx2 = kappa (blockdiag(f''_v n n^T) - L_xp L_pp^-1 L_px),
// the twist Hessian sum_vw B_v^T (d2P/dx_v dx_w) B_w is
//   kappa (sum_v f''_v J_v J_v^T - C^T L_pp^-1 C),   J_v = B_v^T n = [x_v x n; n],
//   C = sum_v L_xp[v]^T B_v   (4 x 12: each vertex into its side's six columns).
// This is the vertex terms' part of the pose Hessian only; the part from the exponential's own
// curvature comes from the gradient (models/incremental_potential/pose_derivatives.h, PoseSecondOrder).
#pragma once

#include "core/geometry/primitives.h"
#include "models/sdrs/hull_pair_potential.h"

namespace arena::sdrs {

using Mat12 = Eigen::Matrix<double, 12, 12>;

/// The twist Hessian of a pair solved with DerivativeOrder::kHessian (dense_hessian or not), in
/// (xi_a, xi_b) order; `a` and `b` the world vertices the pair was solved with. Zero when the
/// result has no active vertex (pruned, intersecting, or only static sides).
Mat12 HullPairTwistHessian(const HullPairResult& r, const PointsX3& a, const PointsX3& b, double kappa);

}  // namespace arena::sdrs
