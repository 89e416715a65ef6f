#include "solvers/contact_lcp_solver.h"

#include <cmath>
#include <utility>

#include "core/common/error.h"

namespace arena {

std::string_view ToString(ContactLcpPath path) {
  switch (path) {
    case ContactLcpPath::kWarmStart: return "warm_start";
    case ContactLcpPath::kDantzig: return "dantzig";
    case ContactLcpPath::kPgs: return "pgs";
    case ContactLcpPath::kFrictionless: return "frictionless";
    case ContactLcpPath::kFailed: return "failed";
  }
  return "unknown";
}

ContactLcpSolution ContactLcpSolver::Solve(const BoxedLcp& lcp) {
  if (const std::string error = lcp.Check(); !error.empty()) throw InvalidArgument("contact lcp: " + error);
  ContactLcpSolution out;
  const int n = lcp.size();
  if (options_.warm_start && previous_.size() == n && n > 0) {
    ++attempts_;
    VecX guess = SolveOnActiveSet(lcp, previous_);
    if (guess.allFinite() && LcpViolation(lcp, guess) <= options_.tolerance) {
      ++hits_;
      out.x = std::move(guess);
      out.path = ContactLcpPath::kWarmStart;
      out.stabilized = true;  // the active-set solution is the minimum-norm one
      out.active_set = ClassifyLcpSolution(lcp, out.x);
      out.violation = LcpViolation(lcp, out.x);
      return Finish(std::move(out));
    }
  }
  LcpResult r = SolveDantzig(lcp, options_.dantzig);
  out.path = ContactLcpPath::kDantzig;
  bool solved = r.violation <= options_.tolerance;
  if (!solved) {
    // PGS on A + cfm I, from Dantzig's answer. It solves the softened problem, so it is judged
    // on that one: its x violates the original by about cfm |x|.
    BoxedLcp soft = lcp;
    soft.A.diagonal().array() += options_.pgs_cfm;
    LcpResult p = SolvePgs(soft, options_.pgs, r.x.allFinite() ? &r.x : nullptr);
    if (p.x.allFinite() && LcpViolation(soft, p.x) <= options_.tolerance) {
      r = p;
      out.path = ContactLcpPath::kPgs;
      solved = true;
    }
  }
  if (!solved && !lcp.findex.empty()) {
    // Last resort: no friction this step (as Nimble's released code does).
    BoxedLcp frictionless = lcp;
    for (int i = 0; i < n; ++i) {
      if (lcp.findex[i] >= 0) frictionless.lo[i] = frictionless.hi[i] = 0.0;
    }
    LcpResult f = SolveDantzig(frictionless, options_.dantzig);
    if (f.x.allFinite()) {
      r = f;
      out.path = ContactLcpPath::kFrictionless;
      solved = f.violation <= options_.tolerance;
    }
  }
  out.x = r.x;
  for (int i = 0; i < n; ++i) {
    if (!std::isfinite(out.x[i])) out.x[i] = 0.0;
  }
  out.active_set = ClassifyLcpSolution(lcp, out.x);
  if (options_.stabilize) {
    VecX stable = SolveOnActiveSet(lcp, out.active_set);
    if (stable.allFinite() && LcpViolation(lcp, stable) <= options_.tolerance) {
      out.x = std::move(stable);
      out.stabilized = true;
      out.active_set = ClassifyLcpSolution(lcp, out.x);
    }
  }
  out.violation = LcpViolation(lcp, out.x);
  if (!solved) out.path = ContactLcpPath::kFailed;
  return Finish(std::move(out));
}

ContactLcpSolution ContactLcpSolver::Finish(ContactLcpSolution out) {
  ++solves_;
  ++paths_[static_cast<int>(out.path)];
  previous_ = out.active_set;
  return out;
}

}  // namespace arena
