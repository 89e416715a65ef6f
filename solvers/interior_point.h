// Primal-dual interior-point solver for nonlinear complementarity problems over the
// nonnegative orthant and second-order cones (seed 000, Silico Sec. V-C: "a primal-dual interior
// point method"; the details are those of the predictor-corrector in the authors' released
// companion solver, Mehrotra.jl).
//
// Problem: find w = (y, z, s), y free (num_primals), z and s in the cone K (num_cone entries),
//   F(y, z) + [0; s] = 0     (num_primals "optimality" rows, then num_cone "slackness" rows)
//   z o s = rho e            (the relaxed complementarity; e the cone's neutral element)
// so every slackness row reads s = g(y, z): the slack IS the constraint value. rho is the
// relaxation (`complementarity_tolerance`); the solver aims its predictor at rho, not at 0,
// and never targets a central path below rho, so the solution satisfies z o s ~ rho.
//
// Cones: the first `orthant` entries of z and s are a nonnegative orthant (z_i s_i = rho);
// then come second-order cone blocks {(z0, z1) : z0 >= |z1|} whose Jordan product is
// z o s = (z.s, z0 s1 + s0 z1) and neutral element (1, 0, ..., 0).
//
// One iteration (loop counted from 1; the convergence test at the start of an iteration counts
// it, so a problem solved at the initial point reports 1 iteration):
//   1. converged if |F + [0; s]|_inf <= residual_tolerance and
//      max(z o s - rho e) <= residual_tolerance (one-sided: over-satisfied products pass);
//   2. predictor: Newton step on [F + [0; s]; z o s - rho e];
//   3. fraction-to-boundary step alpha_aff (tau = fraction_to_boundary) on z and s;
//   4. centering: nu = z.s / degree, nu_aff at the predicted point, sigma = clamp(nu_aff/nu,0,1)^3,
//      target kappa = max(sigma nu, rho);
//   5. corrector with the same factorization: z o s - kappa e + c^2 alpha_aff^2 (dz o ds),
//      c = complementarity_correction;
//   6. fraction-to-boundary step on z and s, one scalar step for all of w;
//   7. backtracking: accept when the equality violation OR the complementarity violation
//      decreased, else scale the step by line_search_scale; after max_line_search tries the
//      last (small) step is taken anyway (the companion solver's permissive rule).
// Non-convergence is data: Solve returns a report with status kMaxIterations, never throws on
// numerical trouble (a singular or non-finite system ends the solve with its own status), and
// checks the calling thread's wall-clock deadline once per iteration (status kDeadline).
//
// Linear algebra: dense LU, either of the full (num_primals + 2 num_cone) system or, when
// `compressed`, of the system with the slacks eliminated (orthant: ds = -(z o s - k + s dz)/z).
#pragma once

#include <string_view>
#include <vector>

#include <Eigen/LU>

#include "core/math/types.h"
#include "solvers/square_factorization.h"

namespace arena {

/// The cone of z and s: `orthant` nonnegative entries, then second-order blocks.
struct ConeSpec {
  int orthant = 0;
  std::vector<int> soc;   // sizes of the second-order blocks (each >= 2)

  int size() const;       // orthant + sum(soc)
  int degree() const;     // orthant + number of SOC blocks (the barrier degree)
};

/// What the solver needs from a problem. Implementations own their scratch; the solver calls
/// Evaluate many times per Solve.
class ComplementarityProblem {
 public:
  virtual ~ComplementarityProblem() = default;
  virtual int num_primals() const = 0;
  virtual const ConeSpec& cone() const = 0;
  /// F(y, z) (num_primals + cone().size() rows) and, when `jacobian` is non-null, its dense
  /// Jacobian dF/d(y, z) (square). Must not throw; return false if F is not finite.
  virtual bool Evaluate(const VecX& y, const VecX& z, VecX* residual, MatX* jacobian) = 0;
  /// dF/dtheta for the problem's parameters theta (rows as F). Used only by Differentiate().
  virtual void ParameterJacobian(const VecX& y, const VecX& z, MatX* dF_dtheta) {
    (void)y, (void)z, (void)dF_dtheta;
  }
  /// Optional cold-start primals (default: zeros).
  virtual void InitialPrimals(VecX* y) { y->setZero(); }
};

struct InteriorPointOptions {
  double complementarity_tolerance = 1e-5;  // rho: the relaxation z o s = rho e
  double residual_tolerance = 1e-5;         // on |F|_inf and on max(z o s - rho)
  int max_iterations = 30;
  int max_line_search = 25;
  double line_search_scale = 0.5;
  double fraction_to_boundary = 0.95;
  double complementarity_correction = 0.5;  // c of the corrector's c^2 alpha^2 dz o ds term
  bool warm_start = false;                  // start from the previous solution ...
  double warm_start_backstep = 1e-2;        // ... with z, s moved into the cone by this
  bool compressed = true;                   // eliminate s before factorizing
  double primal_regularization = 0.0;       // + eps_p I on the primal block of dF
  double dual_regularization = 0.0;         // - eps_d I on the dual block of dF
  /// Replace the problem's Jacobian with forward differences of F (step sqrt(eps) max(1, |w|)).
  bool finite_difference_jacobian = false;
  double initial_cone_value = 1.0;          // cold start: z = s = this times the neutral element
  LinearSolver linear_solver = LinearSolver::kDenseLu;  // the Newton system's factorization
};

/// kDeadline: the calling thread's wall-clock deadline passed (core/common/deadline.h).
enum class InteriorPointStatus { kConverged, kMaxIterations, kSingular, kNonFinite, kDeadline };
std::string_view ToString(InteriorPointStatus status);

struct InteriorPointReport {
  InteriorPointStatus status = InteriorPointStatus::kMaxIterations;
  int iterations = 0;
  double residual = 0.0;          // |F + [0; s]|_inf at the returned point
  double complementarity = 0.0;   // max(z o s - rho e) at the returned point
  int line_search_failures = 0;   // iterations whose backtracking ran out
  bool converged() const { return status == InteriorPointStatus::kConverged; }
};

class InteriorPointSolver {
 public:
  explicit InteriorPointSolver(const InteriorPointOptions& options = {})
      : options_(options), lu_(options.linear_solver) {}

  InteriorPointOptions& options() { return options_; }
  const InteriorPointOptions& options() const { return options_; }

  /// Solves from a cold start (or from the last solution when options().warm_start and the
  /// dimensions match). Never throws on numerical failure.
  InteriorPointReport Solve(ComplementarityProblem& problem);

  /// Sensitivities of the last solution by the implicit function theorem:
  /// d(y, z, s)/dtheta = -J^-1 [dF/dtheta; 0], J the full Jacobian at the solution (rho enters
  /// only through the solution point). Factorizes J once at the solution and reuses that
  /// factorization for every column. Rows: y, then z, then s. Returns false if J is singular.
  bool Differentiate(ComplementarityProblem& problem, MatX* dw_dtheta);

  const VecX& primals() const { return y_; }
  const VecX& duals() const { return z_; }
  const VecX& slacks() const { return s_; }
  /// Overrides the starting point of the next warm-started Solve (sizes must match).
  void SetStart(const VecX& y, const VecX& z, const VecX& s);

 private:
  // Sizes the scratch for (num_primals, cone, options_.compressed); a no-op when unchanged.
  void Resize(int num_primals, const ConeSpec& cone);
  // F at (y, z) into *residual (sized by the caller); false if it is not finite.
  bool EvaluateResidual(ComplementarityProblem& problem, const VecX& y, const VecX& z,
                        VecX* residual);
  // dF/d(y, z) at (y_, z_) into jacobian_ (analytic, or forward differences about residual_,
  // which must hold F(y_, z_)); false if it is not finite.
  bool EvaluateJacobian(ComplementarityProblem& problem);
  // Builds system_ (full or compressed) from jacobian_, z_, s_ and factorizes it into lu_.
  // false if the factorization is singular.
  bool Factorize(bool regularize);
  // Newton direction (dy_, dz_, ds_) for the residual [eq_residual_; comp_residual_].
  bool SolveDirection();
  // One scalar step: min(1, tau * largest step keeping z + a dz and s + a ds in the cone).
  double StepToBoundary() const;
  InteriorPointReport Finish(InteriorPointReport report, InteriorPointStatus status) const;

  InteriorPointOptions options_;
  VecX y_, z_, s_;
  // Scratch, sized on first use.
  VecX residual_, candidate_residual_, y_try_, z_try_, s_try_, dy_, dz_, ds_;
  MatX jacobian_, system_;
  VecX eq_residual_, comp_residual_, rhs_, solution_, dz_aff_, ds_aff_, soc_work_;
  VecX fd_y_, fd_z_, fd_residual_;
  MatX dF_dtheta_, parameter_solution_;
  SquareFactorization lu_;
  ConeSpec cone_;            // the cone the scratch is sized for
  int num_primals_ = -1;     // -1: no scratch yet
  bool scratch_compressed_ = true;
};

}  // namespace arena
