// Projection of a small symmetric matrix onto the cone of positive semi-definite matrices: the
// per-pair Hessian projection of IPC's projected Newton (Li et al., "Incremental Potential
// Contact", SIGGRAPH 2020; per-element projection as in Teran et al., "Robust quasistatic finite
// elements and flesh simulation", SCA 2005): H = Q diag(l) Q^T becomes Q diag(max(l, 0)) Q^T,
// the nearest PSD matrix in the Frobenius norm.
#pragma once

#include <Eigen/Core>

namespace arena::ipc {

/// The nearest positive semi-definite matrix to the symmetric part of `h` (Frobenius norm):
/// eigen-decomposition, negative eigenvalues clamped to 0. A PSD input comes back unchanged up
/// to the eigen-solver's round-off (a few ulps of its largest eigenvalue). Instantiated for
/// N = 2, 3, 6, 9, 12 and Eigen::Dynamic.
template <int N>
Eigen::Matrix<double, N, N> ProjectToPsd(const Eigen::Matrix<double, N, N>& h);

/// Smallest eigenvalue of the symmetric part of `h` (tests and diagnostics).
template <int N>
double MinEigenvalue(const Eigen::Matrix<double, N, N>& h);

}  // namespace arena::ipc
