// The Simulator contract every contact model implements (docs/design.md, "The Simulator
// contract").
//
// A Simulator is built by the registry (models/registry.h) from a shared const Scene and the
// model's Options. It owns its workspace (warm starts, scratch), so one instance serves one
// thread; the Scene is shared.
//
// The public calls are not virtual: Step, Derivatives and Vjp do the work every model shares
// (input sizes, finiteness, timing, keeping the state on failure) and then call the model's
// DoStep / DoDerivatives / DoVjp. Step never throws on numerical trouble: it reports it in the
// StepReport (status, iterations, residual), so a sweep keeps going and records the failure.
#pragma once

#include <bitset>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/scene/scene.h"
#include "models/step_validity_options.h"

namespace arena {

class StepValidity;  // models/step_validity.h

/// Where a model's step derivatives come from. Every output that carries a gradient says which.
enum class DerivativeSource { kNone, kAnalytical, kFiniteDifferences };
std::string_view ToString(DerivativeSource source);  // "none", "analytical", "finite_differences"

/// What a model can simulate and differentiate. Experiments ask before running a scene. A
/// model's capabilities may depend on its options (nimble without design derivatives).
struct Capabilities {
  bool planar = false;            // 2D scenes (planar joints, 2D shapes)
  bool spatial = false;           // 3D scenes
  bool articulated = false;       // trees deeper than one joint from the world
  std::bitset<kNumShapeTypes> shapes;  // supported collider shape types
  DerivativeSource derivatives = DerivativeSource::kNone;  // d(q+, v+)/d(q, v, u)
  bool design_derivatives = false;  // d(q+, v+)/d(design parameters)
  bool smooth = false;             // contact forces are differentiable functions of the state
  bool engine = false;             // a wrapped third-party engine (MuJoCo, DART), not our code

  bool Supports(ShapeType t) const { return shapes.test(static_cast<size_t>(t)); }
  bool has_derivatives() const { return derivatives != DerivativeSource::kNone; }
  /// One line such as "planar spatial articulated | sphere box half_space | analytical".
  std::string ToString() const;
};

/// Empty when a model with these capabilities can simulate `scene`; otherwise the reason
/// ("shape 'mesh' of collider 'l_foot' is not supported").
std::string CheckSupport(const Capabilities& caps, const Scene& scene);
/// CheckSupport, and "no step derivatives" for a model without them: why a gradient-based
/// experiment cannot run the model on `scene` ("" when it can).
std::string CheckGradientSupport(const Capabilities& caps, const Scene& scene);

/// kInvalid: the step was taken but its result is not physical (models/step_validity.h: energy
/// created, a body flung or teleported, colliders overlapping beyond the model's allowance).
enum class StepStatus { kOk, kNotConverged, kNonFinite, kError, kInvalid };
std::string_view ToString(StepStatus status);

struct StepReport {
  StepStatus status = StepStatus::kOk;
  int iterations = 0;                 // solver iterations (1 for explicit models)
  double residual = std::numeric_limits<double>::quiet_NaN();  // NaN: not computed
  int contacts = 0;                   // active contacts after the step
  // A fingerprint of the discrete contact state the step chose (nimble: the LCP rows' classes),
  // 0 when the model does not tell. Steps with the same contacts and mode lie on one smooth piece
  // of the step map, so finite differences across a change of either are not derivatives.
  std::uint64_t contact_mode = 0;
  double min_signed_distance = std::numeric_limits<double>::infinity();  // m, < 0: penetration
  // The whole Step call, the same for every model: input checks, the model's step and the
  // output checks (set by Simulator::Step; Derivatives and Vjp are not included).
  double wall_time_s = 0.0;
  // The model's own solver, where it has one (silico and bilevel: the interior-point solve, the
  // "solve time" of seed 000 Fig. 11); NaN when the model does not separate it.
  double solve_time_s = std::numeric_limits<double>::quiet_NaN();
  std::string message;                // why, when status != kOk

  bool ok() const { return status == StepStatus::kOk; }
  /// The state did not move (kNonFinite, kError) or moved somewhere unphysical (kInvalid): a
  /// rollout cannot go on from it. A step that did not converge is taken and the run may go on.
  bool ends_run() const { return status != StepStatus::kOk && status != StepStatus::kNotConverged; }
  /// The solver's time where the model separates it, else the whole step's.
  double solve_or_wall_time_s() const { return solve_time_s == solve_time_s ? solve_time_s : wall_time_s; }
};

/// Jacobians of one step (q, v, u) -> (q+, v+). Configuration perturbations live in the
/// tangent space: column i of dq_dq is difference(q+(q), q+(integrate(q, eps e_i))) / eps,
/// so every q-block is nv x nv.
struct StepDerivatives {
  MatX dq_dq, dq_dv, dq_du;
  MatX dv_dq, dv_dv, dv_du;
  MatX dq_dp, dv_dp;  // design parameters; empty unless capabilities().design_derivatives
};

/// A vector-Jacobian product of one step: given the gradient of a loss at (q+, v+) (q+ in
/// tangent coordinates), its gradient at (q, v, u) and at the design parameters p.
struct StepGradient {
  VecX q, v, u, p;  // nv, nv, nu, and the number of design parameters (empty without)
  // The model chose another gradient than the transposed Jacobians of Derivatives() (nimble with
  // complementarity_aware: the classes the loss asks for, seed 002 Sec. IV-D).
  bool alternative = false;
};

/// The position blocks of a step whose positions move with the new velocity,
/// q+ = q (+) dt v+: dq+/dx = [x = q] dq+/dq|_v+ + dt d(q (+) w)/dw dv+/dx, from the dv+/d*
/// blocks already in `out` (semi-implicit Euler; penalty, nimble without its parallel update).
void ChainSemiImplicitPositions(const MultibodyModel& model, const VecX& q, const VecX& v_next, double dt,
                                StepDerivatives* out);

/// The net contact force one body exerts on another (world frame).
struct BodyPairForce {
  int body_a = kWorldBody;   // the body the force acts on (kWorldBody: the environment)
  int body_b = kWorldBody;   // the body that exerts it
  Vec3 force_on_a = Vec3::Zero();  // N
};

/// One contact point of the last step as the model resolved it (Simulator::ContactPoints). The
/// physical criteria of contact (models/contact_criteria.h) are measured on these, the same way
/// for every model.
struct ContactPoint {
  int body_a = kWorldBody;        // the body the force acts on (kWorldBody: the environment)
  int body_b = kWorldBody;        // the body that exerts it
  Vec3 position = Vec3::Zero();   // world, m
  Vec3 normal = Vec3::UnitZ();    // unit, world, from body_b towards body_a
  double gap = 0.0;               // signed distance of the pair along the normal, m (< 0: penetration)
  // Whether position and gap are those of the step's start (time-stepping models detect their
  // contacts there) or of its end (the incremental-potential models' contacts at q+).
  bool at_start = true;
  Vec3 force_on_a = Vec3::Zero();  // N, normal and friction: the step's contact impulse on a / dt
  double friction = 0.0;           // the pair's Coulomb coefficient
  // N: the friction law's share of force_on_a, where the model keeps it apart (the
  // incremental-potential models' lagged friction); zero where it does not.
  Vec3 friction_on_a = Vec3::Zero();
};

/// The net contact forces of `points` summed per pair of bodies, one entry per pair in the order
/// of its first point (a pair met as (b, a) is added with its sign flipped), friction aside
/// (force_on_a - friction_on_a): the reduction behind Simulator::ContactForces.
std::vector<BodyPairForce> SumPairForces(const std::vector<ContactPoint>& points);

/// A named count a model keeps since construction (nimble: how its LCPs were solved).
struct ModelCounter {
  std::string name;  // snake_case, e.g. "lcp_warm_start_hits"
  std::int64_t value = 0;
};

// --- Optional interfaces -------------------------------------------------------------------
// What some models have and others do not, typed: Simulator returns each by pointer, null by
// default; a model that has one overrides the getter. An experiment asks for the interface and
// skips (or refuses, naming the model) a model that returns null, so no experiment, harness or
// trajectory code names a model's class. tests/models/conformance_test.cc checks, for every
// registered model, that each interface is null or consistent with the model's other outputs.

struct ColliderMesh;          // models/incremental_potential/collider_meshes.h
struct ContactConfiguration;  // models/incremental_potential/contact_potential.h
class ContactPotential;       // models/incremental_potential/contact_potential.h

/// A model whose contact is a potential of the world positions of its colliders' triangle-mesh
/// vertices (the incremental-potential models: ipc, longrange, sdrs). For timing the potential
/// without the step around it (seed 004 Fig. 6) and for measuring on the meshes the model sees.
class MeshPotential {
 public:
  virtual ~MeshPotential() = default;
  /// One mesh per collider (mesh i is collider i), vertices in the body frame.
  virtual const std::vector<ColliderMesh>& meshes() const = 0;
  /// The meshes' body poses and world vertices at configuration q (size nq).
  virtual void MeshConfiguration(const VecX& q, ContactConfiguration* out) = 0;
  /// The contact potential the steps minimise with. Evaluating it changes only its warm starts
  /// and statistics, never a later step's result.
  virtual ContactPotential& contact_potential() = 0;
};

/// Where the last solve of a model that minimises an energy per step went (seed 003 Table II
/// breaks a step down this way): a Step's, or the re-solve of a Derivatives call.
struct SolveBreakdown {
  double contact_s = 0.0;       // wall clock in the contact potential (set-up and evaluations)
  double step_bound_s = 0.0;    // in the step bound along the line searches' paths
  double linear_solve_s = 0.0;  // in the Newton systems' factorizations and solves
  int newton_iterations = 0;
  int line_search_evaluations = 0;  // line-search and polishing trials (the first of each with its derivatives)
  // Evaluations of the step energy: alone (backtracking trials) and with the gradient and
  // Hessian (Newton iterates, first trials, the polish). A step costs about its derivative
  // evaluations (the pair solves are most of both kinds).
  int energy_evaluations = 0;
  int derivative_evaluations = 0;
};

/// A design vertex: the collider's name (its index when unnamed) and the vertex's row in its mesh.
struct DesignVertexId {
  std::string collider;
  int vertex = 0;
};

/// A model whose design parameters are body-frame positions of collider-mesh vertices
/// (co-design, seed 003 Sec. V): parameters 3 k .. 3 k + 2 are vertex k's x, y and z.
class DesignVertices {
 public:
  virtual ~DesignVertices() = default;
  /// In the parameters' order: DesignParameterNames() has three names per id (empty: no design).
  virtual std::vector<DesignVertexId> DesignVertexIds() const = 0;
  /// How a point fixed in `body`'s frame moves with the design parameters at configuration q
  /// (3 x np): through the joint attachment points that follow the vertices (zero without them).
  /// A loss on such a point adds (dL/dx) J to the gradient the backward pass gives.
  virtual MatX BodyPointDesignJacobian(const VecX& q, int body) const = 0;
};

/// A model that samples its colliders' surfaces with points (scm's patches, seed 005).
class ColliderPoints {
 public:
  virtual ~ColliderPoints() = default;
  /// The points sampling collider `collider` (scm: a half-space is one patch, its plane).
  virtual std::int64_t PointCount(int collider) const = 0;
};

/// One collider's convex hull as a model that works on hulls built it (sdrs, seed 003 Sec. III).
struct ColliderHullSummary {
  int collider = -1;         // index in Scene::colliders
  int body = kWorldBody;
  int mesh_vertices = 0;
  int mesh_triangles = 0;
  int hull_vertices = 0;     // the vertices the contact sums over
  double mesh_volume = 0.0;  // m^3; NaN for a mesh that encloses none (open: a ground's top face)
  double hull_volume = 0.0;  // m^3; NaN when the vertices are flat
  bool convex = true;        // the mesh is its own hull (open and flat meshes count as convex)
};

/// A model that replaces each collider's mesh by its convex hull (`arena inspect --model`).
class ColliderHulls {
 public:
  virtual ~ColliderHulls() = default;
  /// Every collider's hull, in collider order.
  virtual std::vector<ColliderHullSummary> Hulls() const = 0;
};

class Simulator {
 public:
  Simulator();
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;
  virtual ~Simulator();

  /// Registry name ("penalty", "silico", ...): each model class's kName.
  virtual std::string_view name() const = 0;
  /// For this instance's options.
  virtual Capabilities capabilities() const = 0;
  virtual const Scene& scene() const = 0;
  /// Step length (s).
  virtual double timestep() const = 0;

  /// Advances `state` by one timestep under `control` (u of size nu, or empty for zero).
  /// Throws InvalidArgument for a state or control of the wrong size (a programming error).
  /// A non-finite state or control, a failed step (status kNonFinite or kError) or a step that
  /// produced a non-finite state is reported, and `state` is left as it was; a step that did
  /// not converge (kNotConverged) is taken. A taken step whose result fails the step-validity
  /// check (models/step_validity.h; options set_step_validity) is reported kInvalid, and taken
  /// too, so that a caller can see where it went. Sets state.t += timestep() and wall_time_s.
  /// Once the calling thread's deadline has passed (core/common/deadline.h: the case's
  /// wall-clock budget), every step is refused with status kError and the deadline's message.
  StepReport Step(State& state, const Control& control);

  /// Jacobians of Step at (state, control). Throws Unsupported when capabilities() has no
  /// derivatives, InvalidArgument for a wrong-sized or non-finite state or control.
  void Derivatives(const State& state, const Control& control, StepDerivatives* out);

  /// The vector-Jacobian product of Step at (state, control): out = (dL/dq, dL/dv, dL/du,
  /// dL/dp) from dL/dq+ and dL/dv+ (both nv). By default the transposed Jacobians of
  /// Derivatives() (finite differences for the engines: capabilities().derivatives says so);
  /// a model may compute it its own way. Throws as Derivatives does, and InvalidArgument for
  /// cotangents of the wrong size or with non-finite entries.
  void Vjp(const State& state, const Control& control, const VecX& dl_dq_next, const VecX& dl_dv_next,
           StepGradient* out);

  /// The design parameters p that StepDerivatives::dq_dp / dv_dp differentiate, one name per
  /// column ("mass:<body>" for a link mass), and their current values. Empty unless
  /// capabilities().design_derivatives. Such models take a boolean option "design_derivatives"
  /// (false: no design parameters, e.g. to time only the state Jacobians).
  virtual std::vector<std::string> DesignParameterNames() const { return {}; }
  virtual VecX DesignParameters() const { return {}; }
  /// Later steps simulate with these values (size of DesignParameterNames()). The model may
  /// then step a new Scene: references from scene() taken before are no longer valid. The
  /// default throws Unsupported; models with design derivatives override it.
  virtual void SetDesignParameters(const VecX& p);

  /// Counts the model keeps since construction (solver paths, warm-start hits); empty for
  /// most models. Experiments read them by name and skip models that do not have them.
  virtual std::vector<ModelCounter> Counters() const { return {}; }

  /// The contact forces between bodies at the end of the last Step, friction aside: one entry
  /// per pair of bodies that touch (or, for a long-range model, interact), SumPairForces of
  /// ContactPoints(). Empty unless ReportsContactForces(). Experiments that need contact forces
  /// (book_stacking) skip the models that do not report them.
  std::vector<BodyPairForce> ContactForces();
  /// Whether ContactForces() reports: the models whose ContactPoints() are each pair's net force
  /// at the step's end (the incremental-potential models, one point per pair of meshes). The
  /// time-stepping models' points carry a step's impulses at its start, not forces at its end.
  virtual bool ReportsContactForces() const { return false; }

  /// The contact points of the last Step with the force each carried; empty before the first
  /// step, after a step that was not taken, and for models that do not report them.
  std::vector<ContactPoint> ContactPoints();
  /// Whether this model reports ContactPoints() (false: an empty list means "unknown", and the
  /// criteria columns of its rows stay empty rather than zero).
  virtual bool ReportsContactPoints() const { return false; }

  /// The step-validity bounds (every model's options carry them; the registry passes them here).
  void set_step_validity(const StepValidityOptions& options);
  /// How deep two colliders may overlap after a step, as a fraction of the smaller one's
  /// bounding radius, before the step is invalid: what the model's contact law allows (a soft
  /// spring sinks, a tessellated barrier model keeps its mesh, not the exact shape, apart).
  /// Half by default: deeper, a body is half through the other (a soft contact under a robot's
  /// weight sinks its small links 7-18 mm, 0.3 of their radius: MuJoCo's feet, nimble's palm).
  virtual double penetration_allowance() const { return 0.5; }
  /// How far (m) this model's contact reaches between colliders that do not touch (a barrier's
  /// activation distance, a smooth spring's reach; 0 for contact at touch): a trajectory that
  /// starts that close holds energy in the contact, which the check lets it give back.
  virtual double contact_reach() const { return 0.0; }

  /// Where this model's options cannot hold its scene at its timestep, known before any step
  /// (an explicit spring too stiff for the step on a light body, too soft for the weight it
  /// carries: models/spring_contact_warnings.h): one sentence each, naming the body and the
  /// option to change. `arena gradcheck` and `arena inspect --model` print them. Empty by default.
  virtual std::vector<std::string> OptionWarnings() const { return {}; }

  /// The optional interfaces (see above); null when the model has none.
  virtual MeshPotential* mesh_potential() { return nullptr; }
  /// Zeros before the first solve.
  virtual const SolveBreakdown* last_solve_breakdown() const { return nullptr; }
  virtual const DesignVertices* design_vertices() const { return nullptr; }
  virtual const ColliderPoints* collider_points() const { return nullptr; }
  virtual const ColliderHulls* collider_hulls() const { return nullptr; }

 protected:
  /// The model's step, on a state already checked (right sizes, finite) and a control of size
  /// nu or empty (zero). It may leave `state` anything on failure: Step restores it.
  virtual StepReport DoStep(State& state, const Control& control) = 0;
  /// Called only when capabilities().has_derivatives(), with checked inputs.
  virtual void DoDerivatives(const State& state, const Control& control, StepDerivatives* out);
  /// The last DoStep's contact points, called only after a taken step (see ContactPoints).
  virtual std::vector<ContactPoint> DoContactPoints() { return {}; }
  /// Default: the transposed blocks of DoDerivatives.
  virtual void DoVjp(const State& state, const Control& control, const VecX& dl_dq_next, const VecX& dl_dv_next,
                     StepGradient* out);

 private:
  // Past the case's budget (core/common/deadline.h), Derivatives and Vjp throw Error.
  void ThrowIfDeadlinePassed() const;
  // Checks sizes (throws) and finiteness (returns the offending entry, or "").
  std::string CheckInputs(const State& state, const Control& control) const;

  // The step-validity check of a taken step's result ("" when valid); built on first use, and
  // again when the model steps another Scene (SetDesignParameters).
  std::string CheckValidity(const State& before, const Control& control, const State& after);

  bool last_step_taken_ = false;  // the last Step call changed the state (ContactPoints)
  StepValidityOptions validity_options_;
  std::unique_ptr<StepValidity> validity_;
  State scratch_;  // Step's working copy of the state: a failed step leaves the caller's alone
  StepDerivatives vjp_jacobians_;  // the default DoVjp's scratch
};

/// The accessors every model writes alike, written once (CRTP): name() is Model::kName,
/// capabilities() the static Model::CapabilitiesFor(options()), timestep() the options'
/// `timestep`, and the model keeps its shared Scene and its Options here. A model derives from
/// SimulatorBase<ItsClass, ItsOptions> and implements the steps.
template <class Model, class Options>
class SimulatorBase : public Simulator {
 public:
  std::string_view name() const override { return Model::kName; }
  Capabilities capabilities() const override { return Model::CapabilitiesFor(options_); }
  const Scene& scene() const override { return *scene_; }
  double timestep() const override { return options_.timestep; }
  const Options& options() const { return options_; }

 protected:
  SimulatorBase(std::shared_ptr<const Scene> scene, const Options& options)
      : scene_(std::move(scene)), options_(options) {}

  std::shared_ptr<const Scene> scene_;
  Options options_;
};

/// `sim`'s optional interface, for code that cannot go on without it; throws Unsupported naming
/// the model when it has none.
MeshPotential& RequireMeshPotential(Simulator& sim);
const DesignVertices& RequireDesignVertices(const Simulator& sim);

/// The transposed step Jacobians applied to (dl_dq_next, dl_dv_next): the default
/// vector-Jacobian product, and the reference the conformance suite checks Vjp against.
void TransposedJacobianProduct(const StepDerivatives& d, const VecX& dl_dq_next, const VecX& dl_dv_next,
                               StepGradient* out);

}  // namespace arena
