// The active set of a boxed-LCP solution and the solution it determines (Nimble, seed 002,
// Sec. IV-A and App. A-B).
//
// Each row is clamping (w = 0, x free: a normal pushing or friction sticking), upper-bound (a
// friction row at its box, x = +-mu x_normal: sliding) or separating (x = 0). Given the classes,
// the clamping impulses solve the square system
//   Q f_C = b_C,   Q = A_CC + A_C,UB E,   (f_UB = E f_C: each bounded friction row copies
//                                          +-mu times its normal's impulse)
// which is what Nimble differentiates, and its minimum-norm least-squares solution (complete
// orthogonal decomposition) is the "stabilized" LCP solution: unique even when redundant contacts
// make Q singular (a box with two identical contact normals, App. B).
#pragma once

#include <vector>

#include "solvers/boxed_lcp.h"

namespace arena {

enum class LcpRowClass { kSeparating, kClamping, kUpperBound };

struct LcpActiveSet {
  std::vector<LcpRowClass> rows;
  std::vector<int> bound_sign;  // upper-bound rows: +1 at hi, -1 at lo; 0 otherwise

  int size() const { return static_cast<int>(rows.size()); }
  std::vector<int> Indices(LcpRowClass c) const;
  bool operator==(const LcpActiveSet& other) const {
    return rows == other.rows && bound_sign == other.bound_sign;
  }
};

/// Classes of the rows at a solution x, with the thresholds of Nimble's released code (the paper
/// gives none): clamping above 1e-6, 1e-5 from a bound, columns of A below 1e-9 (squared norm)
/// separating.
LcpActiveSet ClassifyLcpSolution(const BoxedLcp& lcp, const VecX& x);

/// Makes clamping every contact of `set` that is degenerate at x: a separating normal row (not a
/// friction row) with zero impulse and |w| <= tolerance (touching, neither approaching nor
/// leaving: it could carry load or not), and its friction rows with it (sticking; the validity
/// check of the solution on the new set judges whether they may). Returns whether any was.
/// With redundant contacts (a flat sole) the minimum-norm solution on the widened set spreads
/// the load over every such contact: the central solution of the degenerate problem rather
/// than one of its vertices (ContactLcpSolver's stabilization).
bool ClampDegenerateContacts(const BoxedLcp& lcp, const VecX& x, double tolerance, LcpActiveSet* set);

/// The x an active set determines: minimum-norm least squares of Q f_C = b_C, bounded friction
/// from its normal, zeros elsewhere. Not checked: pass it to IsValidLcpSolution.
VecX SolveOnActiveSet(const BoxedLcp& lcp, const LcpActiveSet& set);

}  // namespace arena
