// Projection of a small symmetric matrix onto the cone of positive semi-definite matrices: the
// per-pair Hessian projection of IPC's projected Newton (Li et al., "Incremental Potential
// Contact", SIGGRAPH 2020; per-element projection as in Teran et al., "Robust quasistatic finite
// elements and flesh simulation", SCA 2005): H = Q diag(l) Q^T becomes Q diag(max(l, 0)) Q^T,
// the nearest PSD matrix in the Frobenius norm.
#pragma once

#include <Eigen/Core>

namespace arena::ipc {

/// The nearest positive semi-definite matrix to the symmetric part of `h` (Frobenius norm):
/// eigen-decomposition, negative eigenvalues clamped to 0. When the eigen-solver finds no
/// negative eigenvalue the symmetric part is returned as it is (no reconstruction round-off).
/// Instantiated for N = 2, 3 and Eigen::Dynamic.
template <int N>
Eigen::Matrix<double, N, N> ProjectToPsd(const Eigen::Matrix<double, N, N>& h);

/// The same projection for the 12x12 Hessian of a function of four points that does not change
/// when all four are translated together (every IPC pair potential): such a Hessian vanishes on
/// the three translation directions, so it is projected in their 9-dimensional orthogonal
/// complement (Helmert contrasts of the four points): Q ProjectToPsd(Q^T h Q) Q^T, equal to
/// ProjectToPsd<12>(h) up to round-off for a translation-invariant h, at the cost of a 9x9
/// eigen-decomposition instead of a 12x12 one (about 2x faster).
Eigen::Matrix<double, 12, 12> ProjectTranslationInvariantToPsd(
    const Eigen::Matrix<double, 12, 12>& h);

/// Smallest eigenvalue of the symmetric part of `h` (tests and diagnostics).
template <int N>
double MinEigenvalue(const Eigen::Matrix<double, N, N>& h);

}  // namespace arena::ipc
