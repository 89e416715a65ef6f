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
  if (!(timestep > 0.0) || !std::isfinite(timestep)) {
    return "timestep must be > 0 and finite, got " + options_detail::FormatDouble(timestep);
  }
  if (!(max_contact_depth > 0.0)) return "max_contact_depth must be > 0";
  return "";
}

Capabilities NimbleSimulator::StaticCapabilities() {
  Capabilities c;
  c.spatial = true;
  c.articulated = true;
  for (ShapeType t : {ShapeType::kSphere, ShapeType::kBox, ShapeType::kCapsule, ShapeType::kHalfSpace,
                      ShapeType::kConvexHull, ShapeType::kMesh}) {
    c.shapes.set(static_cast<size_t>(t));
  }
  c.state_derivatives = false;  // the analytical Jacobians (Sec. IV-V) are not written yet
  return c;
}

NimbleSimulator::NimbleSimulator(std::shared_ptr<const Scene> scene, const NimbleOptions& options)
    : scene_(std::move(scene)), options_(options), data_(scene_->model) {
  if (std::string error = options_.Validate(); !error.empty()) throw InvalidArgument("nimble: " + error);
  if (scene_->IsPlanar()) {
    throw Unsupported("nimble: scene '" + scene_->name + "' is planar; nimble simulates 3D scenes");
  }
  ContactLcpOptions lcp;
  lcp.warm_start = options_.warm_start;
  lcp.stabilize = options_.stabilize;
  lcp_ = ContactLcpSolver(lcp);
  for (const Collider& c : scene_->colliders) geometry_.push_back(contact::MakeColliderGeometry(c.shape));
  for (const auto& [a, b] : scene_->CollisionPairs()) {
    const Collider& A = scene_->colliders[a];
    const Collider& B = scene_->colliders[b];
    if (!contact::SupportsPair(TypeOf(A.shape), TypeOf(B.shape))) {
      throw Unsupported("nimble: no contact kernel for the pair " + std::string(ToString(TypeOf(A.shape))) + "-" +
                        std::string(ToString(TypeOf(B.shape))) + " (colliders '" + A.name + "' and '" + B.name + "')");
    }
    pairs_.push_back({a, b, std::min(A.friction, B.friction)});  // min(mu_A, mu_B), digest 1.2
  }
}

void NimbleSimulator::FindContacts(std::vector<nimble::Contact>* out, double* min_signed_distance) {
  out->clear();
  pair_of_.clear();
  *min_signed_distance = std::numeric_limits<double>::infinity();
  for (size_t index = 0; index < pairs_.size(); ++index) {
    const Pair& pair = pairs_[index];
    const Collider& A = scene_->colliders[pair.a];
    const Collider& B = scene_->colliders[pair.b];
    const SE3 XA = contact::ColliderPose(data_, A);
    const SE3 XB = contact::ColliderPose(data_, B);
    points_.clear();
    contact::Contacts<double>(geometry_[pair.a], {XA.rotation(), XA.translation()}, geometry_[pair.b],
                              {XB.rotation(), XB.translation()}, &points_);
    for (const auto& p : points_) {
      *min_signed_distance = std::min(*min_signed_distance, p.phi);
      if (-p.phi > options_.max_contact_depth) continue;  // Nimble drops contacts deeper than this
      out->push_back({A.body, B.body, p.p_W, p.n_W, -p.phi, pair.friction});
      pair_of_.push_back(static_cast<int>(index));
    }
  }
  if (options_.hull_contacts) nimble::ReduceToHullCorners(pair_of_, out);
}

StepReport NimbleSimulator::Step(State& state, const Control& control) {
  const auto start = std::chrono::steady_clock::now();
  StepReport report;
  if (state.q.size() != scene_->nq() || state.v.size() != scene_->nv()) ValidateState(*scene_, state);
  if (std::string bad = FirstNonFiniteEntry(state); !bad.empty()) {
    report.status = StepStatus::kNonFinite;
    report.message = "input state is not finite: " + bad;
    return report;
  }
  const MultibodyModel& model = scene_->model;
  const double dt = options_.timestep;
  ForwardKinematics(model, data_, state.q, state.v);
  double min_phi = std::numeric_limits<double>::infinity();
  FindContacts(&contacts_, &min_phi);
  report.contacts = static_cast<int>(contacts_.size());
  report.min_signed_distance = min_phi;

  // v* = v + dt M^-1 (tau - c)   (paper eq. 2 without the contact impulse)
  Crba(model, data_, state.q);
  FactorizeMassMatrix(model, data_);
  const VecX tau = ActuatorForces(*scene_, state, control) + PassiveForces(*scene_, state);
  VecX dv = tau - NonlinearEffects(model, data_, state.q, state.v);
  SolveMassMatrix(model, data_, dv);
  VecX v_next = state.v + dt * dv;

  report.iterations = 0;
  if (!contacts_.empty()) {
    MatX J;
    BoxedLcp lcp;
    nimble::BuildContactRows(model, data_, contacts_, &J, &lcp);
    MatX MinvJt = J.transpose();
    SolveMassMatrix(model, data_, MinvJt);
    lcp.A = J * MinvJt;
    lcp.b = -J * v_next;  // w = J v+ = A f + J v*
    const ContactLcpSolution f = lcp_.Solve(lcp);
    v_next += MinvJt * f.x;
    report.residual = f.violation;
    report.iterations = 1;
    if (f.path == ContactLcpPath::kFailed) {
      report.status = StepStatus::kNotConverged;
      report.message = "no valid LCP solution (violation " + options_detail::FormatDouble(f.violation) + ")";
    } else if (f.path == ContactLcpPath::kFrictionless) {
      report.message = "friction dropped this step (no valid frictional LCP solution)";
    }
  }

  State next;
  next.v = v_next;
  next.q = Integrate(model, state.q, options_.parallel_position_update ? state.v : v_next, dt);
  next.t = state.t + dt;
  if (!FirstNonFiniteEntry(next).empty()) {
    report.status = StepStatus::kNonFinite;
    report.message = "state became non-finite";
  } else {
    state = std::move(next);
  }
  report.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace arena
