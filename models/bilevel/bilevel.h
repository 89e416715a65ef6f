// `bilevel`: the baseline of seed 000 (Le Cleac'h et al., "Single-Level Differentiable Contact
// Simulation", RA-L 2023, Secs. IV-B and VI-B, Figs. 9-11), as its authors ran it: their own
// planar re-implementation of a DCOL-style bilevel simulator, in their released code.
// Collision detection (the alpha-scaling program P14, Sec. IV-A) is a separate optimisation
// nested inside the contact dynamics: every evaluation of the outer complementarity residual
// solves P14 for every contact pair at the candidate end-of-step poses, cold, and uses its
// P-SDF phi, contact point and normal as data (models/bilevel/outer_problem.h).
//
// The outer Newton Jacobian, option `jacobian`:
//   finite_difference  Figs. 9-10: forward differences of the whole outer residual, every
//                      perturbed column re-running the nested inner solves. (The era's
//                      solver added +1e-3 / -1e-3 regularization here; it is an option,
//                      off by default, see docs/deviations.md.)
//   chain_rule         Fig. 11: analytic in the outer variables plus the inner IFT
//                      sensitivities d(phi, p)/d p3 times dt (normal held fixed).
// Same bodies, pairs, state and actuator conventions as silico (models/silico/silico.h); no
// step derivatives (the paper differentiates the bilevel model only for its Newton solve).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/options.h"
#include "core/multibody/data.h"
#include "models/bilevel/outer_problem.h"
#include "models/option_ranges.h"
#include "models/simulator.h"
#include "solvers/interior_point.h"

namespace arena {

/// How the outer solve gets its Jacobian.
enum class BilevelJacobian { kFiniteDifference, kChainRule };
std::string_view ToString(BilevelJacobian jacobian);
bool FromString(std::string_view text, BilevelJacobian* jacobian);
std::string EnumValues(BilevelJacobian);

struct BilevelOptions {
  double timestep = 0.01;              // s
  double rho = 1e-4;                   // outer relaxation (complementarity_tolerance)
  double residual_tolerance = 0.0;     // outer; 0: rho / 10, the paper's sweeps
  int max_iterations = 30;             // outer; a step reaching it fails (Fig. 9)
  BilevelJacobian jacobian = BilevelJacobian::kFiniteDifference;
  bool compressed = false;             // the authors' outer solve was uncompressed (their code)
  LinearSolver linear_solver = LinearSolver::kDenseLu;  // outer Newton system's factorization
  // The experiment-era solver hard-coded +1e-3 / -1e-3 for finite-difference Jacobians; with it
  // every free-flight step of this implementation stalls at 30 iterations (docs/deviations.md).
  double primal_regularization = 0.0;
  double dual_regularization = 0.0;
  double inner_rho = 1e-4;             // P14 relaxation (the authors' code, Figs. 9-10)
  double inner_residual_tolerance = 1e-5;
  int inner_max_iterations = 20;

  template <class V>
  void VisitFields(V&& v) {
    v("timestep", timestep, "step length", "s", kTimestepRange);
    v("rho", rho, "outer complementarity relaxation z o s = rho", "", kRelaxationRange);
    v("residual_tolerance", residual_tolerance, "outer solver tolerance; 0 = rho / 10", "", kResidualToleranceRange);
    v("max_iterations", max_iterations, "outer interior-point iterations per step (a step reaching it fails)", "",
      kStepIterationRange);
    v("jacobian", jacobian,
      "outer Jacobian: finite differences through the nested solves (Figs. 9-10) or the IFT chain "
      "rule (Fig. 11)", "");
    v("compressed", compressed, "outer solve: eliminate the slacks before factorizing", "");
    v("linear_solver", linear_solver, "outer solve's factorization: dense_lu or sparse_lu (Eigen's SparseLU)", "");
    v("primal_regularization", primal_regularization, "outer: +eps on the primal diagonal of the Jacobian", "",
      kRegularizationRange);
    v("dual_regularization", dual_regularization, "outer: -eps on the dual diagonal of the Jacobian", "",
      kRegularizationRange);
    v("inner_rho", inner_rho, "relaxation of the nested collision program P14", "", kRelaxationRange);
    v("inner_residual_tolerance", inner_residual_tolerance, "tolerance of the nested P14 solves", "",
      Closed(1e-14, 1e-3));
    v("inner_max_iterations", inner_max_iterations, "iteration cap of each nested P14 solve", "",
      kStepIterationRange);
  }
  std::string Validate() const;
  InteriorPointOptions Outer() const;
  InteriorPointOptions Inner() const;
};

class BilevelSimulator final : public SimulatorBase<BilevelSimulator, BilevelOptions> {
 public:
  /// Throws InvalidArgument for bad options, Unsupported for scenes silico's pairs reject.
  BilevelSimulator(std::shared_ptr<const Scene> scene, const BilevelOptions& options);

  static constexpr std::string_view kName = "bilevel";
  static Capabilities CapabilitiesFor(const BilevelOptions& options);



  /// The last step: outer solver report, nested-solve counters (of the solve only) and the
  /// inner answers at the new poses.
  const InteriorPointReport& last_solve() const { return last_solve_; }
  const bilevel::InnerStatistics& last_inner() const { return last_inner_; }
  const std::vector<bilevel::InnerContact>& last_contacts() const { return last_contacts_; }
  const bilevel::OuterProblem& problem() const { return *problem_; }
  const InteriorPointSolver& solver() const { return solver_; }

  static constexpr double kContactPsdf = 1e-3;
  bool ReportsContactPoints() const override { return true; }

 protected:
  /// Report: iterations = outer iterations; contacts = pairs whose P-SDF at the new poses is
  /// below max(kContactPsdf, sqrt(rho)) with a positive normal impulse; min_signed_distance is
  /// not computed (P-SDF values are not distances); solve_time_s = the outer solve only.
  StepReport DoStep(State& state, const Control& control) override;
  std::vector<ContactPoint> DoContactPoints() override { return step_points_; }

 private:
  void RecordContactPoints(const State& end);
  std::unique_ptr<bilevel::OuterProblem> problem_;
  InteriorPointSolver solver_;
  InteriorPointReport last_solve_;
  bilevel::InnerStatistics last_inner_;
  std::vector<bilevel::InnerContact> last_contacts_;
  MultibodyData data_;                      // kinematics of the criteria's gaps
  std::vector<ContactPoint> step_points_;  // the last taken step's
};

}  // namespace arena
