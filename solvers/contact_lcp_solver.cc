#include "solvers/contact_lcp_solver.h"

#include <cmath>

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
      previous_ = out.active_set;
      return out;
    }
  }
  LcpResult r = SolveDantzig(lcp, options_.dantzig);
  out.path = ContactLcpPath::kDantzig;
  if (!(r.violation <= options_.tolerance)) {
    BoxedLcp soft = lcp;
    soft.A.diagonal().array() += options_.pgs_cfm;
    LcpResult p = SolvePgs(soft, options_.pgs, r.x.allFinite() ? &r.x : nullptr);
    if (LcpViolation(lcp, p.x) < r.violation || !std::isfinite(r.violation)) {
      r = p;
      r.violation = LcpViolation(lcp, p.x);
      out.path = ContactLcpPath::kPgs;
    }
  }
  if (!(r.violation <= options_.tolerance) && !lcp.findex.empty()) {
    // Last resort: no friction this step (digest 2.2 step 5).
    BoxedLcp frictionless = lcp;
    for (int i = 0; i < n; ++i) {
      if (lcp.findex[i] >= 0) frictionless.lo[i] = frictionless.hi[i] = 0.0;
    }
    LcpResult f = SolveDantzig(frictionless, options_.dantzig);
    if (f.x.allFinite()) {
      r = f;
      r.violation = LcpViolation(lcp, f.x);
      out.path = ContactLcpPath::kFrictionless;
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
  if (!(out.violation <= options_.tolerance) && out.path != ContactLcpPath::kFrictionless) {
    out.path = ContactLcpPath::kFailed;
  }
  previous_ = out.active_set;
  return out;
}

}  // namespace arena
