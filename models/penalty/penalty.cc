#include "models/penalty/penalty.h"

#include <chrono>
#include <cmath>
#include <limits>

#include "core/common/error.h"
#include "core/geometry/mesh.h"
#include "core/multibody/configuration.h"
#include "core/multibody/dynamics.h"
#include "core/multibody/kinematics.h"
#include "core/scene/actuation.h"
#include "models/point_contact/pose_twist_ad.h"
#include "models/spring_contact_warnings.h"

namespace arena {

using contact::ColliderGeometry;
using contact::ContactPointT;
using contact::PoseT;

std::string PenaltyOptions::Validate() const { return CheckRanges(*this); }

namespace {

double BodyMass(const Scene& scene, int body) {
  return body == kWorldBody ? std::numeric_limits<double>::infinity()
                            : scene.model.body(body).inertia.mass();
}

}  // namespace

Capabilities PenaltySimulator::CapabilitiesFor(const PenaltyOptions& options) {
  Capabilities c;
  c.planar = true;
  c.spatial = true;
  c.articulated = true;
  for (ShapeType t : {ShapeType::kSphere, ShapeType::kBox, ShapeType::kCapsule, ShapeType::kHalfSpace,
                      ShapeType::kConvexHull, ShapeType::kMesh, ShapeType::kPolygon2,
                      ShapeType::kDisk2, ShapeType::kCapsule2, ShapeType::kHalfPlane2}) {
    c.shapes.set(static_cast<size_t>(t));
  }
  (void)options;
  c.derivatives = DerivativeSource::kAnalytical;
  c.smooth = false;  // the force has kinks at contact onset and when the damper would pull
  return c;
}

PenaltySimulator::PenaltySimulator(std::shared_ptr<const Scene> scene, const PenaltyOptions& options)
    : SimulatorBase(std::move(scene), options), data_(scene_->model) {
  if (std::string error = options_.Validate(); !error.empty()) {
    throw InvalidArgument("penalty: " + error);
  }
  scene_->Validate();
  for (const auto& c : scene_->colliders) geometry_.push_back(contact::MakeColliderGeometry(c.shape));
  for (const auto& [a, b] : scene_->CollisionPairs()) {
    const Collider& A = scene_->colliders[a];
    const Collider& B = scene_->colliders[b];
    contact::CheckPairSupported("penalty", *scene_, a, b, geometry_);
    Pair p;
    p.a = a;
    p.b = b;
    const double m = std::min(BodyMass(*scene_, A.body), BodyMass(*scene_, B.body));
    p.law.stiffness = options_.stiffness;
    p.law.damping = std::isfinite(m) ? 2.0 * options_.damping_ratio * std::sqrt(options_.stiffness * m) : 0.0;
    p.law.friction = std::min(A.friction, B.friction);
    p.law.friction_velocity = options_.friction_velocity;
    pairs_.push_back(p);
  }
  f_ext_.assign(scene_->model.num_bodies(), Force::Zero());
}

int PenaltySimulator::ContactWrenches(std::vector<Force>* f_ext, double* min_phi, std::vector<ContactPoint>* points) {
  if (points != nullptr) points->clear();
  for (auto& f : *f_ext) f.setZero();
  *min_phi = std::numeric_limits<double>::infinity();
  int count = 0;
  for (const Pair& pair : pairs_) {
    const Collider& A = scene_->colliders[pair.a];
    const Collider& B = scene_->colliders[pair.b];
    const SE3 XA = contact::ColliderPose(data_, scene_->colliders[pair.a]);
    const SE3 XB = contact::ColliderPose(data_, scene_->colliders[pair.b]);
    contacts_.clear();
    contact::Contacts<double>(geometry_[pair.a], {XA.rotation(), XA.translation()},
                              geometry_[pair.b], {XB.rotation(), XB.translation()}, &contacts_);
    const Motion VA = contact::BodyWorldTwist(data_, A.body);
    const Motion VB = contact::BodyWorldTwist(data_, B.body);
    for (const auto& c : contacts_) {
      ++count;
      *min_phi = std::min(*min_phi, c.phi);
      const Vec3 f = penalty::ContactForce<double>(pair.law, c, VA, VB);
      const Force w = MakeForce(c.p_W.cross(f), f);
      // The kernel's normal points from A to B, and f is the force on B.
      if (points != nullptr) points->push_back({B.body, A.body, c.p_W, c.n_W, c.phi, true, f, pair.law.friction});
      if (B.body != kWorldBody) (*f_ext)[B.body] += w;
      if (A.body != kWorldBody) (*f_ext)[A.body] -= w;
    }
  }
  return count;
}

StepReport PenaltySimulator::DoStep(State& state, const Control& control) {
  StepReport report;
  report.iterations = 1;
  const auto& model = scene_->model;
  ForwardKinematics(model, data_, state.q, state.v);
  double min_phi = 0.0;
  report.contacts = ContactWrenches(&f_ext_, &min_phi, &points_);
  report.min_signed_distance = min_phi;
  const VecX tau = ActuatorForces(*scene_, state, control) + PassiveForces(*scene_, state);
  const VecX& ddq = Aba(model, data_, state.q, state.v, tau, &f_ext_);
  state.v += options_.timestep * ddq;
  state.q = Integrate(model, state.q, state.v, options_.timestep);
  if (!state.v.allFinite()) report.message = "unstable: timestep too large for the stiffness?";
  return report;
}

namespace {

// Forward-mode AD over the 24 inputs of one pair: world pose twists of A's and B's bodies
// (6 + 6) and their world velocity twists (6 + 6).
using Ad = contact::AdScalar<24>;
using contact::SeedPose;
using contact::SeedTwist;

}  // namespace

void PenaltySimulator::DoDerivatives(const State& state, const Control& control, StepDerivatives* out) {
  ValidateState(*scene_, state);
  const auto& model = scene_->model;
  const int nv = model.nv();
  const double dt = options_.timestep;

  ForwardKinematics(model, data_, state.q, state.v);
  double min_phi = 0.0;
  ContactWrenches(&f_ext_, &min_phi);

  // World Jacobians (6 x nv) and world twists of every body.
  const int nb = model.num_bodies();
  std::vector<MatX> J(nb);
  std::vector<Motion> V(nb);
  for (int b = 0; b < nb; ++b) {
    BodyJacobian(model, data_, b, ReferenceFrame::kWorld, &J[b]);
    V[b] = contact::BodyWorldTwist(data_, b);
  }
  auto twist_dq = [&](int b) {  // d(world twist of b)/dq at fixed v
    MatX D;
    WorldTwistDerivative(model, data_, b, &D);
    return D;
  };

  MatX dtauc_dq = MatX::Zero(nv, nv), dtauc_dv = MatX::Zero(nv, nv);
  std::vector<ContactPointT<Ad>> contacts;
  for (const Pair& pair : pairs_) {
    const int ba = scene_->colliders[pair.a].body;
    const int bb = scene_->colliders[pair.b].body;
    const bool move_a = ba != kWorldBody, move_b = bb != kWorldBody;
    const PoseT<Ad> XA = SeedPose<24>(contact::ColliderPose(data_, scene_->colliders[pair.a]), move_a ? 0 : -1);
    const PoseT<Ad> XB = SeedPose<24>(contact::ColliderPose(data_, scene_->colliders[pair.b]), move_b ? 6 : -1);
    const auto VA = SeedTwist<24>(move_a ? V[ba] : Motion::Zero(), move_a ? 12 : -1);
    const auto VB = SeedTwist<24>(move_b ? V[bb] : Motion::Zero(), move_b ? 18 : -1);
    contacts.clear();
    contact::Contacts<Ad>(geometry_[pair.a], XA, geometry_[pair.b], XB, &contacts);
    if (contacts.empty()) continue;
    Eigen::Matrix<double, 6, 24> D = Eigen::Matrix<double, 6, 24>::Zero();
    for (const auto& c : contacts) {
      const contact::V3<Ad> f = penalty::ContactForce<Ad>(pair.law, c, VA, VB);
      const contact::V3<Ad> n = c.p_W.cross(f);
      for (int i = 0; i < 3; ++i) {
        D.row(i) += contact::Gradient(n(i));
        D.row(3 + i) += contact::Gradient(f(i));
      }
    }
    // Wrench on B is w, on A is -w: generalized force (J_b - J_a)^T w.
    MatX dw_dq = MatX::Zero(6, nv), dw_dv = MatX::Zero(6, nv);
    MatX Jrel = MatX::Zero(6, nv);
    if (move_a) {
      dw_dq += D.middleCols<6>(0) * J[ba] + D.middleCols<6>(12) * twist_dq(ba);
      dw_dv += D.middleCols<6>(12) * J[ba];
      Jrel -= J[ba];
    }
    if (move_b) {
      dw_dq += D.middleCols<6>(6) * J[bb] + D.middleCols<6>(18) * twist_dq(bb);
      dw_dv += D.middleCols<6>(18) * J[bb];
      Jrel += J[bb];
    }
    dtauc_dq += Jrel.transpose() * dw_dq;
    dtauc_dv += Jrel.transpose() * dw_dv;
  }

  const VecX tau = ActuatorForces(*scene_, state, control) + PassiveForces(*scene_, state);
  const GeneralizedForceJacobians act = ActuationJacobians(*scene_, state, control);
  AbaDerivatives(model, data_, state.q, state.v, tau, &f_ext_);
  const MatX& Minv = data_.dddq_dtau;
  const MatX da_dq = data_.dddq_dq + Minv * (act.dtau_dq + dtauc_dq);
  const MatX da_dv = data_.dddq_dv + Minv * (act.dtau_dv + dtauc_dv);
  const MatX da_du = Minv * act.dtau_du;

  // v+ = v + dt a;  q+ = Integrate(q, dt v+).
  out->dv_dq = dt * da_dq;
  out->dv_dv = MatX::Identity(nv, nv) + dt * da_dv;
  out->dv_du = dt * da_du;
  ChainSemiImplicitPositions(model, state.q, state.v + dt * data_.ddq, dt, out);
  out->dq_dp.resize(0, 0);
  out->dv_dp.resize(0, 0);
}

std::vector<std::string> PenaltySimulator::OptionWarnings() const {
  return SpringContactWarnings(*scene_, {.model = kName, .stiffness = options_.stiffness, .springs_per_body = 4,
                                         .timestep = options_.timestep});
}

}  // namespace arena
