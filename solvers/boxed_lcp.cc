#include "solvers/boxed_lcp.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace arena {

std::string BoxedLcp::Check() const {
  const int n = size();
  if (A.rows() != n || A.cols() != n) {
    return "A is " + std::to_string(A.rows()) + " x " + std::to_string(A.cols()) + ", b has " + std::to_string(n) +
           " rows";
  }
  if (lo.size() != n || hi.size() != n) return "lo and hi must have " + std::to_string(n) + " rows";
  if (!findex.empty() && static_cast<int>(findex.size()) != n) {
    return "findex must be empty or have " + std::to_string(n) + " entries";
  }
  if (!A.allFinite() || !b.allFinite()) return "A or b has a non-finite entry";
  for (int i = 0; i < n; ++i) {
    if (std::isnan(lo[i]) || std::isnan(hi[i]) || lo[i] > 0.0 || hi[i] < 0.0) {
      return "row " + std::to_string(i) + ": bounds must satisfy lo <= 0 <= hi";
    }
    if (!findex.empty() && findex[i] >= 0) {
      const int f = findex[i];
      if (f >= n || f == i || findex[f] >= 0) {
        return "row " + std::to_string(i) + ": findex " + std::to_string(f) + " is not a normal row";
      }
      if (!std::isfinite(lo[i]) || !std::isfinite(hi[i])) {
        return "row " + std::to_string(i) + ": a friction row needs finite coefficients lo, hi";
      }
    }
  }
  return "";
}

BoxedLcp BoxedLcp::Standard(const MatX& A, const VecX& b) {
  BoxedLcp lcp;
  lcp.A = A;
  lcp.b = b;
  lcp.lo = VecX::Zero(b.size());
  lcp.hi = VecX::Constant(b.size(), std::numeric_limits<double>::infinity());
  return lcp;
}

std::string_view ToString(LcpStatus status) {
  switch (status) {
    case LcpStatus::kSolved: return "solved";
    case LcpStatus::kInvalid: return "invalid";
    case LcpStatus::kMaxIterations: return "max_iterations";
    case LcpStatus::kFailed: return "failed";
  }
  return "unknown";
}

void EffectiveBounds(const BoxedLcp& lcp, const VecX& x, VecX* lo, VecX* hi) {
  *lo = lcp.lo;
  *hi = lcp.hi;
  if (lcp.findex.empty()) return;
  for (int i = 0; i < lcp.size(); ++i) {
    const int f = lcp.findex[i];
    if (f < 0) continue;
    const double normal = std::abs(x[f]);
    (*lo)[i] = lcp.lo[i] * normal;
    (*hi)[i] = lcp.hi[i] * normal;
  }
}

double LcpViolation(const BoxedLcp& lcp, const VecX& x, double bound_tolerance) {
  VecX lo, hi;
  EffectiveBounds(lcp, x, &lo, &hi);
  const VecX w = lcp.A * x - lcp.b;
  double worst = 0.0;
  for (int i = 0; i < lcp.size(); ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(w[i])) return std::numeric_limits<double>::infinity();
    const double tol_lo = bound_tolerance * (1.0 + std::abs(lo[i]));
    const double tol_hi = bound_tolerance * (1.0 + std::abs(hi[i]));
    if (x[i] < lo[i] - tol_lo || x[i] > hi[i] + tol_hi) {
      worst = std::max(worst, std::max(lo[i] - x[i], x[i] - hi[i]));
      continue;
    }
    const bool at_lo = x[i] <= lo[i] + tol_lo;
    const bool at_hi = x[i] >= hi[i] - tol_hi;
    if (at_lo && at_hi) continue;  // a collapsed box (an unloaded friction row): any w
    if (at_lo) {
      worst = std::max(worst, -w[i]);
    } else if (at_hi) {
      worst = std::max(worst, w[i]);
    } else {
      worst = std::max(worst, std::abs(w[i]));
    }
  }
  return worst;
}

bool IsValidLcpSolution(const BoxedLcp& lcp, const VecX& x, double tolerance) {
  return LcpViolation(lcp, x) <= tolerance;
}

}  // namespace arena
