#include "models/incremental_potential/pose_derivatives.h"

#include "core/math/so3.h"

namespace arena {

Mat34 TopRows(const SE3& T) {
  Mat34 X;
  X << T.rotation(), T.translation();
  return X;
}

// With N = X A^T (X = [R p]; for vertex terms N = sum_v x_v g_v^T):
//   G_omega_a = tr([e_a]x N) (for vertices: the torque sum_v x_v x g_v), G_v_a = A_p,a
//   (A_p the last column of A).
Vec6 PoseGradient(const SE3& T, const Mat34& A) {
  const Mat3 N = TopRows(T) * A.transpose();
  Vec6 G;
  G << N(1, 2) - N(2, 1), N(2, 0) - N(0, 2), N(0, 1) - N(1, 0), A.col(3);
  return G;
}

// [e_a]x [e_b]x = e_b e_a^T - (e_a . e_b) I, so the angular block is (N + N^T) / 2 - tr(N) I;
// e_a^ e_b^ for an angular a and a linear b is [0, e_a x e_b] (and 0 the other way round), so
// the mixed block is the skew matrix of A_p / 2; the linear block is 0.
Mat6 PoseSecondOrder(const SE3& T, const Mat34& A) {
  const Mat3 N = TopRows(T) * A.transpose();
  Mat6 S = Mat6::Zero();
  S.topLeftCorner<3, 3>() = 0.5 * (N + N.transpose()) - N.trace() * Mat3::Identity();
  // (e_a x e_b) . A_p = e_b . (A_p x e_a): the (a, b) entry of -Skew(A_p) ... transposed below.
  const Mat3 K = 0.5 * Skew(A.col(3)).transpose();
  S.topRightCorner<3, 3>() = K;
  S.bottomLeftCorner<3, 3>() = K.transpose();
  return S;
}

Mat6 PoseQuadratic(const SE3& T, const Eigen::Matrix4d& W) {
  // Y_a = top rows of e_a^ T: [[e_a]x R, e_a x p] for angular a, [0, e_a] for linear a.
  const Mat34 X = TopRows(T);
  Mat34 Y[6];
  for (int a = 0; a < 3; ++a) {
    Y[a] = Skew(Vec3::Unit(a)) * X;
    Y[a + 3].setZero();
    Y[a + 3].col(3) = Vec3::Unit(a);
  }
  Mat6 Q;
  for (int a = 0; a < 6; ++a) {
    const Mat34 YW = Y[a] * W;
    for (int b = a; b < 6; ++b) Q(a, b) = Q(b, a) = (YW.array() * Y[b].array()).sum();
  }
  return Q;
}

Eigen::Matrix<double, 3, 6> PointTwistJacobian(const Vec3& x) {
  Eigen::Matrix<double, 3, 6> B;
  B << -Skew(x), Mat3::Identity();
  return B;
}

Mat6 PointPairTwistHessian(const Vec3& x_p, const Mat3& H, const Vec3& x_q) {
  Mat6 out = Mat6::Zero();
  AddPointPairTwistHessian(x_p, H, x_q, &out);
  return out;
}

}  // namespace arena
