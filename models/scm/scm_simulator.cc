#include "models/scm/scm_simulator.h"

#include <cmath>
#include <limits>

#include "core/common/enum_names.h"
#include "core/common/error.h"
#include "core/multibody/configuration.h"
#include "core/multibody/dynamics.h"
#include "core/multibody/kinematics.h"
#include "core/scene/actuation.h"
#include "models/point_contact/kernel_geometry.h"
#include "models/point_contact/pose_twist_ad.h"
#include "models/spring_contact_warnings.h"

namespace arena {

namespace scm_simulator {

constexpr EnumNameTable<ScmIntegrator, 2> kIntegrators = {{{ScmIntegrator::kEuler, "euler"}, {ScmIntegrator::kRk4, "rk4"}}};
constexpr EnumNameTable<scm::DampingShape, 2> kShapes = {{{scm::DampingShape::kC1, "c1"}, {scm::DampingShape::kC2, "c2"}}};

// The collider's patches in the world: x = R x_S + p, n = R n_S, the centre's velocity from the
// body's world twist [omega; v] about the origin.
template <class T>
void PlaceCloud(const scm::PatchCloud& cloud, const contact::PoseT<T>& X, const Eigen::Matrix<T, 6, 1>& V,
                scm::WorldCloud<T>* out) {
  const int n = static_cast<int>(cloud.patches.points.rows());
  out->plane = cloud.plane;
  out->tree = cloud.tree.get();
  for (int r = 0; r < 3; ++r) {
    out->t(r) = contact::Val(X.p(r));
    for (int c = 0; c < 3; ++c) out->R(r, c) = contact::Val(X.R(r, c));
  }
  out->p.resize(static_cast<std::size_t>(n));
  out->n.resize(static_cast<std::size_t>(n));
  out->v.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    out->p[k] = X.Act(cloud.patches.points.row(i).transpose());
    out->n[k] = X.R * cloud.patches.normals.row(i).transpose().cast<T>();
    out->v[k] = V.template tail<3>() + V.template head<3>().cross(out->p[k]);
  }
}

}  // namespace scm_simulator

std::string_view ToString(ScmIntegrator v) { return EnumName(v, scm_simulator::kIntegrators); }
bool FromString(std::string_view text, ScmIntegrator* v) { return ParseEnum(text, scm_simulator::kIntegrators, v); }
std::string EnumValues(ScmIntegrator) { return EnumList(scm_simulator::kIntegrators); }
namespace scm {
std::string_view ToString(DampingShape v) { return EnumName(v, scm_simulator::kShapes); }
bool FromString(std::string_view text, DampingShape* v) { return ParseEnum(text, scm_simulator::kShapes, v); }
std::string EnumValues(DampingShape) { return EnumList(scm_simulator::kShapes); }
}  // namespace scm

std::string ScmOptions::Validate() const { return CheckRanges(*this); }

Capabilities ScmSimulator::CapabilitiesFor(const ScmOptions& options) {
  Capabilities c;
  c.spatial = true;
  c.articulated = true;
  for (ShapeType t : {ShapeType::kSphere, ShapeType::kBox, ShapeType::kCapsule, ShapeType::kCylinder,
                      ShapeType::kHalfSpace, ShapeType::kConvexHull, ShapeType::kMesh}) {
    c.shapes.set(static_cast<size_t>(t));
  }
  c.derivatives = DerivativeSource::kAnalytical;
  // Smooth in the state; the paper's damping shape is C1 only (c2 makes the step C2).
  c.smooth = true;
  (void)options;
  return c;
}

ScmSimulator::ScmSimulator(std::shared_ptr<const Scene> scene, const ScmOptions& options)
    : SimulatorBase(std::move(scene), options), data_(scene_->model) {
  if (std::string error = options_.Validate(); !error.empty()) throw InvalidArgument("scm: " + error);
  scene_->Validate();
  if (std::string why = CheckSupport(CapabilitiesFor(options_), *scene_); !why.empty()) {
    throw Unsupported("scm: " + why);
  }
  softmin_.ssdf = options_.SsdfTemperature();
  softmin_.separation = options_.separation_temperature;
  if (options_.skip_small_weights) softmin_.cutoff = 36.0;
  softmin_.skip_out_of_reach = options_.skip_out_of_reach;
  if (options_.threads != 1) {
    arena_ = options_.threads > 0 ? std::make_unique<tbb::task_arena>(options_.threads) : std::make_unique<tbb::task_arena>();
  }
  for (const Collider& c : scene_->colliders) clouds_.push_back(scm::MakePatchCloud(c.shape, options_.patch_size));
  for (const auto& [a, b] : scene_->CollisionPairs()) {
    if (clouds_[static_cast<std::size_t>(a)].plane && clouds_[static_cast<std::size_t>(b)].plane) continue;
    Pair p;
    p.a = a;
    p.b = b;
    p.law = {options_.stiffness, options_.softplus_width, options_.dissipation_velocity, options_.stiction_velocity,
             std::min(scene_->colliders[a].friction, scene_->colliders[b].friction), options_.damping_shape};
    pairs_.push_back(p);
  }
  f_ext_.assign(scene_->model.num_bodies(), Force::Zero());
}

double ScmSimulator::ContactWrenches(std::vector<Force>* f_ext, std::vector<ContactPoint>* points) {
  using scm_simulator::PlaceCloud;
  if (points != nullptr) points->clear();
  for (auto& f : *f_ext) f.setZero();
  double phi_min = std::numeric_limits<double>::infinity();
  scm::WorldCloud<double> ca, cb;
  std::vector<scm::FieldPoint> field;
  for (const Pair& pair : pairs_) {
    const Collider* col[2] = {&scene_->colliders[pair.a], &scene_->colliders[pair.b]};
    scm::WorldCloud<double>* world[2] = {&ca, &cb};
    for (int s = 0; s < 2; ++s) {
      const SE3 X = contact::ColliderPose(data_, *col[s]);
      const Vec6 V = contact::BodyWorldTwist(data_, col[s]->body);
      PlaceCloud<double>(clouds_[static_cast<std::size_t>(s == 0 ? pair.a : pair.b)], {X.rotation(), X.translation()},
                         V, world[s]);
    }
    scm::Wrench<double> wa = scm::Wrench<double>::Zero(), wb = scm::Wrench<double>::Zero();
    field.clear();
    phi_min = std::min(phi_min, scm::PairWrenches<double>(pair.law, softmin_, ca, cb, &wa, &wb,
                                                          points != nullptr ? &field : nullptr, 1e-3, arena_.get()));
    if (col[0]->body != kWorldBody) (*f_ext)[col[0]->body] += wa;
    if (col[1]->body != kWorldBody) (*f_ext)[col[1]->body] += wb;
    if (points == nullptr) continue;
    for (const scm::FieldPoint& f : field) {
      const scm::WorldCloud<double>& own = *world[f.cloud];
      const auto k = static_cast<std::size_t>(f.index);
      // The point's normal: its own outward normal reversed (the force on it points away from the other body).
      points->push_back({col[f.cloud]->body, col[1 - f.cloud]->body, own.p[k], -own.n[k], f.ssdf, true, f.force,
                         pair.law.friction});
    }
  }
  return phi_min;
}

const VecX& ScmSimulator::Acceleration(const VecX& q, const VecX& v, const Control& u, StepReport* report) {
  ForwardKinematics(scene_->model, data_, q, v);
  const double phi_min = ContactWrenches(&f_ext_, report != nullptr ? &points_ : nullptr);
  if (report != nullptr) {
    report->min_signed_distance = phi_min;
    report->contacts = static_cast<int>(points_.size());
  }
  const State s{q, v, 0.0};
  const VecX tau = ActuatorForces(*scene_, s, u) + PassiveForces(*scene_, s);
  return Aba(scene_->model, data_, q, v, tau, &f_ext_);
}

StepReport ScmSimulator::DoStep(State& state, const Control& control) {
  const auto& model = scene_->model;
  const double h = options_.timestep;
  StepReport report;
  report.iterations = 1;
  if (options_.integrator == ScmIntegrator::kEuler) {
    const VecX a = Acceleration(state.q, state.v, control, &report);
    state.v += h * a;
    state.q = Integrate(model, state.q, state.v, h);
  } else {
    // Classic RK4 in the tangent space at q: stage i at q (+) c_i h v_{i-1}.
    const VecX q0 = state.q, v0 = state.v;
    const VecX a1 = Acceleration(q0, v0, control, &report);
    const VecX v2 = v0 + 0.5 * h * a1;
    const VecX a2 = Acceleration(Integrate(model, q0, v0, 0.5 * h), v2, control);
    const VecX v3 = v0 + 0.5 * h * a2;
    const VecX a3 = Acceleration(Integrate(model, q0, v2, 0.5 * h), v3, control);
    const VecX v4 = v0 + h * a3;
    const VecX a4 = Acceleration(Integrate(model, q0, v3, h), v4, control);
    state.q = Integrate(model, q0, (v0 + 2.0 * v2 + 2.0 * v3 + v4) / 6.0, h);
    state.v = v0 + h / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
  }
  if (!state.v.allFinite()) report.message = "unstable: timestep too large for the stiffness?";
  return report;
}

void ScmSimulator::ContactForceJacobians(MatX* dtau_dq, MatX* dtau_dv) {
  using Ad = contact::AdScalar<24>;
  using scm_simulator::PlaceCloud;
  const auto& model = scene_->model;
  const int nv = model.nv();
  dtau_dq->setZero(nv, nv);
  dtau_dv->setZero(nv, nv);
  const int nb = model.num_bodies();
  std::vector<MatX> J(static_cast<std::size_t>(nb)), Tq(static_cast<std::size_t>(nb));
  for (int b = 0; b < nb; ++b) {
    BodyJacobian(model, data_, b, ReferenceFrame::kWorld, &J[static_cast<std::size_t>(b)]);
    WorldTwistDerivative(model, data_, b, &Tq[static_cast<std::size_t>(b)]);
  }
  scm::WorldCloud<Ad> ca, cb;
  for (const Pair& pair : pairs_) {
    const int body[2] = {scene_->colliders[pair.a].body, scene_->colliders[pair.b].body};
    scm::WorldCloud<Ad>* world[2] = {&ca, &cb};
    for (int s = 0; s < 2; ++s) {
      const bool moves = body[s] != kWorldBody;
      const Collider& c = scene_->colliders[s == 0 ? pair.a : pair.b];
      const auto X = contact::SeedPose<24>(contact::ColliderPose(data_, c), moves ? 6 * s : -1);
      const auto V = contact::SeedTwist<24>(contact::BodyWorldTwist(data_, body[s]), moves ? 12 + 6 * s : -1);
      PlaceCloud<Ad>(clouds_[static_cast<std::size_t>(s == 0 ? pair.a : pair.b)], X, V, world[s]);
    }
    scm::Wrench<Ad> w[2] = {scm::Wrench<Ad>::Zero(), scm::Wrench<Ad>::Zero()};
    scm::PairWrenches<Ad>(pair.law, softmin_, ca, cb, &w[0], &w[1], nullptr, 1e-3, arena_.get());
    for (int s = 0; s < 2; ++s) {  // the wrench on body s
      if (body[s] == kWorldBody) continue;
      Eigen::Matrix<double, 6, 24> D;
      for (int i = 0; i < 6; ++i) D.row(i) = contact::Gradient(w[s](i));
      MatX dw_dq = MatX::Zero(6, nv), dw_dv = MatX::Zero(6, nv);
      for (int r = 0; r < 2; ++r) {  // through body r's pose and twist
        if (body[r] == kWorldBody) continue;
        const auto br = static_cast<std::size_t>(body[r]);
        dw_dq += D.middleCols<6>(6 * r) * J[br] + D.middleCols<6>(12 + 6 * r) * Tq[br];
        dw_dv += D.middleCols<6>(12 + 6 * r) * J[br];
      }
      const MatX& Js = J[static_cast<std::size_t>(body[s])];
      *dtau_dq += Js.transpose() * dw_dq;
      *dtau_dv += Js.transpose() * dw_dv;
    }
  }
}

void ScmSimulator::Jacobians(const VecX& q, const VecX& v, const Control& u, AccelerationJacobians* out) {
  const auto& model = scene_->model;
  ForwardKinematics(model, data_, q, v);
  ContactWrenches(&f_ext_, nullptr);
  MatX dtauc_dq, dtauc_dv;
  ContactForceJacobians(&dtauc_dq, &dtauc_dv);
  const State s{q, v, 0.0};
  const VecX tau = ActuatorForces(*scene_, s, u) + PassiveForces(*scene_, s);
  const GeneralizedForceJacobians act = ActuationJacobians(*scene_, s, u);
  AbaDerivatives(model, data_, q, v, tau, &f_ext_);
  const MatX& Minv = data_.dddq_dtau;
  out->a = data_.ddq;
  out->dq = data_.dddq_dq + Minv * (act.dtau_dq + dtauc_dq);
  out->dv = data_.dddq_dv + Minv * (act.dtau_dv + dtauc_dv);
  out->du = Minv * act.dtau_du;
}

namespace scm_simulator {

// A quantity's Jacobians with respect to the step's inputs (q in the tangent space at q).
struct Tangent {
  MatX dq, dv, du;
  Tangent operator+(const Tangent& o) const { return {dq + o.dq, dv + o.dv, du + o.du}; }
  Tangent operator*(double s) const { return {s * dq, s * dv, s * du}; }
};

// (q (+) w): its tangent Jacobians from q's (identity) and w's.
Tangent IntegrateTangent(const MultibodyModel& model, const VecX& q, const VecX& w, const Tangent& dw) {
  MatX Jq, Jw;
  IntegrateJacobians(model, q, w, &Jq, &Jw);
  Tangent t = dw;
  t.dq = Jq + Jw * dw.dq;
  t.dv = Jw * dw.dv;
  t.du = Jw * dw.du;
  return t;
}

}  // namespace scm_simulator

void ScmSimulator::DoDerivatives(const State& state, const Control& control, StepDerivatives* out) {
  using scm_simulator::Tangent;
  ValidateState(*scene_, state);
  const auto& model = scene_->model;
  const int nv = model.nv(), nu = scene_->nu();
  const double h = options_.timestep;
  AccelerationJacobians J;
  if (options_.integrator == ScmIntegrator::kEuler) {
    Jacobians(state.q, state.v, control, &J);
    out->dv_dq = h * J.dq;
    out->dv_dv = MatX::Identity(nv, nv) + h * J.dv;
    out->dv_du = h * J.du;
    ChainSemiImplicitPositions(model, state.q, state.v + h * J.a, h, out);
  } else {
    const Tangent v_in{MatX::Zero(nv, nv), MatX::Identity(nv, nv), MatX::Zero(nv, nu)};
    // Stage s: q_s = q0 (+) c h v_{s-1}, v_s = v0 + c h a_{s-1}; a_s = a(q_s, v_s, u).
    const double c[4] = {0.0, 0.5, 0.5, 1.0};
    VecX v_prev = state.v, a_prev = VecX::Zero(nv);
    Tangent dv_prev = v_in, da_prev{MatX::Zero(nv, nv), MatX::Zero(nv, nv), MatX::Zero(nv, nu)};
    VecX v_sum = VecX::Zero(nv), a_sum = VecX::Zero(nv);
    Tangent dv_sum = v_in * 0.0, da_sum = v_in * 0.0;
    for (int s = 0; s < 4; ++s) {
      const VecX w = c[s] * h * v_prev;
      const Tangent dq_s = scm_simulator::IntegrateTangent(model, state.q, w, dv_prev * (c[s] * h));
      const VecX v_s = state.v + c[s] * h * a_prev;
      const Tangent dv_s = v_in + da_prev * (c[s] * h);
      Jacobians(Integrate(model, state.q, w), v_s, control, &J);
      Tangent da_s{J.dq * dq_s.dq + J.dv * dv_s.dq, J.dq * dq_s.dv + J.dv * dv_s.dv,
                   J.dq * dq_s.du + J.dv * dv_s.du + J.du};
      const double weight = (s == 0 || s == 3) ? 1.0 : 2.0;
      v_sum += weight * v_s;
      a_sum += weight * J.a;
      dv_sum = dv_sum + dv_s * weight;
      da_sum = da_sum + da_s * weight;
      v_prev = v_s;
      a_prev = J.a;
      dv_prev = dv_s;
      da_prev = da_s;
    }
    const Tangent dq_next = scm_simulator::IntegrateTangent(model, state.q, h / 6.0 * v_sum, dv_sum * (h / 6.0));
    const Tangent dv_next = v_in + da_sum * (h / 6.0);
    out->dq_dq = dq_next.dq;
    out->dq_dv = dq_next.dv;
    out->dq_du = dq_next.du;
    out->dv_dq = dv_next.dq;
    out->dv_dv = dv_next.dv;
    out->dv_du = dv_next.du;
  }
  out->dq_dp.resize(0, 0);
  out->dv_dp.resize(0, 0);
}

// RK4's stability interval on the imaginary axis is 2 sqrt(2) (semi-implicit Euler's is 2).
std::vector<std::string> ScmSimulator::OptionWarnings() const {
  const double limit = options_.integrator == ScmIntegrator::kRk4 ? 2.0 * std::sqrt(2.0) : 2.0;
  return SpringContactWarnings(*scene_, {.model = kName, .stiffness = options_.stiffness, .springs_per_body = 1,
                                         .timestep = options_.timestep, .stability_limit = limit});
}

}  // namespace arena
