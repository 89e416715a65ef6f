// The shared base of the incremental-potential models (IPC, long-range contact of seed 004,
// SDRS of seed 003): a step minimises StepEnergy (models/incremental_potential/step_energy.h) over the next
// configuration with projected Newton (solvers/projected_newton.h), the step bounded so that no
// iterate leaves the joint limits or crosses a contact barrier, and v+ = (q+ (-) q^t) / dt.
// Derivatives() follow from the implicit function theorem at the minimiser,
//   H d(eps)/dy = -d(grad E)/dy,  y = (q^t, v^t, u),
// with H the exact Hessian in the tangent coordinates of q+ (seed 003 Sec. IV-D, seed 004
// Sec. 3.1); dv+ comes from differentiating Integrate(q^t, dt v+) = q+.
//
// A model derives from it and supplies its contact potential (models/incremental_potential/contact_potential.h).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/incremental_potential/collider_meshes.h"
#include "models/incremental_potential/step_energy.h"
#include "models/option_ranges.h"
#include "models/simulator.h"
#include "solvers/projected_newton.h"

namespace arena {

/// The options every incremental-potential model shares (its Options embed them).
struct IpOptions {
  double timestep = 0.04;            // s (seed 004's Table 3 uses 0.04 for most tasks)
  bool lumped_mass = true;           // vertex-lumped masses (the papers) or exact rigid inertia
  double newton_tolerance = 1e-10;   // |Newton step|_inf at convergence (m, rad) ...
  double gradient_tolerance = 1e-8;  // ... or |grad E|_inf (energy units per m or rad)
  int max_newton_iterations = 200;
  NewtonMethod solver = NewtonMethod::kLineSearch;  // newton (line search) or lm
  CholeskySolver linear_solver = CholeskySolver::kDense;  // of the Newton systems
  double limit_width = 1e-2;         // joint-limit barrier width (rad or m)
  double limit_stiffness = 1e3;      // joint-limit barrier scale
  int sphere_vertices = 96;          // tessellation of spheres (2V - 4 triangles)
  double box_max_edge = 0.0;         // m: 0 = a box's 12 triangles, else faces gridded this fine
  GroundMesh ground_mesh = GroundMesh::kBox;  // a half-space as a box or its top face alone

  template <class V>
  void VisitFields(V&& v) {
    v("timestep", timestep, "step length", "s", kTimestepRange);
    v("lumped_mass", lumped_mass, "inertia from vertex-lumped masses (true, as the papers) or the exact rigid-body inertia", "");
    v("newton_tolerance", newton_tolerance, "Newton stops when its step's largest entry is below this", "m or rad", Closed(1e-14, 1e-3));
    v("gradient_tolerance", gradient_tolerance, "... or the energy gradient's largest entry is below this", "", Closed(1e-14, 1.0));
    v("max_newton_iterations", max_newton_iterations, "Newton iterations per step", "", Closed(1, 10000));
    v("solver", solver,
      "newton (projected Newton with a backtracking line search) or lm (Levenberg-Marquardt steps, seed 003's "
      "outer loop)", "");
    v("linear_solver", linear_solver,
      "factorization of the Newton systems: dense_llt or sparse_llt (simplicial, AMD ordering; for hundreds of DOF "
      "with few bodies touching)", "");
    v("limit_width", limit_width, "the joint-limit barrier acts within this distance of a limit", "rad or m", LeftOpen(0.0, 1.0));
    v("limit_stiffness", limit_stiffness, "scale of the joint-limit barrier", "N m or N", LeftOpen(0.0, 1e9));
    v("sphere_vertices", sphere_vertices, "vertices of a tessellated sphere (Fibonacci points)", "", Closed(12, 100000));
    v("box_max_edge", box_max_edge, "0: a box is its 12 triangles; else each face is a grid of cells at most this long",
      "m", ZeroOr(Closed(1e-3, 1e3)));
    v("ground_mesh", ground_mesh,
      "a half-space as a 100 m wide, 1 m deep box (box, 12 triangles) or its top face alone (top, 2 triangles)", "");
  }
  /// "" when valid, else the problem.
  std::string Validate() const;
  StepEnergyOptions Energy() const;
  /// How the colliders become the meshes the contact potential sees.
  ColliderMeshOptions Meshes() const;
  NewtonOptions Newton() const;
};

/// What every incremental-potential model supports: spatial and articulated scenes with meshable
/// shapes, analytical derivatives; `smooth` is the model's contact potential's own property.
Capabilities IpCapabilities(bool smooth);

/// Seed 003 Table II breaks a step down as Simulator::last_solve_breakdown does: the contact
/// potential (BeginStep and every evaluation), the step bound along the line searches' paths, and
/// the Newton systems; the rest of a step (kinematics, inertia, joint terms, assembly) is its
/// total minus these. The base offers its meshes and potential (MeshPotential) and its design
/// vertices (DesignVertices) through the Simulator contract.
class IncrementalPotentialSimulator : public Simulator, public MeshPotential, public DesignVertices {
 public:
  /// Builds the collider meshes, then the contact potential with `make_contact` (null: none).
  /// Throws Unsupported for shapes without a mesh or actuators on multi-DOF joints,
  /// InvalidArgument for bad options.
  using ContactFactory = std::function<std::unique_ptr<ContactPotential>(const std::vector<ColliderMesh>&)>;
  IncrementalPotentialSimulator(std::shared_ptr<const Scene> scene, const IpOptions& options,
                                const ContactFactory& make_contact);
  ~IncrementalPotentialSimulator() override;

  const Scene& scene() const override { return *scene_; }
  double timestep() const override { return options_.timestep; }
  /// The last step's Newton report.
  const NewtonReport& last_newton() const { return newton_; }
  const SolveBreakdown* last_solve_breakdown() const override { return &solve_breakdown_; }
  const std::vector<ColliderMesh>& meshes() const override { return energy_->meshes(); }
  bool ReportsContactPoints() const override { return contact_ != nullptr; }
  bool ReportsContactForces() const override { return contact_ != nullptr; }
  /// Null when the model has no contact potential.
  MeshPotential* mesh_potential() override { return contact_ != nullptr ? this : nullptr; }
  /// The contact potential on its own and the meshes' world configuration at q: for timing the
  /// potential without the step around it (experiments/potential_scaling/potential_scaling.h).
  /// contact_potential() needs mesh_potential() non-null.
  ContactPotential& contact_potential() override { return *contact_; }
  void MeshConfiguration(const VecX& q, ContactConfiguration* out) override { energy_->WorldVertices(q, out); }
  /// Every incremental-potential model answers (with no ids when it made no design vertices).
  const DesignVertices* design_vertices() const override { return this; }

  /// Design parameters (when the model made some vertices design vertices): the body-frame
  /// position of each, "vertex:<collider>:<row>:<x|y|z>", with dq+/dp and dv+/dp by the implicit
  /// function theorem (StepEnergy::DesignJacobian).
  std::vector<std::string> DesignParameterNames() const override;
  /// The design vertices in the parameters' order (DesignVertices).
  std::vector<DesignVertexId> DesignVertexIds() const override;
  VecX DesignParameters() const override;
  /// Throws InvalidArgument for a wrong size or a non-finite entry, naming the parameter.
  void SetDesignParameters(const VecX& p) override;
  MatX BodyPointDesignJacobian(const VecX& q, int body) const override;

 protected:
  StepReport DoStep(State& state, const Control& control) override;
  void DoDerivatives(const State& state, const Control& control, StepDerivatives* out) override;
  std::vector<ContactPoint> DoContactPoints() override;
  ContactPotential* contact() { return contact_.get(); }
  const ContactPotential* contact() const { return contact_.get(); }
  /// Makes the body-frame positions of these mesh vertices the design parameters (vertices of
  /// bodies no DOF moves are dropped). For models whose contact potential gives every point it
  /// differentiates as a mesh vertex (MeshPoint::vertex), as sdrs's hull potential does.
  void SetDesignVertices(std::vector<StepEnergy::DesignVertex> design);
  /// Makes each joint whose attachment point (the joint frame's origin in the parent) lies inside
  /// a parent mesh of design vertices follow them, as a fixed convex combination of that mesh's
  /// vertices (models/incremental_potential/attachment_weights.h), so the design moves joints too (dq+/dp through
  /// StepEnergy::AttachmentJacobian); other joints stay. The model then works on its own copy of
  /// the scene.
  void FollowAttachments();

 private:
  // Minimises the step energy from `state`; leaves the minimiser in q_next_.
  NewtonReport Solve(const State& state, const Control& control);

  std::shared_ptr<const Scene> scene_;
  IpOptions options_;
  std::unique_ptr<ContactPotential> contact_;
  std::unique_ptr<StepEnergy> energy_;
  NewtonReport newton_;
  SolveBreakdown solve_breakdown_;
  VecX q_next_;
  bool stepped_ = false;  // q_next_ is the end of a taken step
  // The (q, v, u) whose minimiser q_next_ holds: Derivatives after Step reuses it.
  bool snapshot_valid_ = false;
  State snapshot_state_;
  VecX snapshot_u_;
  // The exact gradient and Hessian at q_next_ when the solve's last evaluation made them there
  // (Derivatives then does not evaluate them again).
  bool end_derivatives_valid_ = false;
  VecX end_gradient_;
  MatX end_hessian_;
  std::vector<StepEnergy::DesignVertex> design_;
  // Joints that follow the design vertices: the body and its (design vertex, weight) pairs.
  struct Attachment {
    int body = 0;
    std::vector<std::pair<int, double>> weights;
  };
  std::vector<Attachment> attachments_;
  std::shared_ptr<Scene> own_scene_;  // the copy whose joint placements the design moves
  // The weights of body c's attachment point a over the design vertices of the first of its
  // parent's meshes that holds a with every vertex designed (empty: none does).
  std::vector<std::pair<int, double>> AttachmentIn(int c, const std::map<std::pair<int, int>, int>& design_index) const;
};

/// The accessors of an incremental-potential model written once (CRTP, as SimulatorBase):
/// name() is Model::kName, capabilities() the static Model::CapabilitiesFor(options()), and the
/// model's Options (which embed IpOptions as `ip`) are kept here.
template <class Model, class Options>
class IncrementalPotentialModel : public IncrementalPotentialSimulator {
 public:
  std::string_view name() const override { return Model::kName; }
  Capabilities capabilities() const override { return Model::CapabilitiesFor(options_); }
  const Options& options() const { return options_; }

 protected:
  IncrementalPotentialModel(std::shared_ptr<const Scene> scene, const Options& options, const ContactFactory& make_contact)
      : IncrementalPotentialSimulator(std::move(scene), options.ip, make_contact), options_(options) {}

  Options options_;
};

}  // namespace arena
