// Per-pair PSD projection for projected Newton (Li et al. 2020; Teran et al. 2005).
#include "models/ipc/psd_projection.h"

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

#define ARENA_IPC_INSTANTIATE_PSD(N)                                                        \
  template Eigen::Matrix<double, N, N> ProjectToPsd<N>(const Eigen::Matrix<double, N, N>&); \
  template double MinEigenvalue<N>(const Eigen::Matrix<double, N, N>&);
ARENA_IPC_INSTANTIATE_PSD(2)
ARENA_IPC_INSTANTIATE_PSD(3)
ARENA_IPC_INSTANTIATE_PSD(6)
ARENA_IPC_INSTANTIATE_PSD(9)
ARENA_IPC_INSTANTIATE_PSD(12)
ARENA_IPC_INSTANTIATE_PSD(Eigen::Dynamic)
#undef ARENA_IPC_INSTANTIATE_PSD

}  // namespace arena::ipc
