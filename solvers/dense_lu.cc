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
    const double inv = 1.0 / pivot;
    for (int i = k + 1; i < n; ++i) lu_(i, k) *= inv;
    // Rank-1 update of the trailing block, column by column (column-major storage).
    for (int j = k + 1; j < n; ++j) {
      const double u = lu_(k, j);
      if (u == 0.0) continue;
      double* col = lu_.data() + static_cast<size_t>(j) * n;
      const double* l = lu_.data() + static_cast<size_t>(k) * n;
      for (int i = k + 1; i < n; ++i) col[i] -= l[i] * u;
    }
  }
}

void DenseLu::SolveInPlace(double* x) const {
  const int n = size();
  const double* a = lu_.data();
  for (int j = 0; j < n; ++j) {  // L y = P b (unit lower), column-oriented
    const double xj = x[j];
    if (xj == 0.0) continue;
    for (int i = j + 1; i < n; ++i) x[i] -= a[static_cast<size_t>(j) * n + i] * xj;
  }
  for (int j = n - 1; j >= 0; --j) {  // U x = y
    x[j] /= a[static_cast<size_t>(j) * n + j];
    const double xj = x[j];
    for (int i = 0; i < j; ++i) x[i] -= a[static_cast<size_t>(j) * n + i] * xj;
  }
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
