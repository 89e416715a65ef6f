#include "solvers/dense_lu.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace arena {

void DenseLu::Compute(const MatX& A) {
  lu_ = A;
  const int n = static_cast<int>(A.rows());
  perm_.resize(n);
  for (int i = 0; i < n; ++i) perm_[i] = i;
  for (int k = 0; k < n; ++k) {
    int p = k;
    double best = std::abs(lu_(k, k));
    for (int i = k + 1; i < n; ++i) {
      const double v = std::abs(lu_(i, k));
      if (v > best) best = v, p = i;
    }
    if (p != k) {
      lu_.row(k).swap(lu_.row(p));
      std::swap(perm_[k], perm_[p]);
    }
    const double pivot = lu_(k, k);
    if (pivot == 0.0) continue;
    const int m = n - k - 1;
    lu_.col(k).tail(m) /= pivot;
    // Rank-1 update of the trailing block (Eigen's explicitly vectorized kernel).
    lu_.bottomRightCorner(m, m).noalias() -= lu_.col(k).tail(m) * lu_.row(k).tail(m);
  }
}

void DenseLu::SolveInPlace(double* x) const {
  Eigen::Map<VecX> v(x, size());
  lu_.triangularView<Eigen::UnitLower>().solveInPlace(v);
  lu_.triangularView<Eigen::Upper>().solveInPlace(v);
}

void DenseLu::Solve(const VecX& b, VecX* x) const {
  x->resize(b.size());
  for (int i = 0; i < size(); ++i) (*x)[i] = b[perm_[i]];
  SolveInPlace(x->data());
}

MatX DenseLu::Solve(const MatX& B) const {
  MatX X(B.rows(), B.cols());
  for (int c = 0; c < B.cols(); ++c) {
    for (int i = 0; i < size(); ++i) X(i, c) = B(perm_[i], c);
    SolveInPlace(X.col(c).data());
  }
  return X;
}

double DenseLu::min_pivot() const { return size() == 0 ? 0.0 : lu_.diagonal().cwiseAbs().minCoeff(); }
double DenseLu::max_pivot() const { return size() == 0 ? 0.0 : lu_.diagonal().cwiseAbs().maxCoeff(); }

}  // namespace arena
