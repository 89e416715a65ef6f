// Derivatives of a function of one rigid pose T = [R p] with respect to a world twist xi
// applied on the left, T(xi) = exp(xi^) T, at xi = 0 (xi = [omega; v], Featherstone order).
// The incremental-potential models write each energy term of a body as a function of its pose
// (inertia, gravity, the contact potential at its vertices x = T v), with dE/dT = A (3 x 4,
// against the homogeneous body-frame points: for vertices A = sum_v dE/dx_v [v; 1]^T); the
// tangent chain (models/incremental_potential/tangent_chain.h) then carries body twists to joint coordinates.
//
//   gradient      G_a  = A : (e_a^ T)
//   second order  S_ab = A : ((e_a^ e_b^ + e_b^ e_a^) / 2 T)   (the exponential's own curvature)
//   quadratic     Q_ab = (e_a^ T) W (e_b^ T)^T traced, for E = 1/2 tr(D W D^T), D = T - C
// so that the Hessian of E(exp(xi^) T) at 0 is Q + S for a quadratic term, S alone for a term
// linear in T, and B_v^T H_vw B_w + S for vertex terms (B_v = dx_v/dxi = [-[x_v]x, I]).
#pragma once

#include "core/math/se3.h"
#include "core/math/types.h"

namespace arena {

using Mat34 = Eigen::Matrix<double, 3, 4>;

/// dE/dxi at 0 for dE/dT = A.
Vec6 PoseGradient(const SE3& T, const Mat34& A);
/// The second-order term S (symmetric 6 x 6) for dE/dT = A.
Mat6 PoseSecondOrder(const SE3& T, const Mat34& A);
/// Q for E = 1/2 tr(D W D^T) with D = T - C (W symmetric 4 x 4).
Mat6 PoseQuadratic(const SE3& T, const Eigen::Matrix4d& W);
/// dx/dxi for the world point x = T v: [-[x]x, I] (3 x 6).
Eigen::Matrix<double, 3, 6> PointTwistJacobian(const Vec3& x);
/// B_p^T H B_q for the world points x_p, x_q and a 3 x 3 block H = d2E/dx_p dx_q, without
/// forming the Jacobians: [[x_p]x; I] H [-[x_q]x, I].
Mat6 PointPairTwistHessian(const Vec3& x_p, const Mat3& H, const Vec3& x_q);
/// *out += PointPairTwistHessian(x_p, H, x_q), in cross products written out: the contact
/// Hessians carry tens of thousands of such blocks per evaluation, and Eigen's 3 x 3 products
/// were called out of line (16 % of a billiards step at 5d6fbad). With T = [x_p]x H:
/// T's columns are x_p x H_c, and a row r of M [x_q]x is r x x_q.
inline void AddPointPairTwistHessian(const Vec3& x_p, const Mat3& H, const Vec3& x_q, Mat6* out) {
  Mat6& o = *out;
  double t[3][3];  // T = [x_p]x H
  for (int c = 0; c < 3; ++c) {
    const double h0 = H(0, c), h1 = H(1, c), h2 = H(2, c);
    t[0][c] = x_p.y() * h2 - x_p.z() * h1;
    t[1][c] = x_p.z() * h0 - x_p.x() * h2;
    t[2][c] = x_p.x() * h1 - x_p.y() * h0;
  }
  const double qx = x_q.x(), qy = x_q.y(), qz = x_q.z();
  for (int r = 0; r < 3; ++r) {
    // Top: -T [x_q]x and T; bottom: -H [x_q]x and H.
    o(r, 0) -= t[r][1] * qz - t[r][2] * qy;
    o(r, 1) -= t[r][2] * qx - t[r][0] * qz;
    o(r, 2) -= t[r][0] * qy - t[r][1] * qx;
    o(r + 3, 0) -= H(r, 1) * qz - H(r, 2) * qy;
    o(r + 3, 1) -= H(r, 2) * qx - H(r, 0) * qz;
    o(r + 3, 2) -= H(r, 0) * qy - H(r, 1) * qx;
    for (int c = 0; c < 3; ++c) {
      o(r, 3 + c) += t[r][c];
      o(r + 3, 3 + c) += H(r, c);
    }
  }
}
/// The 3 x 4 top rows of T.
Mat34 TopRows(const SE3& T);

}  // namespace arena
