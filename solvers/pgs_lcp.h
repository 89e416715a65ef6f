// Projected Gauss-Seidel for the boxed LCP (solvers/boxed_lcp.h): sweep the rows, set each x_i
// to the value that zeroes w_i and project it onto its box, with a friction row's box scaled
// by the current impulse of its normal. DART's fallback when Dantzig fails (as in Nimble's
// released code).
// Converges for positive definite A (and in practice for the PSD contact matrices with a
// little CFM); the sweep limit ends it otherwise, reported as kMaxIterations.
#pragma once

#include "solvers/boxed_lcp.h"

namespace arena {

struct PgsOptions {
  int max_sweeps = 10000;     // Nimble's released code before June 2021
  double tolerance = 1e-8;    // stop when LcpViolation <= tolerance
  double relaxation = 1.0;    // over-relaxation factor in (0, 2)
  int check_every = 1;        // sweeps between violation checks
};

/// `warm_start` (optional, size n) is projected onto the boxes first. Throws InvalidArgument
/// when lcp.Check() fails or the options are out of range; never on a hard problem.
LcpResult SolvePgs(const BoxedLcp& lcp, const PgsOptions& options = {}, const VecX* warm_start = nullptr);

}  // namespace arena
