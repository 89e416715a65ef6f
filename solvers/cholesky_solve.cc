#include "solvers/cholesky_solve.h"

#include <Eigen/Cholesky>
#include <Eigen/OrderingMethods>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include "core/common/enum_names.h"

namespace arena {

namespace {

constexpr EnumNameTable<CholeskySolver, 2> kCholeskySolvers = {
    {{CholeskySolver::kDense, "dense_llt"}, {CholeskySolver::kSparse, "sparse_llt"}}};

}  // namespace

std::string_view ToString(CholeskySolver v) { return EnumName(v, kCholeskySolvers); }
bool FromString(std::string_view text, CholeskySolver* v) { return ParseEnum(text, kCholeskySolvers, v); }
std::string EnumValues(CholeskySolver) { return EnumList(kCholeskySolvers); }

bool CholeskySolve(const MatX& A, const VecX& b, CholeskySolver kind, VecX* x) {
  if (kind == CholeskySolver::kDense) {
    const Eigen::LLT<MatX> llt(A);
    if (llt.info() != Eigen::Success) return false;
    *x = llt.solve(b);
    return x->allFinite();
  }
  // Exact zeros only are dropped: the pattern is the Hessian's own block structure.
  const Eigen::SparseMatrix<double> sparse = A.sparseView(0.0, 0.0);
  Eigen::SimplicialLLT<Eigen::SparseMatrix<double>, Eigen::Lower, Eigen::AMDOrdering<int>> llt(sparse);
  if (llt.info() != Eigen::Success) return false;
  *x = llt.solve(b);
  return llt.info() == Eigen::Success && x->allFinite();
}

}  // namespace arena
