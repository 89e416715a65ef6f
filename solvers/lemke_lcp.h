// Lemke's complementary pivoting for the standard LCP (w = A x - b >= 0, x >= 0, x.w = 0):
// an independent reference for the Dantzig and PGS solvers in tests (Cottle, Pang & Stone,
// The Linear Complementarity Problem, Sec. 4.4), covering vector e = 1.
#pragma once

#include "solvers/boxed_lcp.h"

namespace arena {

struct LemkeOptions {
  int max_pivots = 1000;
  double zero = 1e-12;       // pivot entries below this are not eligible
  double tolerance = 1e-8;   // LcpViolation of the result for kSolved
};

/// Throws InvalidArgument unless lcp is a standard LCP (lo = 0, hi = +inf, no findex). A ray
/// termination (no solution found, e.g. A not copositive-plus) is kFailed.
LcpResult SolveLemke(const BoxedLcp& lcp, const LemkeOptions& options = {});

}  // namespace arena
