#include "models/incremental_potential/ip_simulator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <utility>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "core/common/deadline.h"
#include "core/common/error.h"
#include "core/common/stopwatch.h"
#include "core/common/options.h"
#include "core/geometry/mesh_distance.h"
#include "core/math/solve_columns.h"
#include "core/multibody/configuration.h"
#include "models/incremental_potential/path_speed.h"

namespace arena {

std::string IpOptions::Validate() const { return CheckRanges(*this); }

Capabilities IpCapabilities(bool smooth) {
  Capabilities c;
  c.spatial = true;
  c.articulated = true;
  for (ShapeType t : {ShapeType::kSphere, ShapeType::kBox, ShapeType::kHalfSpace, ShapeType::kConvexHull, ShapeType::kMesh}) {
    c.shapes.set(static_cast<size_t>(t));
  }
  c.derivatives = DerivativeSource::kAnalytical;
  c.smooth = smooth;
  return c;
}

StepEnergyOptions IpOptions::Energy() const {
  StepEnergyOptions o;
  o.timestep = timestep;
  o.lumped_mass = lumped_mass;
  o.limit_width = limit_width;
  o.limit_stiffness = limit_stiffness;
  return o;
}

ColliderMeshOptions IpOptions::Meshes() const {
  ColliderMeshOptions o;
  o.sphere_vertices = sphere_vertices;
  o.box_max_edge = box_max_edge;
  o.ground_mesh = ground_mesh;
  return o;
}

NewtonOptions IpOptions::Newton() const {
  NewtonOptions o;
  o.step_tolerance = newton_tolerance;
  o.gradient_tolerance = gradient_tolerance;
  o.max_iterations = max_newton_iterations;
  o.method = solver;
  o.linear_solver = linear_solver;
  return o;
}

namespace {

// The line search's trial path q (+) alpha d, alpha in [0, 1].
class TrialPath final : public ContactPath {
 public:
  TrialPath(StepEnergy& energy, const VecX& q, const VecX& d) : energy_(energy), q_(q), d_(d) {}
  void At(double alpha, ContactConfiguration* out) override {
    energy_.WorldVertices(Integrate(energy_.scene().model, q_, alpha * d_), out);
  }
  const std::vector<VecX>& SpeedBounds() override {
    if (speed_.empty()) PathSpeedBounds(energy_.scene().model, energy_.meshes(), q_, d_, &speed_);
    return speed_;
  }
  const VecX* SpeedBoundsIn(int mesh, int frame) override {
    const int body = energy_.meshes()[mesh].body;
    if (frame != kWorldBody && (body == kWorldBody || !energy_.scene().model.IsInSubtree(body, frame))) return nullptr;
    auto [it, fresh] = relative_.try_emplace({mesh, frame});
    if (fresh) RelativePathSpeedBound(energy_.scene().model, energy_.meshes()[mesh], frame, q_, d_, &it->second);
    return &it->second;
  }

 private:
  StepEnergy& energy_;
  const VecX& q_;
  const VecX& d_;
  std::vector<VecX> speed_;
  std::map<std::pair<int, int>, VecX> relative_;  // (mesh, frame) -> bounds
};

// The step's minimisation as a NewtonProblem: the iterate is a configuration, moved by
// Integrate (so quaternions stay unit), bounded by the joint limits and the contact potential.
// A trial the solver will probably take (NewtonProblem::TrialNeeds) is evaluated with its
// derivatives, which the next Evaluate or ExactDerivatives at that iterate returns: a contact
// potential's pair solves are most of both an energy and its derivatives, so an iteration whose
// first trial is taken costs one evaluation instead of two.
class StepProblem final : public NewtonProblem {
 public:
  StepProblem(StepEnergy& energy, ContactPotential* contact, VecX q)
      : energy_(energy), contact_(contact), q_(std::move(q)), keep_trials_(contact != nullptr && contact->CheapDerivatives()) {}
  int dimension() const override { return energy_.scene().nv(); }
  double Evaluate(VecX* gradient, MatX* hessian) override {
    if (kept_.At(q_)) return kept_.CopyTo(gradient, hessian);
    return energy_.Evaluate(q_, gradient, hessian, true);
  }
  double EnergyAlong(const VecX& direction, double alpha, TrialNeeds needs) override {
    // An energy alone at q (+) alpha d as it comes; a trial whose derivatives are kept at the
    // iterate Retract would make of it (normalized: a quaternion moves by rounding).
    if (needs == TrialNeeds::kEnergy || !keep_trials_) {
      return energy_.Evaluate(Integrate(energy_.scene().model, q_, alpha * direction), nullptr, nullptr, true);
    }
    return Keep(Moved(direction, alpha), false);
  }
  // The contact potential sees the true path q (+) alpha d (vertices on arcs) with bounds on
  // its vertices' speeds; the line search then checks the energies along it.
  double MaxStep(const VecX& direction) override {
    double alpha = energy_.LimitMaxStep(q_, direction);
    if (contact_ != nullptr) {
      const auto t0 = std::chrono::steady_clock::now();
      energy_.WorldVertices(q_, &now_);
      TrialPath path(energy_, q_, direction);
      alpha = std::min(alpha, contact_->MaxStepOnPath(now_, path));
      step_bound_s_ += SecondsSince(t0);
    }
    return alpha;
  }
  double step_bound_seconds() const { return step_bound_s_; }
  // Always evaluated anew (see Polish, solvers/projected_newton.cc), and kept for Derivatives.
  bool ExactDerivatives(VecX* gradient, MatX* hessian) override {
    Keep(q_, true);
    return std::isfinite(kept_.CopyTo(gradient, hessian));
  }
  void Retract(const VecX& direction, double alpha) override { q_ = Moved(direction, alpha); }
  const VecX& q() const { return q_; }
  /// The exact gradient and Hessian at the final iterate, when an evaluation made them there.
  bool ExactDerivativesAtEnd(VecX* gradient, MatX* hessian) const {
    if (!KeptExactAt(q_) || !std::isfinite(kept_.energy)) return false;
    kept_.CopyTo(gradient, hessian);
    return true;
  }

 private:
  // One evaluation with derivatives and the iterate it was made at.
  struct Kept {
    VecX q;
    double energy = 0.0;
    VecX gradient;
    MatX hessian;
    bool exact = false;  // made with the exact Hessian (ExactDerivatives), not a projected one
    bool At(const VecX& at) const { return q.size() == at.size() && q == at; }
    double CopyTo(VecX* g, MatX* h) const {
      if (g != nullptr) *g = gradient;
      if (h != nullptr) *h = hessian;
      return energy;
    }
  };
  // The retraction, and a kept trial's point (so that it is the iterate the solver takes).
  VecX Moved(const VecX& direction, double alpha) const {
    VecX q = Integrate(energy_.scene().model, q_, alpha * direction);
    NormalizeConfiguration(energy_.scene().model, &q);
    return q;
  }
  double Keep(const VecX& q, bool exact) {
    kept_.q = q;
    kept_.exact = exact;
    kept_.energy = energy_.Evaluate(q, &kept_.gradient, &kept_.hessian, !exact);
    return kept_.energy;
  }
  bool KeptExactAt(const VecX& q) const { return kept_.At(q) && kept_.exact; }

  StepEnergy& energy_;
  ContactPotential* contact_;
  VecX q_;
  const bool keep_trials_;  // the contact's derivatives cost little beyond its energy
  Kept kept_;
  ContactConfiguration now_;
  double step_bound_s_ = 0.0;
};

}  // namespace

IncrementalPotentialSimulator::IncrementalPotentialSimulator(std::shared_ptr<const Scene> scene, const IpOptions& options,
                                                             const ContactFactory& make_contact)
    : scene_(std::move(scene)), options_(options) {
  if (std::string why = options_.Validate(); !why.empty()) throw InvalidArgument(why);
  std::vector<ColliderMesh> meshes = BuildColliderMeshes(*scene_, options_.Meshes());
  if (make_contact) contact_ = make_contact(meshes);
  energy_ = std::make_unique<StepEnergy>(scene_, std::move(meshes), contact_.get(), options_.Energy());
}

IncrementalPotentialSimulator::~IncrementalPotentialSimulator() = default;

NewtonReport IncrementalPotentialSimulator::Solve(const State& state, const Control& control) {
  const double contact_before = energy_->contact_seconds();
  const long energy_before = energy_->energy_evaluations(), derivative_before = energy_->derivative_evaluations();
  energy_->Begin(state, control);
  // The start is feasible (the state is); the first iterate keeps it.
  StepProblem problem(*energy_, contact_.get(), state.q);
  const NewtonReport report = MinimizeNewton(problem, options_.Newton());
  q_next_ = problem.q();
  end_derivatives_valid_ = problem.ExactDerivativesAtEnd(&end_gradient_, &end_hessian_);
  solve_breakdown_.contact_s = energy_->contact_seconds() - contact_before;
  solve_breakdown_.step_bound_s = problem.step_bound_seconds();
  solve_breakdown_.linear_solve_s = report.linear_solve_s;
  solve_breakdown_.newton_iterations = report.iterations;
  solve_breakdown_.line_search_evaluations = report.line_search_evaluations;
  solve_breakdown_.energy_evaluations = static_cast<int>(energy_->energy_evaluations() - energy_before);
  solve_breakdown_.derivative_evaluations = static_cast<int>(energy_->derivative_evaluations() - derivative_before);
  // A solve the deadline cut short is not this state's minimiser: the next Derivatives re-solves.
  snapshot_valid_ = report.status != NewtonStatus::kDeadline;
  snapshot_state_ = state;
  snapshot_u_ = control.u;
  return report;
}

StepReport IncrementalPotentialSimulator::DoStep(State& state, const Control& control) {
  StepReport report;
  newton_ = Solve(state, control);
  report.iterations = newton_.iterations;
  report.residual = newton_.gradient_norm;
  // The contact potential's last evaluation was at the returned iterate (the polished one).
  report.contacts = contact_ != nullptr ? contact_->ActiveContacts() : 0;
  switch (newton_.status) {
    case NewtonStatus::kConverged: break;
    case NewtonStatus::kMaxIterations:
    case NewtonStatus::kLineSearchFailed:
      // Every iterate is feasible (the barriers are finite): the step is taken, marked.
      report.status = StepStatus::kNotConverged;
      report.message = "Newton: " + std::string(ToString(newton_.status)) + " after " +
                       std::to_string(newton_.iterations) + " iterations (|step| " +
                       options_detail::FormatDouble(newton_.step_norm) + ", |grad| " +
                       options_detail::FormatDouble(newton_.gradient_norm) + ")";
      break;
    case NewtonStatus::kInfeasibleStart:
      report.status = StepStatus::kError;
      report.message = "the start state is infeasible: intersecting meshes or a joint outside its limits";
      return report;
    case NewtonStatus::kNonFinite:
      report.status = StepStatus::kNonFinite;
      report.message = "Newton met a non-finite energy, gradient or Hessian";
      return report;
    case NewtonStatus::kDeadline:
      // The case's wall-clock budget ran out mid-step: a failed step (the state is kept), as the
      // interior-point models report it.
      report.status = StepStatus::kError;
      report.message = "Newton: deadline after " + std::to_string(newton_.iterations) + " iterations: " + DeadlineMessage();
      return report;
  }
  state.v = Difference(scene_->model, state.q, q_next_) / options_.timestep;
  state.q = q_next_;
  stepped_ = true;
  return report;
}

// The contact potential's pairs at the step's end (models/incremental_potential/contact_potential.h): one point per
// pair of meshes, where its repulsion acts, with the repulsion's direction as the normal and the
// distance from that point to the other mesh as the gap. A pair's criteria are thus those of its
// net force, a relaxation of per-point ones (forces inside one cone sum into it, not conversely).
std::vector<ContactPoint> IncrementalPotentialSimulator::DoContactPoints() {
  std::vector<ContactPoint> out;
  if (!stepped_ || contact_ == nullptr) return out;
  ContactConfiguration x;
  energy_->WorldVertices(q_next_, &x);
  std::vector<MeshPairContact> pairs;
  contact_->PairContacts(x, &pairs);
  const std::vector<ColliderMesh>& meshes = *x.meshes;
  for (const MeshPairContact& c : pairs) {
    const double repulsion = c.repulsion_on_a.norm();
    if (!(repulsion > 0.0)) continue;
    const Vec3 n = c.repulsion_on_a / repulsion;
    double gap = std::numeric_limits<double>::infinity();
    const PointsX3& other = x.world[c.mesh_b];
    const TrianglesX3& triangles = meshes[c.mesh_b].triangles;
    for (int t = 0; t < triangles.rows(); ++t) {
      const TrianglePairDistance d =
          TriangleTriangleDistance(c.point_a, c.point_a, c.point_a, other.row(triangles(t, 0)).transpose(),
                                   other.row(triangles(t, 1)).transpose(), other.row(triangles(t, 2)).transpose());
      gap = std::min(gap, d.distance);
    }
    out.push_back({meshes[c.mesh_a].body, meshes[c.mesh_b].body, c.point_a - 0.5 * gap * n, n, gap, false,
                   c.repulsion_on_a + c.friction_on_a, std::min(meshes[c.mesh_a].friction, meshes[c.mesh_b].friction),
                   c.friction_on_a});
  }
  return out;
}

void IncrementalPotentialSimulator::DoDerivatives(const State& state, const Control& control, StepDerivatives* out) {
  const bool same = snapshot_valid_ && snapshot_state_.q == state.q && snapshot_state_.v == state.v &&
                    snapshot_u_.size() == control.u.size() && snapshot_u_ == control.u;
  if (!same) {
    newton_ = Solve(state, control);
    stepped_ = false;  // q_next_ is this solve's, not a taken step's
  }
  if (!newton_.converged()) {
    throw Error("cannot differentiate the step: Newton ended with " + std::string(ToString(newton_.status)));
  }
  const MultibodyModel& model = scene_->model;
  const int nv = model.nv(), nu = scene_->nu();
  const double dt = options_.timestep;
  VecX g;
  MatX H;
  // The exact Hessian: the solve's own when its last evaluation made it at q+ (the polish's),
  // else evaluated here. Not finite only when the contact potential gave up at the deadline.
  // With design parameters the design Jacobian's own contact evaluation follows, and it reads
  // the contact's state of an evaluation at q+ made here (sdrs's hull-pair planes): evaluated.
  if (end_derivatives_valid_ && design_.empty()) {
    g = end_gradient_;
    H = end_hessian_;
  } else if (!std::isfinite(energy_->Evaluate(q_next_, &g, &H, false))) {
    throw Error("cannot differentiate the step: the energy at q+ is not finite" +
                (DeadlinePassed() ? " (" + DeadlineMessage() + ")" : std::string()));
  }
  MatX dg_dq, dg_dv, dg_du;
  energy_->InputDerivatives(q_next_, &dg_dq, &dg_dv, &dg_du);
  MatX rhs(nv, 2 * nv + nu);
  rhs << dg_dq, dg_dv, dg_du;
  const Eigen::LDLT<MatX> ldlt(H);
  const MatX deps = -ldlt.solve(rhs);  // d(q+)/dy in the tangent space at q+
  out->dq_dq = deps.leftCols(nv);
  out->dq_dv = deps.middleCols(nv, nv);
  out->dq_du = deps.rightCols(nu);
  // Integrate(q^t, delta) = q+ with delta = dt v+: Jq dq^t + Jv d(delta) = dq+.
  MatX Jq, Jv;
  IntegrateJacobians(model, state.q, Difference(model, state.q, q_next_), &Jq, &Jv);
  const Eigen::PartialPivLU<MatX> jv(Jv);
  out->dv_dq = jv.solve(out->dq_dq - Jq) / dt;
  out->dv_dv = jv.solve(out->dq_dv) / dt;
  out->dv_du = SolveColumns(jv, out->dq_du) / dt;  // no columns without controls
  out->dq_dp.resize(0, 0);
  out->dv_dp.resize(0, 0);
  if (!design_.empty()) {
    MatX dg_dp;
    energy_->DesignJacobian(q_next_, design_, &dg_dp);
    if (!attachments_.empty()) {
      std::vector<int> bodies;
      for (const Attachment& a : attachments_) bodies.push_back(a.body);
      MatX dg_da;
      energy_->AttachmentJacobian(q_next_, bodies, &dg_da);
      // Each attachment is sum_d w_d p_d: its columns reach those of its vertices.
      for (size_t j = 0; j < attachments_.size(); ++j) {
        for (const auto& [d, w] : attachments_[j].weights) dg_dp.middleCols<3>(3 * d) += w * dg_da.middleCols<3>(3 * static_cast<int>(j));
      }
    }
    out->dq_dp = -ldlt.solve(dg_dp);
    out->dv_dp = jv.solve(out->dq_dp) / dt;
  }
}

}  // namespace arena
