// Per-pair PSD projection for projected Newton (Li et al. 2020; Teran et al. 2005).
#include "models/ipc/psd_projection.h"

#include <cmath>
#include <limits>

#include <Eigen/Eigenvalues>

namespace arena::ipc {

template <int N>
Eigen::Matrix<double, N, N> ProjectToPsd(const Eigen::Matrix<double, N, N>& h) {
  using Mat = Eigen::Matrix<double, N, N>;
  const Mat sym = 0.5 * (h + h.transpose());
  const Eigen::SelfAdjointEigenSolver<Mat> eig(sym);
  if (eig.info() != Eigen::Success) {  // non-finite input: make the failure visible
    return Mat::Constant(h.rows(), h.cols(), std::numeric_limits<double>::quiet_NaN());
  }
  // Already PSD: return the symmetric input itself rather than its reconstruction, so that a
  // PSD Hessian is not perturbed by the decomposition's round-off.
  if (eig.eigenvalues().minCoeff() >= 0.0) return sym;
  const auto clamped = eig.eigenvalues().cwiseMax(0.0);
  return eig.eigenvectors() * clamped.asDiagonal() * eig.eigenvectors().transpose();
}

template <int N>
double MinEigenvalue(const Eigen::Matrix<double, N, N>& h) {
  using Mat = Eigen::Matrix<double, N, N>;
  const Mat sym = 0.5 * (h + h.transpose());
  const Eigen::SelfAdjointEigenSolver<Mat> eig(sym, Eigen::EigenvaluesOnly);
  return eig.eigenvalues().minCoeff();
}

Eigen::Matrix<double, 12, 12> ProjectTranslationInvariantToPsd(
    const Eigen::Matrix<double, 12, 12>& h) {
  using Mat12 = Eigen::Matrix<double, 12, 12>;
  using Mat9 = Eigen::Matrix<double, 9, 9>;
  // Orthonormal contrasts of four points: (1,-1,0,0)/sqrt2, (1,1,-2,0)/sqrt6, (1,1,1,-3)/sqrt12,
  // each times the 3x3 identity; all are orthogonal to the translation (1,1,1,1) x I3.
  static const Eigen::Matrix<double, 12, 9> q = [] {
    const double c[3][4] = {{1, -1, 0, 0}, {1, 1, -2, 0}, {1, 1, 1, -3}};
    const double norm[3] = {std::sqrt(2.0), std::sqrt(6.0), std::sqrt(12.0)};
    Eigen::Matrix<double, 12, 9> m = Eigen::Matrix<double, 12, 9>::Zero();
    for (int j = 0; j < 3; ++j) {
      for (int k = 0; k < 4; ++k) {
        m.block<3, 3>(3 * k, 3 * j) = (c[j][k] / norm[j]) * Eigen::Matrix3d::Identity();
      }
    }
    return m;
  }();
  const Mat12 sym = 0.5 * (h + h.transpose());
  const Mat9 reduced = q.transpose() * sym * q;
  const Eigen::SelfAdjointEigenSolver<Mat9> eig(reduced);
  if (eig.info() != Eigen::Success) {
    return Mat12::Constant(std::numeric_limits<double>::quiet_NaN());
  }
  if (eig.eigenvalues().minCoeff() >= 0.0) return sym;
  const Mat9 projected = eig.eigenvectors() * eig.eigenvalues().cwiseMax(0.0).asDiagonal() *
                         eig.eigenvectors().transpose();
  return q * projected * q.transpose();
}

// Only the sizes in use: every fixed size costs a full unrolled eigen-solver at compile time
// (6, 9 and 12 took about 30 s of the build); larger blocks go through Eigen::Dynamic.
#define ARENA_IPC_INSTANTIATE_PSD(N)                                                        \
  template Eigen::Matrix<double, N, N> ProjectToPsd<N>(const Eigen::Matrix<double, N, N>&); \
  template double MinEigenvalue<N>(const Eigen::Matrix<double, N, N>&);
ARENA_IPC_INSTANTIATE_PSD(2)
ARENA_IPC_INSTANTIATE_PSD(3)
ARENA_IPC_INSTANTIATE_PSD(Eigen::Dynamic)
#undef ARENA_IPC_INSTANTIATE_PSD

}  // namespace arena::ipc
