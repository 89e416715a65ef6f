// `silico`: the single-level differentiable contact model of seed 000 (Le Cleac'h, Schwager,
// Manchester, Sindhwani, Florence, Singh, "Single-Level Differentiable Contact Simulation",
// RA-L 2023). Collision detection (the alpha-scaling program, Sec. IV-A) and contact dynamics
// (Sec. IV-B) are one complementarity problem (eq. 20), solved each step by the primal-dual
// interior-point method of solvers/interior_point.h at a relaxation rho (Sec. V-C). Step
// derivatives come from the implicit function theorem at a chosen relaxation (Sec. V-D).
//
// Planar scenes: bodies on planar joints to the world, 2D shapes (polygons, padded polygons,
// disks, capsules; the half-plane floor; shapes fixed in the world). Each convex collider pair
// is one contact with its own contact point; a body with several colliders is a union
// ("convex bundle", Sec. VI-A). The body state is the paper's: the pose (x, y, theta) and the
// midpoint velocity, updated as p3 = p2 + dt v25 (as the authors' released code steps it).
//
// Spatial scenes (spatial_problem.h): bodies on free joints to the world (or fixed), 3D shapes
// (box, convex hull, sphere, ellipsoid, capsule, cylinder, cone; the half-space floor), body
// dynamics with Dojo's discrete Euler-Lagrange rotation update, friction as the paper's pyramid
// or a second-order cone (option friction_cone). Step derivatives in both (IFT, Sec. V-D).
#pragma once

#include <memory>
#include <string>

#include "core/common/options.h"
#include "core/multibody/data.h"
#include "models/option_ranges.h"
#include "models/silico/planar_problem.h"
#include "models/silico/spatial_problem.h"
#include "models/simulator.h"
#include "solvers/interior_point.h"

namespace arena {

struct SilicoOptions {
  double timestep = 0.01;                  // s
  double rho = 1e-4;                       // complementarity relaxation (the solver's target)
  double residual_tolerance = 0.0;         // 0: rho / 10, the paper's sweeps
  int max_iterations = 30;                 // the paper counts a step reaching 30 as a failure
  bool warm_start = false;                 // the paper's sweeps start every step cold
  double warm_start_backstep = 1e-2;
  bool compressed = true;
  LinearSolver linear_solver = LinearSolver::kDenseLu;  // the Newton system's factorization
  double primal_regularization = 0.0;
  double dual_regularization = 0.0;
  double derivative_rho = 0.0;             // relaxation of Derivatives(); 0: rho
  std::string friction_cone = "pyramid";   // spatial scenes: "pyramid" (the paper's) or "soc"

  template <class V>
  void VisitFields(V&& v) {
    v("timestep", timestep, "step length", "s", kTimestepRange);
    v("rho", rho, "complementarity relaxation z o s = rho (the solver's complementarity_tolerance)", "",
      kRelaxationRange);
    v("residual_tolerance", residual_tolerance, "solver tolerance on the residual; 0 = rho / 10", "",
      kResidualToleranceRange);
    v("max_iterations", max_iterations, "interior-point iterations per step (a step reaching it fails)", "",
      kStepIterationRange);
    v("warm_start", warm_start, "start each step from the previous solution (+ backstep)", "");
    v("warm_start_backstep", warm_start_backstep, "added to the duals and slacks on a warm start", "",
      Closed(0.0, 1.0));
    v("compressed", compressed, "eliminate the slacks before factorizing", "");
    v("linear_solver", linear_solver,
      "factorization of the Newton system: dense_lu (hand-written, tens of unknowns) or sparse_lu (Eigen's "
      "SparseLU with COLAMD, for many bodies and contacts)", "");
    v("primal_regularization", primal_regularization, "+eps on the primal diagonal of the Jacobian", "",
      kRegularizationRange);
    v("dual_regularization", dual_regularization, "-eps on the dual diagonal of the Jacobian", "",
      kRegularizationRange);
    v("derivative_rho", derivative_rho, "relaxation at which Derivatives() differentiates; 0 = rho", "",
      ZeroOr(kRelaxationRange));
    v("friction_cone", friction_cone,
      "spatial scenes: pyramid (4 directions, the paper's) or soc (second-order cone, Dojo-style)", "");
  }
  std::string Validate() const;
  InteriorPointOptions Solver(double relaxation) const;
};

class SilicoSimulator final : public SimulatorBase<SilicoSimulator, SilicoOptions> {
 public:
  SilicoSimulator(std::shared_ptr<const Scene> scene, const SilicoOptions& options);

  static constexpr std::string_view kName = "silico";
  static Capabilities CapabilitiesFor(const SilicoOptions& options);



  /// The last step's solver report and problem (tests and experiments read the solution).
  const InteriorPointReport& last_solve() const { return last_solve_; }
  /// The planar problem (throws Unsupported for a spatial scene) / the spatial one (null for
  /// a planar scene).
  const silico::PlanarProblem& problem() const;
  const silico::SpatialProblem* spatial_problem() const { return spatial_.get(); }
  const InteriorPointSolver& solver() const { return solver_; }
  bool ReportsContactPoints() const override { return true; }

 protected:
  StepReport DoStep(State& state, const Control& control) override;
  void DoDerivatives(const State& state, const Control& control, StepDerivatives* out) override;
  std::vector<ContactPoint> DoContactPoints() override { return step_points_; }

 private:
  void RecordSpatialContactPoints(const State& end);
  void RecordPlanarContactPoints(const State& end);
  // Loads (p2, v15, u) of `state` into the problem.
  void Load(const State& state, const Control& control);
  StepReport FinishSpatial(State& state, StepReport report);
  // Solves the step at the derivative relaxation and differentiates it (IFT): returns the
  // primals, dw = d(y, z, s)/d theta. Throws Error when the solve fails.
  VecX DifferentiateStep(const State& state, const Control& control, MatX* dw);
  void SpatialDerivatives(const State& state, const VecX& y, const MatX& dw, StepDerivatives* out) const;
  void ReportConvergence(StepReport* report) const;
  ComplementarityProblem& active_problem();

  std::unique_ptr<silico::PlanarProblem> problem_;   // planar scenes
  std::unique_ptr<silico::SpatialProblem> spatial_;  // spatial scenes
  InteriorPointSolver solver_;
  InteriorPointReport last_solve_;
  MultibodyData data_;                      // kinematics of the criteria's gaps
  std::vector<ContactPoint> step_points_;  // the last taken step's
};

}  // namespace arena
