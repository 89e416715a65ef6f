// The factorization of the interior-point solver's Newton system (solvers/interior_point.h),
// selectable: the hand-written dense LU (solvers/dense_lu.h, the default: tens of unknowns, a
// contact step's size) or Eigen's supernodal SparseLU (column approximate minimum degree
// ordering), for the larger, sparser systems of scenes with many bodies and contacts.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>

#include "core/math/types.h"
#include "solvers/dense_lu.h"

namespace arena {

enum class LinearSolver { kDenseLu, kSparseLu };
std::string_view ToString(LinearSolver v);
bool FromString(std::string_view text, LinearSolver* v);
std::string EnumValues(LinearSolver);

class SquareFactorization {
 public:
  explicit SquareFactorization(LinearSolver kind = LinearSolver::kDenseLu) : kind_(kind) {}
  // A copy keeps the kind and the dense factors; Eigen's SparseLU cannot be copied, so a copy's
  // sparse factors are empty until its next Compute (they are scratch, like the dense ones).
  SquareFactorization(const SquareFactorization& other) : kind_(other.kind_), dense_(other.dense_) {}
  SquareFactorization& operator=(const SquareFactorization& other) {
    kind_ = other.kind_;
    dense_ = other.dense_;
    sparse_.reset();
    return *this;
  }

  LinearSolver kind() const { return kind_; }
  void set_kind(LinearSolver kind) { kind_ = kind; }

  /// Factorizes *A (square; its contents are unspecified afterwards). False when A is singular:
  /// dense, a pivot below `singular_ratio` times the largest or a non-finite one; sparse, a
  /// zero pivot (SparseLU reports no pivot sizes), so a nearly singular system shows only in a
  /// non-finite or poor direction.
  bool Compute(MatX* A, double singular_ratio);
  /// Solves A x = b (x may not alias b).
  void Solve(const VecX& b, VecX* x) const;
  MatX Solve(const MatX& B) const;

 private:
  LinearSolver kind_;
  DenseLu dense_;
  using SparseLu = Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>>;
  Eigen::SparseMatrix<double> sparse_matrix_;
  std::unique_ptr<SparseLu> sparse_;  // made on the first sparse Compute
};

}  // namespace arena
