#include "solvers/pgs_lcp.h"

#include <algorithm>
#include <cmath>

#include "core/common/deadline.h"
#include "core/common/error.h"

namespace arena {

namespace {

// Row i's box at the current x (a friction row follows its normal).
void RowBounds(const BoxedLcp& lcp, const VecX& x, int i, double* lo, double* hi) {
  *lo = lcp.lo[i];
  *hi = lcp.hi[i];
  if (!lcp.findex.empty() && lcp.findex[i] >= 0) {
    const double normal = std::abs(x[lcp.findex[i]]);
    *lo *= normal;
    *hi *= normal;
  }
}

}  // namespace

LcpResult SolvePgs(const BoxedLcp& lcp, const PgsOptions& options, const VecX* warm_start) {
  if (const std::string error = lcp.Check(); !error.empty()) throw InvalidArgument("pgs lcp: " + error);
  if (!(options.relaxation > 0.0 && options.relaxation < 2.0) || options.max_sweeps < 1 || options.check_every < 1) {
    throw InvalidArgument("pgs lcp: relaxation must be in (0, 2), max_sweeps and check_every >= 1");
  }
  const int n = lcp.size();
  LcpResult result;
  result.x = VecX::Zero(n);
  if (warm_start != nullptr && warm_start->size() == n && warm_start->allFinite()) result.x = *warm_start;
  VecX& x = result.x;
  for (int sweep = 1; sweep <= options.max_sweeps; ++sweep) {
    if (DeadlinePassed()) break;  // the case's wall-clock budget (core/common/deadline.h)
    for (int i = 0; i < n; ++i) {
      double lo, hi;
      RowBounds(lcp, x, i, &lo, &hi);
      const double a = lcp.A(i, i);
      double xi = x[i];
      if (a > 0.0) xi -= options.relaxation * (lcp.A.row(i).dot(x) - lcp.b[i]) / a;
      x[i] = std::clamp(xi, lo, hi);
    }
    result.iterations = sweep;
    if (!x.allFinite()) {
      result.status = LcpStatus::kFailed;
      result.violation = LcpViolation(lcp, x);
      return result;
    }
    if (sweep % options.check_every == 0 || sweep == options.max_sweeps) {
      result.violation = LcpViolation(lcp, x);
      if (result.violation <= options.tolerance) {
        result.status = LcpStatus::kSolved;
        return result;
      }
    }
  }
  result.status = LcpStatus::kMaxIterations;
  return result;
}

}  // namespace arena
