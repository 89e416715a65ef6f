#include "models/nimble/nimble.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "core/common/error.h"
#include "core/multibody/configuration.h"
#include "core/multibody/dynamics.h"
#include "core/multibody/kinematics.h"
#include "core/scene/actuation.h"
#include "models/nimble/contact_reduction.h"

namespace arena {

std::string NimbleOptions::Validate() const {
  if (std::string error = CheckRanges(*this); !error.empty()) return error;
  try {
    ParseLcpFallbacks(lcp_fallbacks);
  } catch (const std::exception& e) {
    return "lcp_fallbacks: " + std::string(e.what());
  }
  return "";
}

Capabilities NimbleSimulator::CapabilitiesFor(const NimbleOptions& options) {
  Capabilities c;
  c.spatial = true;
  c.articulated = true;
  for (ShapeType t : {ShapeType::kSphere, ShapeType::kBox, ShapeType::kCapsule, ShapeType::kHalfSpace,
                      ShapeType::kConvexHull, ShapeType::kMesh}) {
    c.shapes.set(static_cast<size_t>(t));
  }
  c.derivatives = DerivativeSource::kAnalytical;
  c.design_derivatives = options.design_derivatives;  // link masses
  c.smooth = false;  // the active set of the LCP changes along a trajectory
  return c;
}

NimbleSimulator::NimbleSimulator(std::shared_ptr<const Scene> scene, const NimbleOptions& options)
    : SimulatorBase(std::move(scene), options), data_(scene_->model) {
  if (std::string error = options_.Validate(); !error.empty()) throw InvalidArgument("nimble: " + error);
  if (scene_->IsPlanar()) {
    throw Unsupported("nimble: scene '" + scene_->name + "' is planar; nimble simulates 3D scenes");
  }
  ContactLcpOptions lcp;
  lcp.warm_start = options_.warm_start;
  lcp.stabilize = options_.stabilize;
  lcp.stabilize_degenerate = options_.stabilize_degenerate;
  lcp.method = options_.lcp_solver;
  lcp.fallbacks = ParseLcpFallbacks(options_.lcp_fallbacks);
  lcp.tolerance = options_.lcp_tolerance;
  lcp.pgs.max_sweeps = options_.pgs_max_sweeps;
  lcp.pgs.tolerance = options_.pgs_tolerance;
  lcp.dantzig.cycling_cfm = options_.dantzig_cycling_cfm;
  lcp.dantzig.max_box_updates = options_.dantzig_box_updates;
  lcp_ = ContactLcpSolver(lcp);
  derivatives_lcp_ = ContactLcpSolver(lcp);
  for (const Collider& c : scene_->colliders) geometry_.push_back(contact::MakeColliderGeometry(c.shape));
  for (const auto& [a, b] : scene_->CollisionPairs()) {
    const Collider& A = scene_->colliders[a];
    const Collider& B = scene_->colliders[b];
    contact::CheckPairSupported("nimble", *scene_, a, b, geometry_);
    pairs_.push_back({a, b, std::min(A.friction, B.friction),  // min(mu_A, mu_B), DART's rule
                      std::max(A.restitution, B.restitution)});
  }
  if (options_.design_derivatives) {
    for (int b = 0; b < scene_->model.num_bodies(); ++b) {
      if (scene_->model.body(b).inertia.mass() > 0.0) mass_bodies_.push_back(b);
    }
  }
}

std::vector<ModelCounter> NimbleSimulator::Counters() const {
  std::vector<ModelCounter> out = {{"lcp_warm_start_attempts", lcp_.attempts()}, {"lcp_warm_start_hits", lcp_.hits()}};
  for (int p = 0; p < kNumContactLcpPaths; ++p) {
    const auto path = static_cast<ContactLcpPath>(p);
    out.push_back({"lcp_solved_by_" + std::string(ToString(path)), lcp_.path_count(path)});
  }
  return out;
}

std::vector<std::string> NimbleSimulator::DesignParameterNames() const {
  std::vector<std::string> names;
  for (int b : mass_bodies_) names.push_back("mass:" + scene_->model.body(b).name);
  return names;
}

VecX NimbleSimulator::DesignParameters() const {
  VecX p(mass_bodies_.size());
  for (size_t i = 0; i < mass_bodies_.size(); ++i) p[i] = scene_->model.body(mass_bodies_[i]).inertia.mass();
  return p;
}

void NimbleSimulator::SetDesignParameters(const VecX& p) {
  if (p.size() != static_cast<int>(mass_bodies_.size())) {
    throw InvalidArgument("nimble: " + std::to_string(p.size()) + " design parameters given, the model has " +
                          std::to_string(mass_bodies_.size()) + " (link masses)");
  }
  // A copy of the scene with the new masses (centres of mass and rotational inertias kept, as
  // DART's setMass): other simulators sharing the old scene are not affected.
  auto scene = std::make_shared<Scene>(*scene_);
  for (size_t i = 0; i < mass_bodies_.size(); ++i) {
    const BodyModel& body = scene->model.body(mass_bodies_[i]);
    if (!(p[i] > 0.0) || !std::isfinite(p[i])) {
      throw InvalidArgument("nimble: design parameter mass:" + body.name + " must be > 0 and finite, got " +
                            options_detail::FormatDouble(p[i]));
    }
    scene->model.set_inertia(mass_bodies_[i], SpatialInertia(p[i], body.inertia.com(), body.inertia.inertia_com()));
  }
  scene_ = std::move(scene);
  snapshot_valid_ = false;
}

void NimbleSimulator::FindContacts(std::vector<nimble::Contact>* out, double* min_signed_distance) {
  out->clear();
  *min_signed_distance = std::numeric_limits<double>::infinity();
  for (size_t index = 0; index < pairs_.size(); ++index) {
    const nimble::ColliderPair& pair = pairs_[index];
    const Collider& A = scene_->colliders[pair.a];
    const Collider& B = scene_->colliders[pair.b];
    const SE3 XA = contact::ColliderPose(data_, A);
    const SE3 XB = contact::ColliderPose(data_, B);
    points_.clear();
    contact::Contacts<double>(geometry_[pair.a], {XA.rotation(), XA.translation()}, geometry_[pair.b],
                              {XB.rotation(), XB.translation()}, &points_);
    for (size_t i = 0; i < points_.size(); ++i) {
      const auto& p = points_[i];
      *min_signed_distance = std::min(*min_signed_distance, p.phi);
      if (-p.phi > options_.max_contact_depth) continue;  // Nimble drops contacts deeper than this
      out->push_back({A.body, B.body, p.p_W, p.n_W, -p.phi, pair.friction, pair.restitution, static_cast<int>(index),
                      static_cast<int>(i)});
    }
  }
  if (options_.hull_contacts) nimble::ReduceToHullCorners(out);
}

namespace {

// FNV-1a over the rows' classes and bound signs.
std::uint64_t ModeFingerprint(const LcpActiveSet& set) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&](int x) {
    h ^= static_cast<std::uint64_t>(x + 2);
    h *= 1099511628211ull;
  };
  for (int i = 0; i < set.size(); ++i) {
    mix(static_cast<int>(set.rows[i]));
    mix(set.bound_sign[i]);
  }
  return h;
}

}  // namespace

bool NimbleSimulator::SnapshotIs(const State& state, const Control& control) const {
  return snapshot_valid_ && snapshot_q_ == state.q && snapshot_v_ == state.v && snapshot_u_.size() == control.u.size() &&
         snapshot_u_ == control.u;
}

void NimbleSimulator::SolveVelocity(const State& state, const Control& control, ContactLcpSolver& solver,
                                    StepReport* report) {
  snapshot_valid_ = false;
  const MultibodyModel& model = scene_->model;
  const double dt = options_.timestep;
  ForwardKinematics(model, data_, state.q, state.v);
  double min_phi = std::numeric_limits<double>::infinity();
  FindContacts(&contacts_, &min_phi);
  report->contacts = static_cast<int>(contacts_.size());
  report->min_signed_distance = min_phi;

  // v* = v + dt M^-1 (tau - c)   (paper eq. 2 without the contact impulse)
  Crba(model, data_, state.q);
  FactorizeMassMatrix(model, data_);
  const VecX tau = ActuatorForces(*scene_, state, control) + PassiveForces(*scene_, state);
  VecX dv = tau - NonlinearEffects(model, data_, state.q, state.v);
  SolveMassMatrix(model, data_, dv);
  v_star_ = state.v + dt * dv;
  v_next_ = v_star_;
  snapshot_q_ = state.q;
  snapshot_v_ = state.v;
  snapshot_u_ = control.u;
  snapshot_valid_ = true;

  report->iterations = 0;
  impulses_ = {};
  restitution_target_.resize(0);
  if (contacts_.empty()) {
    J_.resize(0, model.nv());
    first_row_.clear();
    return;
  }
  first_row_ = nimble::BuildContactRows(model, data_, contacts_, &J_, &lcp_problem_);
  MatX MinvJt = J_.transpose();
  SolveMassMatrix(model, data_, MinvJt);
  lcp_problem_.A = J_ * MinvJt;
  lcp_problem_.b = -J_ * v_next_;  // w = J v+ = A f + J v*
  // Bounces: the normal row must leave at -e (J v*)_n, so w - target >= 0 _|_ f >= 0.
  restitution_target_.setZero(J_.rows());
  for (size_t k = 0; k < contacts_.size(); ++k) {
    const double e = contacts_[k].restitution;
    if (e < nimble::kMinRestitution) continue;
    const int r = first_row_[k];
    const double target = -e * (J_.row(r) * v_star_)(0);
    if (target <= nimble::kMinBounceSpeed) continue;
    restitution_target_[r] = std::min(target, nimble::kMaxBounceSpeed);
    lcp_problem_.b[r] += restitution_target_[r];
  }
  impulses_ = solver.Solve(lcp_problem_);
  report->contact_mode = ModeFingerprint(impulses_.active_set);
  v_next_ += MinvJt * impulses_.x;
  report->residual = impulses_.violation;
  report->iterations = 1;
  if (impulses_.path == ContactLcpPath::kFailed) {
    report->status = StepStatus::kNotConverged;
    report->message = "no valid LCP solution (violation " + options_detail::FormatDouble(impulses_.violation) + ")";
  } else if (impulses_.path == ContactLcpPath::kFrictionless) {
    report->message = "friction dropped this step (no valid frictional LCP solution)";
  }
}

// The step's contacts with the LCP's impulses as forces, impulse / dt (seed 002 eq. 2): the
// normal row along n and the two friction rows along ODE's tangent basis, as BuildContactRows
// laid them out. Derivatives re-solves into the workspace, so the points are kept apart.
void NimbleSimulator::RecordContactPoints() {
  step_points_.clear();
  const VecX& x = impulses_.x;
  for (size_t k = 0; k < contacts_.size(); ++k) {
    const nimble::Contact& c = contacts_[k];
    const int r = first_row_[k];
    if (r >= x.size()) break;  // no solution was kept
    Vec3 impulse = x[r] * c.normal_W;
    if (c.friction >= nimble::kMinFriction && r + 2 < x.size()) {
      Vec3 t1, t2;
      nimble::TangentBasisOde(c.normal_W, &t1, &t2);
      impulse += x[r + 1] * t1 + x[r + 2] * t2;
    }
    // The rows push B along n (from A to B).
    step_points_.push_back(
        {c.body_b, c.body_a, c.point_W, c.normal_W, -c.depth, true, impulse / options_.timestep, c.friction});
  }
}

StepReport NimbleSimulator::DoStep(State& state, const Control& control) {
  StepReport report;
  SolveVelocity(state, control, lcp_, &report);
  RecordContactPoints();
  state.q = Integrate(scene_->model, state.q, options_.parallel_position_update ? state.v : v_next_,
                      options_.timestep);
  state.v = v_next_;
  return report;
}

}  // namespace arena
