// Newton's method for the incremental potential of a time step (seed 003 Sec. IV-D and seed
// 004 Sec. 3.1 minimise inertia + potentials over the next configuration "with Newton's method
// and line search"): directions from a positive-definite model of the Hessian (the problem
// projects each term; where the sum is still indefinite, the solver takes the absolute values
// of its eigenvalues, floored), a step bound from the problem (no step may jump through a
// barrier), and a backtracking line search that rejects infinite energies, so an iterate never
// leaves the feasible set. Or, method = lm, Levenberg-Marquardt steps (H + lambda I) d = -g with
// an adaptive lambda instead of the line search (seed 003's outer loop).
//
// The iterate belongs to the problem (it may live on a manifold, e.g. joint quaternions): the
// solver moves it only through Retract(direction, alpha), and asks for energies along a
// direction without moving it. Non-convergence is data: the report says why, never a throw. The
// calling thread's wall-clock deadline (core/common/deadline.h) is checked once per iteration:
// once it has passed, the solve stops with status kDeadline, the iterate the last accepted one.
#pragma once

#include <string>
#include <string_view>

#include "core/math/types.h"
#include "solvers/cholesky_solve.h"

namespace arena {

class NewtonProblem {
 public:
  virtual ~NewtonProblem() = default;
  virtual int dimension() const = 0;
  /// Energy at the current iterate; with non-null outputs also its gradient and a symmetric
  /// positive-semidefinite model of its Hessian. +inf: the iterate is infeasible.
  virtual double Evaluate(VecX* gradient, MatX* hessian) = 0;
  /// What the solver asks at a trial point if it takes it: nothing more (a backtracking trial,
  /// the polish's feasibility test), or the next iteration's derivatives (the line search's
  /// first, usually taken, trial). A problem whose derivatives cost little beyond its energy (a
  /// contact potential's pair solves dominate both) may compute them with the trial's energy and
  /// return them from the next Evaluate at that iterate, saving an evaluation.
  enum class TrialNeeds { kEnergy, kDerivatives };
  /// Energy at the current iterate moved by alpha * direction, the iterate left as it is.
  virtual double EnergyAlong(const VecX& direction, double alpha, TrialNeeds needs) = 0;
  /// The largest alpha in (0, 1] for which every barrier stays finite along the direction (a
  /// conservative bound: continuous collision detection); 1 without barriers.
  virtual double MaxStep(const VecX& direction) {
    (void)direction;
    return 1.0;
  }
  /// Moves the iterate by alpha * direction.
  virtual void Retract(const VecX& direction, double alpha) = 0;
  /// The gradient and the exact (unprojected) Hessian at the current iterate, when the problem
  /// has it (false: the solver polishes with its last direction instead).
  virtual bool ExactDerivatives(VecX* gradient, MatX* hessian) {
    (void)gradient;
    (void)hessian;
    return false;
  }
};

/// kLineSearch: the (projected) Newton direction with a backtracking line search.
/// kLevenbergMarquardt: (H + lambda I) d = -g with lambda adapted to the trials' success.
enum class NewtonMethod { kLineSearch, kLevenbergMarquardt };
std::string_view ToString(NewtonMethod v);
bool FromString(std::string_view text, NewtonMethod* v);
std::string EnumValues(NewtonMethod);

struct NewtonOptions {
  // Converged when the Newton step (before the line search) has |step|_inf <= step_tolerance
  // (in the problem's coordinates: m and rad for a configuration increment) or the gradient
  // |g|_inf <= gradient_tolerance (the problem's energy units per coordinate): either says the
  // iterate is stationary to the tolerance; rounding keeps one or the other from falling further.
  // The solver then polishes the iterate when the steps are feasible (NewtonReport::polished):
  // up to three Newton steps of the exact Hessian where the problem has one (near the minimum it
  // is positive definite, and the projected model's linear convergence becomes quadratic), else
  // the last direction once.
  double step_tolerance = 1e-10;
  double gradient_tolerance = 1e-7;
  int max_iterations = 100;
  int max_line_search = 50;          // halvings of the step
  double armijo = 1e-4;              // sufficient decrease: E(a) <= E + armijo a g.d
  double step_bound_fraction = 0.9;  // of the problem's MaxStep, so a barrier is never reached
  double eigenvalue_floor = 1e-10;   // relative to the largest eigenvalue of the Hessian model
  NewtonMethod method = NewtonMethod::kLineSearch;
  double lm_initial_damping = 1e-4;  // LM's first lambda, relative to max |H_ii|
  CholeskySolver linear_solver = CholeskySolver::kDense;  // the Newton and LM systems' factorization

  /// "" when valid, else the problem.
  std::string Validate() const;
};

/// kDeadline: the calling thread's wall-clock deadline passed (core/common/deadline.h).
enum class NewtonStatus { kConverged, kMaxIterations, kLineSearchFailed, kInfeasibleStart, kNonFinite, kDeadline };
std::string_view ToString(NewtonStatus status);

struct NewtonReport {
  NewtonStatus status = NewtonStatus::kMaxIterations;
  int iterations = 0;              // Newton directions computed
  double energy = 0.0;             // at the final iterate (before polishing)
  double gradient_norm = 0.0;      // |g|_inf at the final iterate (before polishing)
  double step_norm = 0.0;          // |Newton step|_inf of the last iteration
  int line_search_evaluations = 0;
  bool polished = false;           // converged, then took at least one polishing step
  double linear_solve_s = 0.0;     // wall-clock seconds in the Newton systems' factorizations and solves
  bool converged() const { return status == NewtonStatus::kConverged; }
};

NewtonReport MinimizeNewton(NewtonProblem& problem, const NewtonOptions& options);

}  // namespace arena
