// Nimble's forward LCP pipeline for one contact group (seed 002 App. A-B; the PGS and
// frictionless fallbacks as in Nimble's released code):
//   1. warm start: the previous step's active set, if the problem has the same rows, solved on
//      its own (SolveOnActiveSet) and kept when valid (a "hit": the paper reports > 95 %);
//   2. otherwise the primary method (Dantzig by default; PGS; Lemke for standard LCPs only, so
//      with friction rows it fails and the chain goes on), then each fallback in turn until one
//      is valid: by default PGS on A + cfm I (valid for that softened problem), then the
//      frictionless problem (friction rows forced to 0) by Dantzig;
//   3. after a fresh solve, stabilization: the minimum-norm solution on the found active set
//      replaces the solver's when it is valid (a unique answer for redundant contacts), and
//      then counts as solved even when the solver's own iterate was not (PGS stopped at its
//      sweep cap with the right active set; Dantzig's friction boxes that did not settle, which
//      is tried before any fallback). With `stabilize_degenerate`, contacts touching at rest
//      with no impulse (the unloaded ones of a degenerate vertex solution) then join the set,
//      and the minimum-norm solution on that wider set is taken when valid: it spreads the load
//      over redundant contacts, a solution that moves little from step to step, so the next
//      step's warm start hits more often (ours, not Nimble's: docs/deviations.md);
//   4. non-finite impulses become 0.
// The result carries the active set, which is what the analytical Jacobians differentiate.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "solvers/boxed_lcp.h"
#include "solvers/dantzig_lcp.h"
#include "solvers/lemke_lcp.h"
#include "solvers/lcp_active_set.h"
#include "solvers/pgs_lcp.h"

namespace arena {

enum class ContactLcpPath { kWarmStart, kDantzig, kPgs, kLemke, kFrictionless, kFailed };
inline constexpr int kNumContactLcpPaths = 6;
std::string_view ToString(ContactLcpPath path);

/// The method of a cold solve.
enum class LcpMethod { kDantzig, kPgs, kLemke };
std::string_view ToString(LcpMethod v);
bool FromString(std::string_view text, LcpMethod* v);
std::string EnumValues(LcpMethod);

/// A stage tried after the primary method fails: another method on the problem (PGS on the
/// softened A + cfm I, from the last answer), or the frictionless problem by Dantzig.
enum class LcpFallback { kDantzig, kPgs, kLemke, kFrictionless };
/// "pgs,frictionless" -> its stages; "none" or "" -> no fallback. Throws InvalidArgument
/// naming the unknown stage.
std::vector<LcpFallback> ParseLcpFallbacks(std::string_view text);

struct ContactLcpOptions {
  bool warm_start = true;
  bool stabilize = true;
  bool stabilize_degenerate = true;  // step 3's wider set (needs stabilize)
  double tolerance = 1e-5;   // validity (Nimble's 1e-5)
  double pgs_cfm = 1e-4;     // added to A's diagonal before the PGS fallback (Nimble from 2021-03)
  LcpMethod method = LcpMethod::kDantzig;
  std::vector<LcpFallback> fallbacks = {LcpFallback::kPgs, LcpFallback::kFrictionless};
  DantzigOptions dantzig;
  PgsOptions pgs;
  LemkeOptions lemke;
};

struct ContactLcpSolution {
  VecX x;
  LcpActiveSet active_set;
  ContactLcpPath path = ContactLcpPath::kFailed;
  bool stabilized = false;   // the minimum-norm active-set solution replaced the solver's
  double violation = 0.0;    // LcpViolation of x for the original problem (PGS: ~cfm |x|)
};

class ContactLcpSolver {
 public:
  explicit ContactLcpSolver(ContactLcpOptions options = {}) : options_(std::move(options)) {}

  /// Never throws on a hard problem (path kFailed, x zeros where non-finite); throws
  /// InvalidArgument when lcp.Check() fails.
  ContactLcpSolution Solve(const BoxedLcp& lcp);

  /// Statistics since construction.
  long solves() const { return solves_; }
  long attempts() const { return attempts_; }  // solves with a previous active set of the same size
  long hits() const { return hits_; }          // of those, solved by the guess
  long path_count(ContactLcpPath path) const { return paths_[static_cast<int>(path)]; }

 private:
  ContactLcpOptions options_;
  ContactLcpSolution Finish(ContactLcpSolution out);
  // One method on `lcp` (PGS from `start` when finite); a Lemke call on a boxed LCP fails.
  LcpResult Run(LcpMethod method, const BoxedLcp& lcp, const VecX* start) const;
  // x is finite and solves lcp within options_.tolerance.
  bool Valid(const BoxedLcp& lcp, const VecX& x) const;
  // The minimum-norm solution on `set`, into *x when it is valid.
  bool SolvedOnActiveSet(const BoxedLcp& lcp, const LcpActiveSet& set, VecX* x) const;
  // Stabilization (step 3) of a valid or invalid x: true when x is then a valid solution.
  bool Stabilize(const BoxedLcp& lcp, VecX* x) const;
  // One fallback stage; true (and `r`, `path` set) when its answer is valid.
  bool TryFallback(LcpFallback stage, const BoxedLcp& lcp, LcpResult* r, ContactLcpPath* path) const;

  LcpActiveSet previous_;
  long solves_ = 0, attempts_ = 0, hits_ = 0;
  std::array<long, kNumContactLcpPaths> paths_{};
};

}  // namespace arena
