#include "solvers/contact_lcp_solver.h"

#include <cmath>
#include <limits>
#include <utility>

#include "core/common/enum_names.h"
#include "core/common/error.h"

namespace arena {

std::string_view ToString(ContactLcpPath path) {
  switch (path) {
    case ContactLcpPath::kWarmStart: return "warm_start";
    case ContactLcpPath::kDantzig: return "dantzig";
    case ContactLcpPath::kPgs: return "pgs";
    case ContactLcpPath::kLemke: return "lemke";
    case ContactLcpPath::kFrictionless: return "frictionless";
    case ContactLcpPath::kFailed: return "failed";
  }
  return "unknown";
}

namespace {

constexpr EnumNameTable<LcpMethod, 3> kMethods = {
    {{LcpMethod::kDantzig, "dantzig"}, {LcpMethod::kPgs, "pgs"}, {LcpMethod::kLemke, "lemke"}}};
constexpr EnumNameTable<LcpFallback, 4> kFallbacks = {{{LcpFallback::kDantzig, "dantzig"},
                                                        {LcpFallback::kPgs, "pgs"},
                                                        {LcpFallback::kLemke, "lemke"},
                                                        {LcpFallback::kFrictionless, "frictionless"}}};

bool IsStandard(const BoxedLcp& lcp) {
  for (int i = 0; i < lcp.size(); ++i) {
    if (lcp.lo[i] != 0.0 || lcp.hi[i] != std::numeric_limits<double>::infinity()) return false;
    if (!lcp.findex.empty() && lcp.findex[i] >= 0) return false;
  }
  return true;
}

ContactLcpPath PathOf(LcpMethod m) {
  switch (m) {
    case LcpMethod::kDantzig: return ContactLcpPath::kDantzig;
    case LcpMethod::kPgs: return ContactLcpPath::kPgs;
    case LcpMethod::kLemke: return ContactLcpPath::kLemke;
  }
  return ContactLcpPath::kFailed;
}

// |w| of a contact that touches at rest (step 3's wider set): round-off, not the validity
// tolerance. At 1e-5 a contact separating at 1e-6 m/s would be held, moving v+ by that much and
// making the step non-smooth at the 1e-6 level (a tilted mesh box's derivatives then missed
// Ridders' by 4e-6); 1e-8, 1e-10 and 1e-12 give the same warm-start hit rates.
constexpr double kDegenerateSpeed = 1e-10;

}  // namespace

std::string_view ToString(LcpMethod v) { return EnumName(v, kMethods); }
bool FromString(std::string_view text, LcpMethod* v) { return ParseEnum(text, kMethods, v); }
std::string EnumValues(LcpMethod) { return EnumList(kMethods); }

std::vector<LcpFallback> ParseLcpFallbacks(std::string_view text) {
  std::vector<LcpFallback> out;
  if (text.empty() || text == "none") return out;
  size_t begin = 0;
  while (begin <= text.size()) {
    const size_t end = std::min(text.find(',', begin), text.size());
    const std::string_view stage = text.substr(begin, end - begin);
    LcpFallback f;
    if (!ParseEnum(stage, kFallbacks, &f)) {
      throw InvalidArgument("LCP fallback '" + std::string(stage) + "' is not one of " + EnumList(kFallbacks) +
                            " (a comma-separated list, or none)");
    }
    out.push_back(f);
    begin = end + 1;
  }
  return out;
}

LcpResult ContactLcpSolver::Run(LcpMethod method, const BoxedLcp& lcp, const VecX* start) const {
  switch (method) {
    case LcpMethod::kDantzig: return SolveDantzig(lcp, options_.dantzig);
    case LcpMethod::kPgs: return SolvePgs(lcp, options_.pgs, start != nullptr && start->allFinite() ? start : nullptr);
    case LcpMethod::kLemke:
      if (IsStandard(lcp)) return SolveLemke(lcp, options_.lemke);
      break;  // friction rows or boxes: not Lemke's problem
  }
  LcpResult failed;
  failed.x = VecX::Constant(lcp.size(), std::numeric_limits<double>::quiet_NaN());
  return failed;
}

bool ContactLcpSolver::Valid(const BoxedLcp& lcp, const VecX& x) const {
  return x.allFinite() && LcpViolation(lcp, x) <= options_.tolerance;
}

bool ContactLcpSolver::SolvedOnActiveSet(const BoxedLcp& lcp, const LcpActiveSet& set, VecX* x) const {
  VecX y = SolveOnActiveSet(lcp, set);
  if (!Valid(lcp, y)) return false;
  *x = std::move(y);
  return true;
}

bool ContactLcpSolver::Stabilize(const BoxedLcp& lcp, VecX* x) const {
  if (!options_.stabilize) return false;
  LcpActiveSet set = ClassifyLcpSolution(lcp, *x);
  bool stabilized = SolvedOnActiveSet(lcp, set, x);
  // The wider set from the stabilized solution, or from the method's own answer when its set
  // did not give one: valid (the classification thresholds misjudged a row) or not (Dantzig at
  // its pivot limit on the cold Atlas state, whose wider set solves the LCP to 1e-16).
  if (options_.stabilize_degenerate) {
    LcpActiveSet wider = stabilized ? ClassifyLcpSolution(lcp, *x) : std::move(set);
    if (ClampDegenerateContacts(lcp, *x, kDegenerateSpeed, &wider)) {
      stabilized = SolvedOnActiveSet(lcp, wider, x) || stabilized;
    }
  }
  return stabilized;
}

bool ContactLcpSolver::TryFallback(LcpFallback stage, const BoxedLcp& lcp, LcpResult* r,
                                   ContactLcpPath* path) const {
  if (stage == LcpFallback::kFrictionless) {
    // No friction this step (as Nimble's released code does, its last resort).
    if (lcp.findex.empty()) return false;
    BoxedLcp frictionless = lcp;
    for (int i = 0; i < lcp.size(); ++i) {
      if (lcp.findex[i] >= 0) frictionless.lo[i] = frictionless.hi[i] = 0.0;
    }
    LcpResult f = SolveDantzig(frictionless, options_.dantzig);
    if (!f.x.allFinite()) return false;
    *r = f;
    *path = ContactLcpPath::kFrictionless;
    return f.violation <= options_.tolerance;
  }
  if (stage == LcpFallback::kPgs) {
    // PGS on A + cfm I, from the last answer. It solves the softened problem, so it is judged
    // on that one: its x violates the original by about cfm |x|.
    BoxedLcp soft = lcp;
    soft.A.diagonal().array() += options_.pgs_cfm;
    LcpResult p = Run(LcpMethod::kPgs, soft, &r->x);
    if (!Valid(soft, p.x)) return false;
    *r = p;
    *path = ContactLcpPath::kPgs;
    return true;
  }
  const LcpMethod method = stage == LcpFallback::kDantzig ? LcpMethod::kDantzig : LcpMethod::kLemke;
  LcpResult m = Run(method, lcp, &r->x);
  if (!Valid(lcp, m.x)) return false;
  *r = m;
  *path = PathOf(method);
  return true;
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
  LcpResult r = Run(options_.method, lcp, nullptr);
  out.path = PathOf(options_.method);
  bool solved = Valid(lcp, r.x);
  // The primary method's active set may be right when its impulses are not (step 3).
  if (!solved && r.x.allFinite() && Stabilize(lcp, &r.x)) solved = out.stabilized = true;
  for (size_t k = 0; !solved && k < options_.fallbacks.size(); ++k) {
    solved = TryFallback(options_.fallbacks[k], lcp, &r, &out.path);
  }
  out.x = r.x;
  for (int i = 0; i < n; ++i) {
    if (!std::isfinite(out.x[i])) out.x[i] = 0.0;
  }
  // An unfinished iterate (PGS at its sweep cap) whose active set is right: the solve on that
  // set is a valid solution, so the method solved the LCP.
  if (!out.stabilized && Stabilize(lcp, &out.x)) solved = out.stabilized = true;
  out.active_set = ClassifyLcpSolution(lcp, out.x);
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
