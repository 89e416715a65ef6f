#include "solvers/lemke_lcp.h"

#include <Eigen/LU>

#include <cmath>
#include <limits>
#include <vector>

#include "core/common/deadline.h"
#include "core/common/error.h"

namespace arena {

namespace {

// Variables of w - A x - e x0 = -b: w_j = j, x_j = n + j, the artificial x0 = 2n.
VecX ColumnOf(const MatX& A, int var) {
  const int n = static_cast<int>(A.rows());
  if (var < n) return VecX::Unit(n, var);
  if (var < 2 * n) return -A.col(var - n);
  return -VecX::Ones(n);
}

int Complement(int var, int n) { return var < n ? var + n : var - n; }

}  // namespace

LcpResult SolveLemke(const BoxedLcp& lcp, const LemkeOptions& options) {
  if (const std::string error = lcp.Check(); !error.empty()) throw InvalidArgument("lemke lcp: " + error);
  const int n = lcp.size();
  for (int i = 0; i < n; ++i) {
    if (lcp.lo[i] != 0.0 || lcp.hi[i] != std::numeric_limits<double>::infinity() ||
        (!lcp.findex.empty() && lcp.findex[i] >= 0)) {
      throw InvalidArgument("lemke lcp: row " + std::to_string(i) + " is boxed; Lemke solves standard LCPs only");
    }
  }
  LcpResult result;
  result.x = VecX::Zero(n);
  const VecX q = -lcp.b;
  if (n == 0 || q.minCoeff() >= 0.0) {  // x = 0 already complementary
    result.status = LcpStatus::kSolved;
    result.violation = LcpViolation(lcp, result.x);
    return result;
  }
  const int artificial = 2 * n;
  std::vector<int> basis(n);
  for (int i = 0; i < n; ++i) basis[i] = i;
  int leave_row;
  q.minCoeff(&leave_row);
  int leaving = basis[leave_row];
  basis[leave_row] = artificial;
  int entering = Complement(leaving, n);
  MatX B(n, n);
  VecX values;
  auto factor = [&]() {
    for (int r = 0; r < n; ++r) B.col(r) = ColumnOf(lcp.A, basis[r]);
    return Eigen::PartialPivLU<MatX>(B);
  };
  bool done = false;
  bool out_of_time = false;
  for (int pivot = 1; pivot <= options.max_pivots; ++pivot) {
    if (DeadlinePassed()) {  // the case's wall-clock budget (core/common/deadline.h)
      out_of_time = true;
      break;
    }
    result.iterations = pivot;
    const Eigen::PartialPivLU<MatX> lu = factor();
    values = lu.solve(q);
    const VecX d = lu.solve(ColumnOf(lcp.A, entering));
    // Minimum ratio; on a tie the artificial variable leaves (which ends the path).
    int r = -1;
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i < n; ++i) {
      if (d[i] <= options.zero) continue;
      const double ratio = values[i] / d[i];
      if (ratio < best - 1e-14 || (std::abs(ratio - best) <= 1e-14 && basis[i] == artificial)) {
        best = ratio;
        r = i;
      }
    }
    if (r < 0) break;  // ray termination
    leaving = basis[r];
    basis[r] = entering;
    if (leaving == artificial) {
      done = true;
      break;
    }
    entering = Complement(leaving, n);
  }
  if (!done) {
    result.status = out_of_time || result.iterations >= options.max_pivots ? LcpStatus::kMaxIterations
                                                                           : LcpStatus::kFailed;
    return result;
  }
  values = factor().solve(q);
  for (int r = 0; r < n; ++r) {
    if (basis[r] >= n && basis[r] < 2 * n) result.x[basis[r] - n] = std::max(values[r], 0.0);
  }
  result.violation = LcpViolation(lcp, result.x);
  result.status = result.violation <= options.tolerance ? LcpStatus::kSolved : LcpStatus::kInvalid;
  return result;
}

}  // namespace arena
