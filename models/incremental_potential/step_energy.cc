#include "models/incremental_potential/step_energy.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>

#include "core/common/error.h"
#include "core/common/stopwatch.h"
#include "core/common/options.h"
#include "core/math/so3.h"
#include "core/multibody/configuration.h"
#include "core/multibody/joint.h"
#include "models/incremental_potential/mesh_intersection.h"

namespace arena {

namespace {


bool OneDof(JointType t) { return t == JointType::kRevolute || t == JointType::kPrismatic; }

// Carries a contact term's point derivatives to the bodies: dE/dT_k += g [v; 1]^T for a point
// at v in body k's frame, and the point Hessian blocks through B = dx/dxi
// (models/incremental_potential/pose_derivatives.h): each body once (ordered point pairs on one body; k < l
// across bodies, the (q, p) entry standing for the transpose).
class BodySink final : public ContactDerivativeSink {
 public:
  BodySink(const ContactConfiguration& x, const std::vector<bool>& moves, std::vector<Mat34>* A, BodyHessian* blocks)
      : x_(x), moves_(moves), A_(A), blocks_(blocks) {}

  void AddGradient(const MeshPoint& p, const Vec3& g) override {
    const int k = BodyOf(p);
    if (k < 0) return;
    Eigen::Vector4d v;
    v << p.local, 1.0;
    (*A_)[k] += g * v.transpose();
  }
  void AddHessian(const MeshPoint& p, const MeshPoint& q, const Mat3& block) override {
    const int k = BodyOf(p), l = BodyOf(q);
    if (k < 0 || l < 0 || l < k) return;
    // Consecutive blocks mostly join the same two bodies: keep that target (a map entry).
    if (k != last_k_ || l != last_l_) {
      last_k_ = k;
      last_l_ = l;
      target_ = &blocks_->Block(k, l);
    }
    AddPointPairTwistHessian(x_.pose[p.mesh].Act(p.local), block, x_.pose[q.mesh].Act(q.local), target_);
  }
  bool TakesTwistHessians() const override { return true; }
  void AddTwistHessian(int mesh_p, int mesh_q, const Mat6& block) override {
    const int k = BodyOfMesh(mesh_p), l = BodyOfMesh(mesh_q);
    if (k < 0 || l < 0 || l < k) return;
    blocks_->Block(k, l) += block;
  }

 private:
  int BodyOf(const MeshPoint& p) const { return BodyOfMesh(p.mesh); }
  int BodyOfMesh(int mesh) const {
    const int k = (*x_.meshes)[mesh].body;
    return k != kWorldBody && moves_[k] ? k : -1;
  }
  const ContactConfiguration& x_;
  const std::vector<bool>& moves_;  // bodies carried by at least one DOF
  std::vector<Mat34>* A_;
  BodyHessian* blocks_;
  int last_k_ = -1, last_l_ = -1;
  Mat6* target_ = nullptr;
};

// Sums a lagged term's mixed point blocks d2E/dx+_p dx^t_q into twist blocks per (end body,
// start body) (models/incremental_potential/pose_derivatives.h PointPairTwistHessian).
class StartTwistSink final : public ContactStartSink {
 public:
  StartTwistSink(const ContactConfiguration& end, const ContactConfiguration& start, const std::vector<bool>& moves,
                 std::map<std::pair<int, int>, Mat6>* out)
      : end_(end), start_(start), moves_(moves), out_(out) {}
  void AddMixed(const MeshPoint& p, const MeshPoint& q, const Mat3& block) override {
    const int k = (*end_.meshes)[p.mesh].body, l = (*start_.meshes)[q.mesh].body;
    if (k == kWorldBody || l == kWorldBody || !moves_[k] || !moves_[l]) return;
    if (k != last_k_ || l != last_l_) {  // consecutive blocks mostly join the same bodies
      last_k_ = k;
      last_l_ = l;
      target_ = &out_->try_emplace({k, l}, Mat6::Zero()).first->second;
    }
    AddPointPairTwistHessian(end_.pose[p.mesh].Act(p.local), block, start_.pose[q.mesh].Act(q.local), target_);
  }

 private:
  const ContactConfiguration& end_;
  const ContactConfiguration& start_;
  const std::vector<bool>& moves_;
  std::map<std::pair<int, int>, Mat6>* out_;
  int last_k_ = -1, last_l_ = -1;
  Mat6* target_ = nullptr;
};

}  // namespace

std::string StepEnergyOptions::Validate() const {
  if (!(timestep > 0.0) || !(timestep <= 10.0)) return "timestep must be in (0, 10] s, got " + options_detail::FormatDouble(timestep);
  if (!(limit_width > 0.0) || !std::isfinite(limit_width)) return "limit_width must be > 0 and finite";
  if (!(limit_stiffness > 0.0) || !std::isfinite(limit_stiffness)) return "limit_stiffness must be > 0 and finite";
  return "";
}

StepEnergy::StepEnergy(std::shared_ptr<const Scene> scene, std::vector<ColliderMesh> meshes, ContactPotential* contact,
                       const StepEnergyOptions& options)
    : scene_(std::move(scene)), meshes_(std::move(meshes)), contact_(contact), options_(options), chain_(scene_->model) {
  if (std::string why = options_.Validate(); !why.empty()) throw InvalidArgument(why);
  const MultibodyModel& model = scene_->model;
  for (const Actuator& a : scene_->actuators) {
    if (!OneDof(model.body(a.body).joint.type)) {
      throw Unsupported("actuator '" + a.name + "' drives a joint with more than one DOF (the incremental "
                        "potential takes actuators on revolute and prismatic joints)");
    }
  }
  ComputeMoments();
  const int nb = model.num_bodies();
  A_.resize(nb);
  G_.resize(nb);
  moves_.assign(nb, false);
  for (int k = 0; k < nb; ++k) moves_[k] = !chain_.path(k).empty();
  vertices_.meshes = &meshes_;
  vertices_.world.resize(meshes_.size());
}

void StepEnergy::ComputeMoments() {
  const MultibodyModel& model = scene_->model;
  const int nb = model.num_bodies();
  moments_.assign(nb, BodyMoments{});
  dynamic_.clear();
  for (int k = 0; k < nb; ++k) {
    const SpatialInertia& inertia = model.body(k).inertia;
    const double M = inertia.mass();
    if (!(M > 0.0)) continue;
    dynamic_.push_back(k);
    int count = 0;
    for (const ColliderMesh& m : meshes_) count += m.body == k ? static_cast<int>(m.vertices.rows()) : 0;
    Mat3 S = Mat3::Zero();
    Vec3 P = Vec3::Zero();
    if (options_.lumped_mass && count > 0) {
      const double mv = M / count;  // seed 003 Sec. IV-A: mass spread evenly over the vertices
      moments_[k].vertex_mass = mv;
      for (const ColliderMesh& m : meshes_) {
        if (m.body != k) continue;
        for (Eigen::Index r = 0; r < m.vertices.rows(); ++r) {
          const Vec3 v = m.vertices.row(r).transpose();
          P += mv * v;
          S += mv * v * v.transpose();
        }
      }
    } else {
      // Exact: int rho x x^T = m c c^T + tr(I_c)/2 1 - I_c.
      const Vec3 c = inertia.com();
      const Mat3 Ic = inertia.inertia_com();
      P = M * c;
      S = M * c * c.transpose() + 0.5 * Ic.trace() * Mat3::Identity() - Ic;
    }
    moments_[k].W << S, P, P.transpose(), M;
    moments_[k].m << P, M;
  }
}

void StepEnergy::SetVertices(const std::vector<DesignVertex>& which, const std::vector<Vec3>& local) {
  for (size_t i = 0; i < which.size(); ++i) meshes_.at(which[i].mesh).vertices.row(which[i].vertex) = local.at(i).transpose();
  ComputeMoments();
  exact_blocks_q_.resize(0);
}

namespace step_energy {

// Whether any pair of meshes the scene lets collide intersects at x.
bool StartIntersects(const ContactConfiguration& x) {
  const std::vector<ColliderMesh>& meshes = *x.meshes;
  for (int a = 0; a < static_cast<int>(meshes.size()); ++a) {
    for (int b : meshes[static_cast<std::size_t>(a)].partners) {
      if (MeshesIntersect(x, a, b)) return true;
    }
  }
  return false;
}

}  // namespace step_energy

void StepEnergy::Begin(const State& start, const Control& control) {
  using step_energy::StartIntersects;
  const MultibodyModel& model = scene_->model;
  start_ = start;
  exact_blocks_q_.resize(0);
  u_ = VecX::Zero(scene_->nu());
  clamped_.assign(scene_->nu(), false);
  for (int i = 0; i < scene_->nu(); ++i) {
    const Actuator& a = scene_->actuators[i];
    const double raw = control.u.size() == 0 ? 0.0 : control.u[i];
    u_[i] = std::clamp(raw, a.ctrl_lower, a.ctrl_upper);
    clamped_[i] = u_[i] != raw;
  }
  q_prev_ = Integrate(model, start.q, -options_.timestep * start.v);
  chain_.Update(q_prev_);
  target_.assign(model.num_bodies(), Mat34::Zero());
  for (int k = 0; k < model.num_bodies(); ++k) target_[k] = -TopRows(chain_.pose(k));
  chain_.Update(start.q);
  for (int k = 0; k < model.num_bodies(); ++k) target_[k] += 2.0 * TopRows(chain_.pose(k));
  if (contact_ != nullptr) {
    WorldVertices(start.q, &start_vertices_);
    const auto t0 = std::chrono::steady_clock::now();
    start_intersecting_ = StartIntersects(start_vertices_);
    contact_->BeginStep(start_vertices_);
    contact_seconds_ += SecondsSince(t0);
  }
}

void StepEnergy::WorldVertices(const VecX& q, ContactConfiguration* out) {
  chain_.Update(q);
  out->meshes = &meshes_;
  out->world.resize(meshes_.size());
  out->pose.resize(meshes_.size());
  for (size_t m = 0; m < meshes_.size(); ++m) {
    const ColliderMesh& mesh = meshes_[m];
    if (mesh.body == kWorldBody) {
      out->pose[m] = SE3();
      out->world[m] = mesh.vertices;
      continue;
    }
    const SE3& T = chain_.pose(mesh.body);
    out->pose[m] = T;
    out->world[m] = (mesh.vertices * T.rotation().transpose()).rowwise() + T.translation().transpose();
  }
}

double StepEnergy::LimitBarrier(double d, double* d1, double* d2) const {
  const double h = options_.limit_width, k = options_.limit_stiffness;
  *d1 = *d2 = 0.0;
  if (d <= 0.0) return kInf;
  if (d >= h) return 0.0;
  const double l = std::log(d / h), e = d - h;
  *d1 = k * (-2.0 * e * l - e * e / d);
  *d2 = k * (-2.0 * l - 4.0 * e / d + e * e / (d * d));
  return -k * e * e * l;
}

double StepEnergy::JointTerms(const VecX& q, VecX* g, MatX* H) const {
  const MultibodyModel& model = scene_->model;
  const double dt = options_.timestep;
  double e = 0.0;
  auto add = [&](int i, double value, double d1, double d2) {
    e += value;
    if (g != nullptr) (*g)[i] += d1;
    if (H != nullptr) (*H)(i, i) += d2;
  };
  for (const BodyModel& b : model.bodies()) {
    const JointModel& j = b.joint;
    if (!OneDof(j.type)) continue;
    const int i = b.idx_v;
    const double th = q[b.idx_q], th0 = start_.q[b.idx_q], v0 = start_.v[i];
    if (j.armature > 0.0) {
      const double r = th - th0 - dt * v0;
      add(i, 0.5 * j.armature / (dt * dt) * r * r, j.armature / (dt * dt) * r, j.armature / (dt * dt));
    }
    if (j.stiffness > 0.0) {
      const double r = th - j.spring_reference;
      add(i, 0.5 * j.stiffness * r * r, j.stiffness * r, j.stiffness);
    }
    if (j.damping > 0.0) {
      const double r = th - th0;
      add(i, 0.5 * j.damping / dt * r * r, j.damping / dt * r, j.damping / dt);
    }
    double d1 = 0.0, d2 = 0.0;
    if (std::isfinite(j.lower)) {
      const double value = LimitBarrier(th - j.lower, &d1, &d2);
      if (!std::isfinite(value)) return kInf;
      add(i, value, d1, d2);
    }
    if (std::isfinite(j.upper)) {
      const double value = LimitBarrier(j.upper - th, &d1, &d2);
      if (!std::isfinite(value)) return kInf;
      add(i, value, -d1, d2);
    }
  }
  for (int a = 0; a < scene_->nu(); ++a) {
    const Actuator& act = scene_->actuators[a];
    const BodyModel& b = model.body(act.body);
    const int i = b.idx_v;
    const double th = q[b.idx_q], th0 = start_.q[b.idx_q];
    if (act.type == ActuatorType::kTorque) {
      add(i, -act.gear * u_[a] * (th - th0), -act.gear * u_[a], 0.0);
    } else if (act.type == ActuatorType::kPdTarget) {
      const double r = th - u_[a], s = th - th0;
      add(i, 0.5 * act.kp * r * r + 0.5 * act.kd / dt * s * s, act.kp * r + act.kd / dt * s, act.kp + act.kd / dt);
    } else {
      // Velocity target: kd/(2 dt) (theta - theta^t - dt u)^2, whose gradient kd (v+ - u) is
      // minus the actuator's torque at v+ = (theta - theta^t) / dt (seed 004 Sec. 3.1, PD energy).
      const double w = th - th0 - dt * u_[a];
      add(i, 0.5 * act.kd / dt * w * w, act.kd / dt * w, act.kd / dt);
    }
  }
  return e;
}

double StepEnergy::Evaluate(const VecX& q, VecX* gradient, MatX* hessian, bool project) {
  const MultibodyModel& model = scene_->model;
  const int nb = model.num_bodies();
  const double dt2 = options_.timestep * options_.timestep;
  const Vec3 gravity = model.gravity();
  WorldVertices(q, &vertices_);  // also chain_ at q
  exact_blocks_q_.resize(0);      // G_ and blocks_ are rewritten below
  ++(gradient != nullptr || hessian != nullptr ? derivative_evaluations_ : energy_evaluations_);
  double e = 0.0;
  std::fill(A_.begin(), A_.end(), Mat34::Zero());
  if (hessian != nullptr) blocks_.Reset(nb);
  for (int k : dynamic_) {
    const Mat34 X = TopRows(chain_.pose(k));
    const Mat34 D = X - target_[k];
    const Eigen::Matrix4d W = moments_[k].W / dt2;
    e += 0.5 * (D * W * D.transpose()).trace() - gravity.dot(X * moments_[k].m);
    A_[k] = D * W - gravity * moments_[k].m.transpose();
    if (hessian != nullptr) blocks_.self[k] += PoseQuadratic(chain_.pose(k), W);
  }
  if (contact_ != nullptr) {
    if (start_intersecting_) return kInf;
    BodySink sink(vertices_, moves_, &A_, &blocks_);
    const auto t0 = std::chrono::steady_clock::now();
    const double c = contact_->Evaluate(vertices_, gradient != nullptr || hessian != nullptr ? &sink : nullptr,
                                        hessian != nullptr, project);
    contact_seconds_ += SecondsSince(t0);
    if (!std::isfinite(c)) return kInf;
    e += c;
  }
  if (gradient != nullptr || hessian != nullptr) {
    for (int k = 0; k < nb; ++k) G_[k] = PoseGradient(chain_.pose(k), A_[k]);
  }
  if (gradient != nullptr) chain_.Gradient(G_, gradient);
  if (hessian != nullptr) {
    for (int k = 0; k < nb; ++k) {
      if (!A_[k].isZero(0.0)) blocks_.self[k] += PoseSecondOrder(chain_.pose(k), A_[k]);
    }
    hessian->setZero(model.nv(), model.nv());
    chain_.AddHessian(blocks_, G_, hessian);
  }
  const double joints = JointTerms(q, gradient, hessian);
  if (!std::isfinite(joints)) return kInf;
  if (hessian != nullptr && !project) exact_blocks_q_ = q;
  return e + joints;
}

double StepEnergy::LimitMaxStep(const VecX& q, const VecX& d) const {
  double alpha = 1.0;
  for (const BodyModel& b : scene_->model.bodies()) {
    const JointModel& j = b.joint;
    if (!OneDof(j.type)) continue;
    const double th = q[b.idx_q], step = d[b.idx_v];
    if (step < 0.0 && std::isfinite(j.lower)) alpha = std::min(alpha, (th - j.lower) / -step);
    if (step > 0.0 && std::isfinite(j.upper)) alpha = std::min(alpha, (j.upper - th) / step);
  }
  return std::max(alpha, 0.0);
}

std::map<std::pair<int, int>, Mat6> StepEnergy::LaggedTwistBlocks(const VecX& q) {
  std::map<std::pair<int, int>, Mat6> mixed;
  if (contact_ == nullptr) return mixed;
  WorldVertices(q, &vertices_);  // also chain_ at q
  StartTwistSink sink(vertices_, start_vertices_, moves_, &mixed);
  contact_->StartDerivatives(vertices_, &sink);
  return mixed;
}

void StepEnergy::InputDerivatives(const VecX& q, MatX* dg_dq, MatX* dg_dv, MatX* dg_du) {
  const MultibodyModel& model = scene_->model;
  const int nv = model.nv(), nb = model.num_bodies();
  const double dt = options_.timestep, dt2 = dt * dt;
  dg_dq->setZero(nv, nv);
  dg_dv->setZero(nv, nv);
  dg_du->setZero(nv, scene_->nu());
  // Inertia: A_k = (X - 2 X^t + X^{t-1}) W depends on the start through X^t and X^{t-1}, with
  // q^{t-1} = q^t (+) (-dt v^t): dq^{t-1} = Jq dq^t - dt Jv dv^t.
  MatX Jq, Jv;
  IntegrateJacobians(model, start_.q, -dt * start_.v, &Jq, &Jv);
  TangentChain at_start(model), at_prev(model);
  at_start.Update(start_.q);
  at_prev.Update(q_prev_);
  chain_.Update(q);
  auto moved = [](const TangentChain& c, int k, int dof) {  // top rows of s^ T_k
    const Motion& s = c.dof_twist(dof);
    const SE3& T = c.pose(k);
    Mat34 Y;
    Y << Skew(s.head<3>()) * T.rotation(), s.head<3>().cross(T.translation()) + s.tail<3>();
    return Y;
  };
  std::vector<Vec6> dG(nb, Vec6::Zero());
  VecX column(nv);
  auto add_column = [&](int k, const Mat34& dA, MatX* out, int col) {
    const Vec6 g = PoseGradient(chain_.pose(k), dA);
    for (int i : chain_.path(k)) (*out)(i, col) += chain_.dof_twist(i).dot(g);
  };
  for (int k : dynamic_) {
    const Eigen::Matrix4d W = moments_[k].W / dt2;
    const std::vector<int>& path = at_prev.path(k);
    for (int m = 0; m < nv; ++m) {
      // d(X^{t-1})/dq^t_m and d(X^{t-1})/dv^t_m through q^{t-1}.
      Mat34 dprev_q = Mat34::Zero(), dprev_v = Mat34::Zero();
      for (int n : path) {
        if (Jq(n, m) == 0.0 && Jv(n, m) == 0.0) continue;
        const Mat34 Y = moved(at_prev, k, n);
        dprev_q += Jq(n, m) * Y;
        dprev_v += -dt * Jv(n, m) * Y;
      }
      Mat34 dstart = Mat34::Zero();
      if (std::find(path.begin(), path.end(), m) != path.end()) dstart = moved(at_start, k, m);
      // A = (X - C) W - g m^T with C = 2 X^t - X^{t-1}: dA = -dC W.
      const Mat34 dA_q = -(2.0 * dstart - dprev_q) * W;
      const Mat34 dA_v = dprev_v * W;
      if (!dA_q.isZero(0.0)) add_column(k, dA_q, dg_dq, m);
      if (!dA_v.isZero(0.0)) add_column(k, dA_v, dg_dv, m);
    }
  }
  // Lagged contact terms: d2E/dx+_p dx_q carried to (q+ tangent, q^t tangent) through the
  // point Jacobians at the end (chain_) and at the start (at_start).
  if (contact_ != nullptr) {
    for (const auto& [kl, block] : LaggedTwistBlocks(q)) {
      const auto [k, l] = kl;
      for (int i : chain_.path(k)) {
        const Vec6 row = chain_.dof_twist(i).transpose() * block;
        for (int m : at_start.path(l)) (*dg_dq)(i, m) += row.dot(at_start.dof_twist(m));
      }
    }
  }
  // 1-DOF joint terms.
  for (const BodyModel& b : model.bodies()) {
    const JointModel& j = b.joint;
    if (!OneDof(j.type)) continue;
    const int i = b.idx_v;
    if (j.armature > 0.0) {
      (*dg_dq)(i, i) += -j.armature / dt2;
      (*dg_dv)(i, i) += -j.armature / dt;
    }
    if (j.damping > 0.0) (*dg_dq)(i, i) += -j.damping / dt;
  }
  for (int a = 0; a < scene_->nu(); ++a) {
    const Actuator& act = scene_->actuators[a];
    const int i = model.body(act.body).idx_v;
    const bool clamped = clamped_[a];  // a clamped control has no derivative
    // The energy's gradient is -ControlGain u + (terms in theta) + VelocityGain (theta - theta^t) / dt.
    if (!clamped) (*dg_du)(i, a) += -ControlGain(act);
    (*dg_dq)(i, i) += -VelocityGain(act) / dt;
  }
}

}  // namespace arena
