// `nimble`: velocity-level LCP time stepping on articulated bodies (Werling et al., "Fast and
// Feature-Complete Differentiable Physics for Articulated Rigid Bodies with Contact", RSS 2021,
// seed 002 Sec. III, App. A-B), as its code (a DART fork) steps:
//   v* = v + dt M^-1 (tau - c(q, v))                      (tau: actuators and passive forces)
//   A = J M^-1 J^T,  w = J v+ = A f - b,  b = -J v*       (solvers/boxed_lcp.h convention)
//   f: boxed LCP, 3 rows per contact (normal; two ODE tangents, box +-mu f_n), solved by the
//      pipeline of solvers/contact_lcp_solver.h (warm start, Dantzig, PGS, stabilization)
//   v+ = v* + M^-1 J^T f
//   restitution e of a pair (the larger of its colliders'): a normal row approaching faster
//      than 0.1 m/s must leave at e times that speed (DART's bounce: b_n += -e (J v*)_n)
//   q+ = q (+) dt v        (Nimble's parallel update: positions move with the pre-step
//                           velocity, Sec. III; `parallel_position_update` = false uses v+)
// No penetration correction (Nimble turns DART's ERP off); contacts deeper than
// `max_contact_depth` are dropped, as Nimble's detector does. Contacts come from
// models/point_contact/contact_kernels.h (the pairs penalty supports), reduced to the corners of each flat
// patch's 2D convex hull (models/nimble/contact_reduction.h; `hull_contacts`).
//
// Derivatives() gives the analytical Jacobians of a step (Sec. IV-V; models/nimble/
// nimble_derivatives.cc explains the formulation).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/common/options.h"
#include "core/multibody/data.h"
#include "models/point_contact/contact_kernels.h"
#include "models/nimble/contact_rows.h"
#include "models/option_ranges.h"
#include "models/simulator.h"
#include "solvers/contact_lcp_solver.h"

namespace arena {

struct NimbleOptions {
  double timestep = 0.001;              // s (DART's default)
  bool parallel_position_update = true;  // q+ from the pre-step velocity (Nimble)
  double max_contact_depth = 0.03;      // m; deeper contacts are dropped (Nimble)
  bool warm_start = true;               // guess last step's active set first (App. B)
  bool stabilize = true;                // minimum-norm impulses on the active set (App. B)
  bool stabilize_degenerate = true;     // ... on the set widened by the contacts at rest (ours)
  bool hull_contacts = true;            // keep the hull corners of each flat patch (App. C, Fig. 1)
  bool complementarity_aware = false;   // Backprop: also try the loss-guided classes (Sec. IV-D)
  bool bounce_approximation = true;     // dq+/d(q, v) of bouncing contacts (Sec. VI, App. E)
  bool design_derivatives = true;       // dv+/d(link masses) in Derivatives (Sec. III eq. 10)
  LcpMethod lcp_solver = LcpMethod::kDantzig;   // the cold solve (Nimble: Dantzig)
  std::string lcp_fallbacks = "pgs,frictionless";  // tried in turn when it fails (Nimble's chain)
  double lcp_tolerance = 1e-5;          // LcpViolation a solution must meet (Nimble's 1e-5)
  int pgs_max_sweeps = 10000;           // PGS's sweep cap (Nimble before June 2021)
  double pgs_tolerance = 1e-8;          // PGS stops below this violation
  double dantzig_cycling_cfm = 0.0;     // retry a failed Dantzig solve on A + this x max A_ii (0: off)
  int dantzig_box_updates = 50;         // re-solves with friction boxes from the last normals (0: ODE)

  template <class V>
  void VisitFields(V&& v) {
    v("timestep", timestep, "step length", "s", kTimestepRange);
    v("parallel_position_update", parallel_position_update,
      "integrate positions with the pre-step velocity (Nimble's World); false: with v+", "");
    // 1 um drops even resting contacts; 100 m keeps every contact of a large step (docs/models/nimble.md
    // runs box_drop with 10).
    v("max_contact_depth", max_contact_depth, "contacts deeper than this are dropped", "m", Closed(1e-6, 100.0));
    v("warm_start", warm_start, "try the previous step's LCP active set before solving", "");
    v("stabilize", stabilize, "replace the LCP solution by the minimum-norm one on its active set", "");
    v("stabilize_degenerate", stabilize_degenerate,
      "stabilization also loads the contacts touching at rest with zero impulse (redundant contacts share the "
      "load; not in Nimble)",
      "");
    v("hull_contacts", hull_contacts,
      "keep only the strict 2D hull corners of each flat contact patch, as Nimble's detector does", "");
    v("complementarity_aware", complementarity_aware,
      "Backprop also tries the classes the loss gradient asks for and keeps the larger gradient (Sec. IV-D)", "");
    v("bounce_approximation", bounce_approximation,
      "position Jacobians of elastic bounces from the continuous-time map dp+/dp = -restitution (Sec. VI); "
      "needs parallel_position_update",
      "");
    v("design_derivatives", design_derivatives,
      "differentiate the step with respect to the link masses (design parameters mass:<body>)", "");
    v("lcp_solver", lcp_solver, "method of a cold LCP solve (lemke: standard LCPs only, so frictionless contacts)", "");
    v("lcp_fallbacks", lcp_fallbacks,
      "stages tried in turn when the solve fails: a comma-separated list of dantzig, pgs (on A + 1e-4 I), lemke, "
      "frictionless (friction rows zero, by Dantzig), or none",
      "");
    v("lcp_tolerance", lcp_tolerance, "largest complementarity violation a solution may have", "", Closed(1e-14, 1.0));
    v("pgs_max_sweeps", pgs_max_sweeps, "PGS's sweep cap", "", Closed(1, 100000000));
    v("pgs_tolerance", pgs_tolerance, "PGS stops once its violation is below this", "", Closed(1e-16, 1.0));
    v("dantzig_cycling_cfm", dantzig_cycling_cfm,
      "retry a failed Dantzig solve once on A + eps I, eps = this times A's largest diagonal entry (0: no retry)",
      "", Closed(0.0, 1e-2));
    v("dantzig_box_updates", dantzig_box_updates,
      "Dantzig re-solves with every friction box fixed at mu times the last normal impulse, until the answer is "
      "valid (0: stop after one solve, as ODE)",
      "", Closed(0, 1000));
  }
  std::string Validate() const;
};

class NimbleSimulator final : public SimulatorBase<NimbleSimulator, NimbleOptions> {
 public:
  /// Throws Unsupported for a planar scene or a collider pair without a kernel,
  /// InvalidArgument for bad options.
  NimbleSimulator(std::shared_ptr<const Scene> scene, const NimbleOptions& options);

  static constexpr std::string_view kName = "nimble";
  static Capabilities CapabilitiesFor(const NimbleOptions& options);


  /// One step of backpropagation (as Nimble's code chains it): given the loss gradient at
  /// (q+, v+) (q+ in tangent coordinates), the gradient at (q, v, u). Standard: the transposed
  /// Jacobians of Derivatives(). With `complementarity_aware`, also the gradient through the
  /// classes the loss asks for (normal rows clamp iff the descent direction pushes into contact,
  /// friction rows released; Sec. IV-D), keeping the one with the larger |l_v| + |l_u| / dt.
  /// Returns true when that alternative was chosen. The outputs may be the inputs (a backward
  /// loop). `loss_p` (optional): the link masses' gradient, empty without design parameters.
  /// Simulator::Vjp calls it; it is public for the model's own tests.
  bool Backprop(const State& state, const Control& control, const VecX& loss_q_next, const VecX& loss_v_next,
                VecX* loss_q, VecX* loss_v, VecX* loss_u, VecX* loss_p = nullptr);

  /// Design parameters: the mass of every body that has one ("mass:<body>"), when the option
  /// design_derivatives is on. SetDesignParameters throws InvalidArgument for a non-positive or
  /// non-finite mass or a wrong size.
  std::vector<std::string> DesignParameterNames() const override;
  VecX DesignParameters() const override;
  void SetDesignParameters(const VecX& p) override;

  /// The LCP warm start's statistics since construction (lcp_warmstart experiment):
  /// lcp_warm_start_attempts, lcp_warm_start_hits, and lcp_solved_by_<path> for every path
  /// of ContactLcpPath.
  std::vector<ModelCounter> Counters() const override;
  const ContactLcpSolver& lcp_solver() const { return lcp_; }
  /// The LCP solution of the last Step or Derivatives (empty without contacts): its active set
  /// says which rows clamp, slide or separate.
  const ContactLcpSolution& last_lcp_solution() const { return impulses_; }
  bool ReportsContactPoints() const override { return true; }

 protected:
  StepReport DoStep(State& state, const Control& control) override;
  /// Right after Step from the same (q, v, u) it reuses that step's contacts and LCP solution
  /// (Nimble's backprop snapshot: the Jacobians then cost what Table II times); otherwise it
  /// solves the step's velocity part first, with its own warm start.
  void DoDerivatives(const State& state, const Control& control, StepDerivatives* out) override;
  /// Backprop, plus the design parameters' gradient when the model has them.
  void DoVjp(const State& state, const Control& control, const VecX& dl_dq_next, const VecX& dl_dv_next,
             StepGradient* out) override;
  std::vector<ContactPoint> DoContactPoints() override { return step_points_; }

 private:
  void RecordContactPoints();
  // Contacts at the current kinematics (data_ after ForwardKinematics).
  void FindContacts(std::vector<nimble::Contact>* out, double* min_signed_distance);
  // The velocity part of a step: v_next_ and its pieces in the workspace (contacts_, J_,
  // lcp_problem_, impulses_; data_ with the poses at q), remembered as the snapshot of
  // (q, v, u). `solver` keeps the warm start.
  void SolveVelocity(const State& state, const Control& control, ContactLcpSolver& solver,
                     StepReport* report);
  bool SnapshotIs(const State& state, const Control& control) const;
  // Validates the state and makes the workspace the snapshot of (state, control).
  void PrepareDerivatives(const State& state, const Control& control);
  // The Jacobians of the snapshot's step with the rows' classes of `set` held.
  void Jacobians(const State& state, const Control& control, const LcpActiveSet& set, StepDerivatives* out);

  std::vector<contact::ColliderGeometry> geometry_;
  std::vector<nimble::ColliderPair> pairs_;
  ContactLcpSolver lcp_;
  ContactLcpSolver derivatives_lcp_;  // Derivatives' own warm start: Step's statistics stay Step's

  // Workspace.
  MultibodyData data_;
  std::vector<nimble::Contact> contacts_;
  MatX J_;                    // contact rows x nv
  std::vector<int> first_row_;  // of each contact in J_
  BoxedLcp lcp_problem_;
  ContactLcpSolution impulses_;
  VecX v_star_;                // v + dt M^-1 (tau - c): before the impulses
  VecX v_next_;
  VecX restitution_target_;     // per row: the bounce's required (J v+)_n, 0 when none
  std::vector<int> mass_bodies_;  // bodies whose masses are the design parameters
  // The (q, v, u) the workspace belongs to.
  bool snapshot_valid_ = false;
  VecX snapshot_q_, snapshot_v_, snapshot_u_;
  std::vector<contact::ContactPointT<double>> points_;
  std::vector<ContactPoint> step_points_;  // the last DoStep's contacts and forces
};

}  // namespace arena
