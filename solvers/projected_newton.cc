#include "solvers/projected_newton.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <Eigen/Eigenvalues>

#include "core/common/deadline.h"
#include "core/common/stopwatch.h"
#include "core/common/enum_names.h"

namespace arena {

std::string NewtonOptions::Validate() const {
  if (!(step_tolerance > 0.0) || !(gradient_tolerance > 0.0)) return "tolerances must be > 0";
  if (max_iterations < 1 || max_iterations > 100000) return "max_iterations must be in [1, 100000]";
  if (max_line_search < 1 || max_line_search > 200) return "max_line_search must be in [1, 200]";
  if (!(armijo > 0.0 && armijo < 0.5)) return "armijo must be in (0, 0.5)";
  if (!(step_bound_fraction > 0.0 && step_bound_fraction < 1.0)) return "step_bound_fraction must be in (0, 1)";
  if (!(eigenvalue_floor >= 0.0 && eigenvalue_floor < 1.0)) return "eigenvalue_floor must be in [0, 1)";
  if (!(lm_initial_damping > 0.0 && lm_initial_damping <= 1e6)) return "lm_initial_damping must be in (0, 1e6]";
  return "";
}

namespace {
constexpr EnumNameTable<NewtonMethod, 2> kMethods = {
    {{NewtonMethod::kLineSearch, "newton"}, {NewtonMethod::kLevenbergMarquardt, "lm"}}};
}  // namespace

std::string_view ToString(NewtonMethod v) { return EnumName(v, kMethods); }
bool FromString(std::string_view text, NewtonMethod* v) { return ParseEnum(text, kMethods, v); }
std::string EnumValues(NewtonMethod) { return EnumList(kMethods); }

std::string_view ToString(NewtonStatus status) {
  switch (status) {
    case NewtonStatus::kConverged: return "converged";
    case NewtonStatus::kMaxIterations: return "max_iterations";
    case NewtonStatus::kLineSearchFailed: return "line_search_failed";
    case NewtonStatus::kInfeasibleStart: return "infeasible_start";
    case NewtonStatus::kNonFinite: return "non_finite";
    case NewtonStatus::kDeadline: return "deadline";
  }
  return "?";
}

namespace {

// Solves H d = -g for a Newton direction. Cholesky first, dense or sparse (the usual case: the
// model is positive definite); when it fails, each eigenvalue is replaced by its absolute value, floored at `floor`
// times the largest: a negative curvature becomes a positive one of the same size (a Hessian
// modification in the sense of Nocedal & Wright, "Numerical Optimization", 2006, Sec. 3.4),
// where a plain floor would turn a curvature of -500 beside one of 1e8 into 1e-2 and the step
// into a leap along it.
bool NewtonDirection(const MatX& H, const VecX& g, double floor, CholeskySolver kind, VecX* d) {
  if (CholeskySolve(H, g, kind, d)) {
    *d = -*d;
    return true;
  }
  Eigen::SelfAdjointEigenSolver<MatX> eig(H);
  if (eig.info() != Eigen::Success) return false;
  VecX lambda = eig.eigenvalues();
  const double top = std::max(lambda.cwiseAbs().maxCoeff(), 1e-300);
  lambda = lambda.cwiseAbs().cwiseMax(std::max(floor, 1e-16) * top);
  *d = -eig.eigenvectors() * (eig.eigenvectors().transpose() * g).cwiseQuotient(lambda);
  return d->allFinite();
}

// A Newton system's solve, its wall-clock time added to the report (the Newton systems' share of
// a solve, as seed 003 Table II breaks a step down).
bool TimedCholeskySolve(const MatX& H, const VecX& g, CholeskySolver kind, VecX* d, NewtonReport* report) {
  const auto t0 = std::chrono::steady_clock::now();
  const bool ok = CholeskySolve(H, g, kind, d);
  report->linear_solve_s += SecondsSince(t0);
  return ok;
}

// At convergence a few more steps cost an evaluation or two each and square the remaining error,
// so the minimiser is exact to rounding rather than to the tolerance: derivatives by the implicit
// function theorem hold at the exact minimiser, and differences of two steps (gradcheck) would
// otherwise see the tolerance as noise. With a projected Hessian Newton converges only linearly,
// so these steps use the exact Hessian when the problem has one and it is positive definite.
// More than one: a gradient known only to an inner solve's tolerance (longrange's separating
// planes, warm-started) moves between evaluations at one point, and one step leaves that much.
constexpr int kPolishSteps = 3;

void Polish(NewtonProblem& problem, const NewtonOptions& options, const VecX& last, NewtonReport* report) {
  VecX g, d;
  MatX H;
  for (int k = 0; k < kPolishSteps; ++k) {
    bool exact = false;
    if (problem.ExactDerivatives(&g, &H) && g.allFinite() && H.allFinite() &&
        TimedCholeskySolve(H, g, options.linear_solver, &d, report)) {
      d = -d;
      exact = true;
    }
    if (!exact) {
      if (k > 0) return;  // without an exact Hessian the last direction is taken once
      d = last;
    }
    // Below this the step is rounding.
    if (!(d.cwiseAbs().maxCoeff() > 1e-4 * options.step_tolerance) || problem.MaxStep(d) < 1.0) return;
    ++report->line_search_evaluations;
    // Only feasibility is asked: at a stationary point the energy changes by rounding along a
    // step this small, and a test on it would accept the step on one side of a rounding tie and
    // reject it on the other (the step map would jump by the tolerance).
    // The energy alone, and the exact derivatives evaluated anew at the point taken: evaluated
    // twice, the point's inner solves (warm-started from the first evaluation) are refined, and
    // the step map is repeatable to ~1e-14 m whatever the evaluations before it; evaluated once
    // (its derivatives kept from the trial), the conformance box's step moved by ~5e-11 m with
    // the history of earlier steps.
    if (!std::isfinite(problem.EnergyAlong(d, 1.0, NewtonProblem::TrialNeeds::kEnergy))) return;
    problem.Retract(d, 1.0);
    report->polished = true;
  }
}

enum class StepOutcome { kTaken, kRejected, kDeadline };

// The longest step along d to try: the whole step, or the step bound's feasible fraction (the
// bound keeps every barrier finite).
double FeasibleAlpha(NewtonProblem& problem, const NewtonOptions& options, const VecX& d) {
  const double bound = problem.MaxStep(d);
  return bound >= 1.0 ? 1.0 : options.step_bound_fraction * bound;
}

// Near the minimum the predicted decrease falls below what the energy's rounding resolves, and
// Armijo's test only measures noise: a feasible step is then taken untested.
bool BelowRounding(double predicted_decrease, double energy) {
  return predicted_decrease <= 1e-13 * std::max(1.0, std::abs(energy));
}

// Backtracking along the Newton direction d from the largest feasible step (Armijo).
StepOutcome LineSearchStep(NewtonProblem& problem, const NewtonOptions& options, double energy, const VecX& g,
                           const VecX& d, NewtonReport* report) {
  double alpha = FeasibleAlpha(problem, options, d);
  const double slope = g.dot(d);
  if (BelowRounding(-slope * alpha, energy)) {
    ++report->line_search_evaluations;
    if (std::isfinite(problem.EnergyAlong(d, alpha, NewtonProblem::TrialNeeds::kDerivatives))) {
      problem.Retract(d, alpha);
      return StepOutcome::kTaken;
    }
  }
  for (int ls = 0; ls < options.max_line_search; ++ls, alpha *= 0.5) {
    // Each trial can cost as much as an iteration (a long-range potential at fine meshes).
    if (ls > 0 && DeadlinePassed()) return StepOutcome::kDeadline;
    ++report->line_search_evaluations;
    const auto needs = ls == 0 ? NewtonProblem::TrialNeeds::kDerivatives : NewtonProblem::TrialNeeds::kEnergy;
    const double trial = problem.EnergyAlong(d, alpha, needs);
    if (std::isfinite(trial) && trial <= energy + options.armijo * alpha * slope) {
      problem.Retract(d, alpha);
      return StepOutcome::kTaken;
    }
  }
  return StepOutcome::kRejected;
}

// Levenberg-Marquardt (Nocedal & Wright 2006, Sec. 10.3, as SDRS's outer loop): the step solves
// (H + lambda I) d = -g, shortened to the feasible fraction of the step bound; a trial that
// lowers the energy (Armijo) is taken and lambda shrinks 3x, else lambda grows 4x and the step
// is solved again. lambda carries over from one iteration to the next within a solve.
StepOutcome DampedStep(NewtonProblem& problem, const NewtonOptions& options, double energy, const VecX& g,
                       const MatX& H, double* lambda, NewtonReport* report) {
  const double scale = std::max(H.diagonal().cwiseAbs().maxCoeff(), 1e-300);
  if (!(*lambda > 0.0)) *lambda = options.lm_initial_damping * scale;
  MatX damped = H;
  VecX d;
  for (int trial = 0; trial < options.max_line_search; ++trial) {
    if (trial > 0 && DeadlinePassed()) return StepOutcome::kDeadline;
    damped.diagonal() = H.diagonal().array() + *lambda;
    if (TimedCholeskySolve(damped, g, options.linear_solver, &d, report)) {
      d = -d;
      const double alpha = FeasibleAlpha(problem, options, d);
      const double slope = g.dot(d);
      ++report->line_search_evaluations;
      const double value = problem.EnergyAlong(d, alpha, NewtonProblem::TrialNeeds::kDerivatives);
      if (std::isfinite(value) &&
          (BelowRounding(-slope * alpha, energy) || value <= energy + options.armijo * alpha * slope)) {
        problem.Retract(d, alpha);
        *lambda = std::max(*lambda / 3.0, 1e-16 * scale);
        return StepOutcome::kTaken;
      }
    }
    *lambda *= 4.0;
  }
  return StepOutcome::kRejected;
}

}  // namespace

NewtonReport MinimizeNewton(NewtonProblem& problem, const NewtonOptions& options) {
  NewtonReport report;
  const int n = problem.dimension();
  VecX g(n), d(n);
  MatX H(n, n);
  double damping = 0.0;  // Levenberg-Marquardt's lambda (0: not yet scaled)
  for (int it = 0;; ++it) {
    const double energy = problem.Evaluate(&g, &H);
    report.energy = energy;
    if (!std::isfinite(energy)) {
      // A problem may give up mid-evaluation once the case's deadline has passed (an infinite
      // energy): that is the deadline, not an infeasible start.
      report.status = DeadlinePassed()  ? NewtonStatus::kDeadline
                      : it == 0         ? NewtonStatus::kInfeasibleStart
                                        : NewtonStatus::kNonFinite;
      return report;
    }
    if (!g.allFinite() || !H.allFinite()) {
      report.status = NewtonStatus::kNonFinite;
      return report;
    }
    report.gradient_norm = n > 0 ? g.cwiseAbs().maxCoeff() : 0.0;
    if (n == 0) {
      report.status = NewtonStatus::kConverged;
      return report;
    }
    // The (projected) Newton step decides convergence for both methods; with lm it costs one
    // more factorization an iteration, small next to an evaluation of the potentials.
    const auto t0 = std::chrono::steady_clock::now();
    const bool direction = NewtonDirection(H, g, options.eigenvalue_floor, options.linear_solver, &d);
    report.linear_solve_s += SecondsSince(t0);
    if (!direction) {
      report.status = NewtonStatus::kNonFinite;
      return report;
    }
    report.step_norm = d.cwiseAbs().maxCoeff();
    if (report.step_norm <= options.step_tolerance || report.gradient_norm <= options.gradient_tolerance) {
      report.status = NewtonStatus::kConverged;
      Polish(problem, options, d, &report);
      return report;
    }
    if (it == options.max_iterations) {
      report.status = NewtonStatus::kMaxIterations;
      return report;
    }
    // The case's wall-clock budget, checked where the iteration cap is: after the convergence
    // test (a converged iterate is kept as converged), before the next line search.
    if (DeadlinePassed()) {
      report.status = NewtonStatus::kDeadline;
      return report;
    }
    ++report.iterations;
    const StepOutcome outcome = options.method == NewtonMethod::kLevenbergMarquardt
                                    ? DampedStep(problem, options, energy, g, H, &damping, &report)
                                    : LineSearchStep(problem, options, energy, g, d, &report);
    if (outcome == StepOutcome::kDeadline) {
      report.status = NewtonStatus::kDeadline;
      return report;
    }
    if (outcome == StepOutcome::kRejected) {
      // At a minimum the energy cannot decrease measurably: rounding, not failure.
      report.status = report.step_norm <= 1e3 * options.step_tolerance ? NewtonStatus::kConverged
                                                                       : NewtonStatus::kLineSearchFailed;
      return report;
    }
  }
}

}  // namespace arena
