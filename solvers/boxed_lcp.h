// The boxed linear complementarity problem of contact with box friction, as ODE and DART (and
// so Nimble, seed 002 App. A) pose it:
//
//   find x with lo <= x <= hi and w = A x - b such that for every row i
//     x_i = lo_i  ->  w_i >= 0,     x_i = hi_i  ->  w_i <= 0,     lo_i < x_i < hi_i  ->  w_i = 0.
//
// A friction row i has findex_i >= 0: its bounds are scaled by the impulse of the normal row it
// references, lo_i * |x_findex|, hi_i * |x_findex| (lo = -mu, hi = mu). A standard LCP is lo = 0,
// hi = +inf and no findex.
//
// Solvers (dantzig_lcp.h, pgs_lcp.h, lemke_lcp.h) return an LcpResult; none throws on a
// problem it cannot solve: the status says so, and the caller falls back (as Nimble's released
// code does: Dantzig, then PGS, then drop friction).
#pragma once

#include <limits>
#include <string_view>
#include <vector>

#include "core/math/types.h"

namespace arena {

struct BoxedLcp {
  MatX A;                  // n x n, positive semidefinite for contact (J M^-1 J^T)
  VecX b;
  VecX lo, hi;             // lo <= 0 <= hi; +-inf allowed
  std::vector<int> findex; // empty, or one per row: -1, or the normal row scaling the bounds

  int size() const { return static_cast<int>(b.size()); }
  /// Empty when the problem is well formed; otherwise what is wrong (sizes, NaN, lo > hi, a
  /// findex out of range or pointing at a friction row).
  std::string Check() const;
  /// A standard LCP: w = A x - b >= 0, x >= 0, x.w = 0.
  static BoxedLcp Standard(const MatX& A, const VecX& b);
};

enum class LcpStatus {
  kSolved,         // the solution passes IsValidLcpSolution at the solver's tolerance
  kInvalid,        // the solver finished but its x fails the check (ODE's "success" that is not)
  kMaxIterations,  // iteration or pivot limit reached, or the thread's deadline passed
  kFailed,         // a ray (unbounded direction) or a non-finite value
};
std::string_view ToString(LcpStatus status);

struct LcpResult {
  VecX x;
  LcpStatus status = LcpStatus::kFailed;
  int iterations = 0;      // pivots (Dantzig, Lemke) or sweeps (PGS)
  double violation = std::numeric_limits<double>::quiet_NaN();  // LcpViolation(problem, x)
  bool ok() const { return status == LcpStatus::kSolved; }
};

/// The bounds of row i at x (friction rows scaled by their normal's |x|).
void EffectiveBounds(const BoxedLcp& lcp, const VecX& x, VecX* lo, VecX* hi);

/// The largest violation of the conditions above at x: bound excess, and per row the part of
/// w that its position forbids (w_i < 0 at the lower bound, w_i > 0 at the upper, |w_i| inside).
/// A row whose bounds are both ~0 with x ~0 is satisfied (a friction row of an unloaded normal).
double LcpViolation(const BoxedLcp& lcp, const VecX& x, double bound_tolerance = 1e-9);

/// Nimble's check (`LCPUtils::isLCPSolutionValid` in its released code): LcpViolation <= tolerance.
bool IsValidLcpSolution(const BoxedLcp& lcp, const VecX& x, double tolerance = 1e-5);

}  // namespace arena
