// Dantzig's principal pivoting for the boxed LCP (solvers/boxed_lcp.h), in the incremental form
// of Baraff ("Fast contact force computation for nonpenetrating rigid bodies", SIGGRAPH 1994)
// with box bounds, as ODE's dSolveLCP and DART's DantzigBoxedLcpSolver use it (the forward
// solver of Nimble, seed 002 App. A).
//
// Rows are added one at a time, normal rows first and friction rows (findex >= 0) last. Adding
// row i drives x_i from 0 toward the value that zeroes w_i, keeping every earlier row
// complementary: rows of the free set C keep w = 0 (their x moves), rows at a bound keep their
// x. Each pivot stops at the first event: w_i = 0, x_i at a bound, a free row reaching a bound,
// or a bounded row's w reaching 0 (it becomes free). A friction row's box is fixed when the row
// is added, from the current impulse of its normal (ODE's rule); later pivots can change that
// normal, so the final x can fail the check against the final boxes (the "success that is not"
// Nimble's released code guards against: a sliding box whose front normals grow leaves its
// friction inside the grown box with w != 0). ODE stops there (`max_box_updates` = 0); by
// default we then re-solve with every friction box fixed at mu |x_normal| of the last result,
// until the result passes the check: a fixed point of boxed LCPs. kInvalid if it never does.
// The iteration can wander before it settles: on a fallen Atlas (39 rows) it is still off by
// 0.13 after 10, 20 and 30 updates and solved (1e-9) after 50, hence the default of 50.
//
// Redundant contacts (a flat sole on the ground: more normal rows than the foot has directions)
// make A singular and the pivoting degenerate: steps of length zero that can cycle until the
// pivot limit. Two kinds: a driven row complementary up to round-off (w = 2e-17) that the
// exact test keeps driving (the bench's cold Atlas state, 72 rows, to the 1441-pivot limit; a
// round-off test there cost more elsewhere than it saved, docs/models/nimble.md), and a normal
// row that depends on the free set, freed and bound again at t = 0 forever (a fallen Atlas):
// more than `max_pivots_per_row` such pivots in a row end the solve. ContactLcpSolver's
// stabilization then often repairs the answer. With `cycling_cfm` > 0 a solve
// that fails is repeated once on A + eps I, eps = `cycling_cfm` times A's largest diagonal entry
// (constraint force mixing, which DART's contact constraints always add; here only when needed,
// so a problem solved without it keeps its answer), and kept when it passes the check on the
// original A. Off by default: in nimble's Atlas rollouts it costs warm-start hits
// (docs/models/nimble.md).
#pragma once

#include "solvers/boxed_lcp.h"

namespace arena {

struct DantzigOptions {
  int max_pivots_per_row = 20;  // the pivot limit is this times the row count
  double zero = 1e-12;          // |direction| below this does not block a pivot
  double cfm = 0.0;             // added to A's diagonal (constraint force mixing; ODE's CFM)
  double tolerance = 1e-5;      // IsValidLcpSolution tolerance of the result (Nimble's 1e-5)
  int max_box_updates = 50;     // re-solves with friction boxes from the last normals (0: ODE)
  double cycling_cfm = 0.0;     // relative CFM of the one retry after a failed solve (0: none)
};

/// Never throws on a hard problem: status kFailed (an unbounded direction, a non-finite value),
/// kMaxIterations or kInvalid. Throws InvalidArgument when lcp.Check() fails.
LcpResult SolveDantzig(const BoxedLcp& lcp, const DantzigOptions& options = {});

}  // namespace arena
