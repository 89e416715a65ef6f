// Cholesky factorisation and solve of small fixed-size symmetric positive-definite systems,
// written out: the inner Newton solve of each triangle pair (the 4x4 plane system, Sec. 4)
// factors millions of such matrices per billiards step, and Eigen's LLT runs its generic loop
// at this size (several percent of the step). Same factorisation, A = L L^T. (The friction's
// 3x3 solve keeps Eigen's: with this one, the rounding of its plane velocity moved longrange's
// step derivatives on the conformance box beyond their 1e-6 check.)
#pragma once

#include <cmath>

#include "core/math/types.h"

namespace arena::longrange {

/// The lower factor L of A = L L^T; false (L unspecified) when A is not numerically positive
/// definite. Only A's lower triangle is read.
template <int N>
bool CholeskyFactor(const Eigen::Matrix<double, N, N>& A, Eigen::Matrix<double, N, N>* L) {
  L->setZero();
  for (int j = 0; j < N; ++j) {
    double d = A(j, j);
    for (int k = 0; k < j; ++k) d -= (*L)(j, k) * (*L)(j, k);
    if (!(d > 0.0)) return false;
    const double ljj = std::sqrt(d);
    (*L)(j, j) = ljj;
    for (int i = j + 1; i < N; ++i) {
      double s = A(i, j);
      for (int k = 0; k < j; ++k) s -= (*L)(i, k) * (*L)(j, k);
      (*L)(i, j) = s / ljj;
    }
  }
  return true;
}

/// x with L L^T x = b (forward, then back substitution).
template <int N>
Eigen::Matrix<double, N, 1> CholeskySolve(const Eigen::Matrix<double, N, N>& L, const Eigen::Matrix<double, N, 1>& b) {
  Eigen::Matrix<double, N, 1> x = b;
  for (int i = 0; i < N; ++i) {
    for (int k = 0; k < i; ++k) x(i) -= L(i, k) * x(k);
    x(i) /= L(i, i);
  }
  for (int i = N - 1; i >= 0; --i) {
    for (int k = i + 1; k < N; ++k) x(i) -= L(k, i) * x(k);
    x(i) /= L(i, i);
  }
  return x;
}

}  // namespace arena::longrange
