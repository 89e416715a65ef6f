#include "solvers/dense_lu.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace arena {

void DenseLu::Compute(const MatX& A) {
  lu_ = A;
  Factorize();
}

void DenseLu::ComputeInPlace(MatX* A) {
  if (lu_.rows() == A->rows() && lu_.cols() == A->cols()) {
    lu_.swap(*A);
  } else {
    lu_ = *A;  // first use at this size: allocate once, leave *A sized
  }
  Factorize();
}

void DenseLu::Factorize() {
  const int n = static_cast<int>(lu_.rows());
  perm_.resize(n);
  rows_.resize(n);
  for (int i = 0; i < n; ++i) perm_[i] = i;
  double* a = lu_.data();  // column-major: a[i + j n] = A(i, j)
  for (int k = 0; k < n; ++k) {
    double* col_k = a + k * n;
    int p = k;
    double best = std::abs(col_k[k]);
    for (int i = k + 1; i < n; ++i) {
      const double v = std::abs(col_k[i]);
      if (v > best) best = v, p = i;
    }
    if (p != k) {
      for (int j = 0; j < n; ++j) std::swap(a[k + j * n], a[p + j * n]);
      std::swap(perm_[k], perm_[p]);
    }
    const double pivot = col_k[k];
    if (pivot == 0.0) continue;
    // Multipliers l = column k below the pivot / pivot. The rank-1 update of the trailing
    // block then goes column by column, skipping the columns whose u_kj is exactly zero; within
    // a column it visits only the rows where l is nonzero when those are few (a contact step's
    // systems are mostly zeros: a pair's rows touch few columns), else it is one vectorized
    // axpy. A skipped entry would subtract an exact 0: the factors are the same either way.
    int nonzero = 0;
    for (int i = k + 1; i < n; ++i) {
      if (col_k[i] == 0.0) continue;
      col_k[i] /= pivot;
      rows_[nonzero++] = i;
    }
    const int m = n - k - 1;
    const bool sparse = 2 * nonzero < m;
    const Eigen::Map<const VecX> l(col_k + k + 1, m);
    for (int j = k + 1; j < n && nonzero > 0; ++j) {
      double* col_j = a + j * n;
      const double u = col_j[k];
      if (u == 0.0) continue;
      if (sparse) {
        for (int t = 0; t < nonzero; ++t) col_j[rows_[t]] -= u * col_k[rows_[t]];
      } else {
        Eigen::Map<VecX>(col_j + k + 1, m) -= u * l;
      }
    }
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
