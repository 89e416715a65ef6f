#include "models/sdrs/hull_pair_twist.h"

#include <Eigen/Cholesky>

#include "core/math/so3.h"

namespace arena::sdrs {

Mat12 HullPairTwistHessian(const HullPairResult& r, const PointsX3& a, const PointsX3& b, double kappa) {
  Mat12 H = Mat12::Zero();
  const int k = static_cast<int>(r.active.size());
  if (k == 0 || static_cast<int>(r.curvature.size()) != k) return H;
  const int na = static_cast<int>(a.rows());
  const Vec3 n = r.plane.head<3>();
  Eigen::Matrix<double, 4, 12> C = Eigen::Matrix<double, 4, 12>::Zero();
  for (int i = 0; i < k; ++i) {
    const int m = r.active[i];
    const int side = m < na ? 0 : 6;
    const Vec3 x = m < na ? Vec3(a.row(m).transpose()) : Vec3(b.row(m - na).transpose());
    Vec6 J;
    J << x.cross(n), n;
    H.block<6, 6>(side, side).noalias() += r.curvature[i] * J * J.transpose();
    // L_xp[v]^T B_v = [-L_xp[v]^T [x]x, L_xp[v]^T].
    const Eigen::Matrix<double, 4, 3> Lt = r.l_xp.middleRows<3>(3 * i).transpose();
    C.block<4, 3>(0, side).noalias() -= Lt * Skew(x);
    C.block<4, 3>(0, side + 3) += Lt;
  }
  Eigen::Matrix<double, 4, 12> solved;
  const Eigen::LLT<Eigen::Matrix4d> llt(r.plane_hessian);
  solved = llt.info() == Eigen::Success ? llt.solve(C) : r.plane_hessian.ldlt().solve(C).eval();
  H.noalias() -= C.transpose() * solved;
  return kappa * (0.5 * (H + H.transpose()));
}

}  // namespace arena::sdrs
