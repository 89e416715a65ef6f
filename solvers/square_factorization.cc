#include "solvers/square_factorization.h"

#include <cmath>

#include "core/common/enum_names.h"

namespace arena {

namespace {
constexpr EnumNameTable<LinearSolver, 2> kLinearSolvers = {
    {{LinearSolver::kDenseLu, "dense_lu"}, {LinearSolver::kSparseLu, "sparse_lu"}}};
}  // namespace

std::string_view ToString(LinearSolver v) { return EnumName(v, kLinearSolvers); }
bool FromString(std::string_view text, LinearSolver* v) { return ParseEnum(text, kLinearSolvers, v); }
std::string EnumValues(LinearSolver) { return EnumList(kLinearSolvers); }

bool SquareFactorization::Compute(MatX* A, double singular_ratio) {
  if (kind_ == LinearSolver::kDenseLu) {
    dense_.ComputeInPlace(A);
    const double largest = dense_.max_pivot(), smallest = dense_.min_pivot();
    return std::isfinite(largest) && smallest > singular_ratio * largest;
  }
  if (!A->allFinite()) return false;
  sparse_matrix_ = A->sparseView();
  sparse_matrix_.makeCompressed();
  // The pattern changes with the active contacts, so it is analysed every time (cheap next to
  // the numeric factorization at these sizes).
  if (!sparse_) sparse_ = std::make_unique<SparseLu>();
  sparse_->analyzePattern(sparse_matrix_);
  sparse_->factorize(sparse_matrix_);
  return sparse_->info() == Eigen::Success;
}

void SquareFactorization::Solve(const VecX& b, VecX* x) const {
  if (kind_ == LinearSolver::kDenseLu) {
    dense_.Solve(b, x);
  } else {
    *x = sparse_->solve(b);
  }
}

MatX SquareFactorization::Solve(const MatX& B) const {
  if (kind_ == LinearSolver::kDenseLu) return dense_.Solve(B);
  return MatX(sparse_->solve(B));
}

}  // namespace arena
