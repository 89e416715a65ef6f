#include "experiments/grippers/gripper_task.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/common/error.h"

namespace arena {

namespace gripper_task {

// The X's frame origin from its free joint's q block (x, y, z, qw, qx, qy, qz) and its rotation.
Vec3 ObjectPosition(const Scene& scene, int object, const VecX& q) { return q.segment<3>(scene.model.body(object).idx_q); }
Mat3 ObjectRotation(const Scene& scene, int object, const VecX& q) {
  const int i = scene.model.body(object).idx_q;
  return Quat(q[i + 3], q[i + 4], q[i + 5], q[i + 6]).normalized().toRotationMatrix();
}

Vec3 JawPosition(const GripperGraspLoss& loss, const VecX& q) {
  return Vec3(q[loss.slides[0]], q[loss.slides[1]], q[loss.slides[2]]);
}

// d = p_X - p_J, the X's offset from the jaw.
Vec3 Offset(const Scene& scene, const GripperGraspLoss& loss, const VecX& q) {
  return ObjectPosition(scene, loss.object, q) - JawPosition(loss, q);
}

// Adds dL/dd (world) at state q to the tangent gradient: the X's (omega, v) in its body frame
// gets R^T g on v; the jaw's slides -g.
void AddOffsetGradient(const Scene& scene, const GripperGraspLoss& loss, const VecX& q, const Vec3& g, VecX* dq) {
  const int iv = scene.model.body(loss.object).idx_v;
  dq->segment<3>(iv + 3) += ObjectRotation(scene, loss.object, q).transpose() * g;
  for (int k = 0; k < 3; ++k) (*dq)[loss.slides[k]] -= g[k];
}

void CheckStates(const GripperGraspLoss& loss, const std::vector<State>& states) {
  if (static_cast<int>(states.size()) != loss.stages.total() + 1) {
    throw InvalidArgument("GripperGraspLoss: " + std::to_string(states.size()) + " states, the stages need " +
                          std::to_string(loss.stages.total() + 1));
  }
}

double Smoothstep(double s) {
  s = std::clamp(s, 0.0, 1.0);
  return s * s * (3.0 - 2.0 * s);
}
double SmoothstepRate(double s) { return s <= 0.0 || s >= 1.0 ? 0.0 : 6.0 * s * (1.0 - s); }

}  // namespace gripper_task

VecX GripperScriptControls(const Scene& scene, const GripperStages& stages, double timestep, double kp) {
  if (scene.nu() != 6) throw InvalidArgument("gripper script: the scene must have the jaw's six actuators");
  const GripperWaypoints w = GripperScript();
  const int jaw = scene.model.FindBody(kGripperBody);
  const double sag = scene.model.body(jaw).inertia.mass() * 9.81 / kp;
  const int T = stages.total();
  VecX u(6 * T);
  // The stages' waypoints and lengths: lower, approach, lift, hold.
  const Vec3 from[4] = {w.start, w.lowered, w.grasp, w.lifted};
  const Vec3 to[4] = {w.lowered, w.grasp, w.lifted, w.lifted};
  const int length[4] = {stages.lower, stages.approach, stages.lift, stages.hold};
  for (int t = 0; t < T; ++t) {
    // Control t acts over the step to state t + 1: its targets are the script's at t + 1.
    int k = 0, begin = 0;
    while (k < 3 && t + 1 > begin + length[k]) begin += length[k++];
    const double n = std::max(length[k], 1);
    const double s = (t + 1 - begin) / n;
    const Vec3 position = from[k] + (to[k] - from[k]) * gripper_task::Smoothstep(s);
    const Vec3 velocity = (to[k] - from[k]) * (gripper_task::SmoothstepRate(s) / (n * timestep));
    for (int a = 0; a < 3; ++a) {
      u[6 * t + 2 * a] = position[a] + (a == 2 ? sag : 0.0);
      u[6 * t + 2 * a + 1] = velocity[a];
    }
  }
  return u;
}

std::shared_ptr<GripperGraspLoss> GripperGraspLoss::For(const Scene& scene, const GripperStages& stages,
                                                       double push_weight, double lift_weight) {
  auto loss = std::make_shared<GripperGraspLoss>();
  loss->stages = stages;
  loss->object = scene.model.FindBody(kGripperObject);
  if (loss->object < 0 || scene.model.body(loss->object).joint.type != JointType::kFree) {
    throw InvalidArgument("GripperGraspLoss: the scene has no free body '" + std::string(kGripperObject) + "'");
  }
  const char* axes[3] = {"x", "y", "z"};
  for (int k = 0; k < 3; ++k) {
    const int slide = scene.model.FindBody(std::string("gripper/") + axes[k]);
    if (slide < 0) throw InvalidArgument("GripperGraspLoss: the scene has no jaw slide along " + std::string(axes[k]));
    loss->slides[k] = scene.model.body(slide).idx_v;
  }
  loss->push_weight = push_weight;
  loss->lift_weight = lift_weight;
  return loss;
}

double GripperGraspLoss::Push(const Scene& scene, const std::vector<State>& states) const {
  gripper_task::CheckStates(*this, states);
  const Vec3 p0 = gripper_task::ObjectPosition(scene, object, states.front().q);
  const int g = stages.grasp();
  double sum = 0.0;
  for (int t = 1; t <= g; ++t) sum += (gripper_task::ObjectPosition(scene, object, states[t].q) - p0).squaredNorm();
  return g > 0 ? sum / g : 0.0;
}

double GripperGraspLoss::Lift(const Scene& scene, const std::vector<State>& states) const {
  gripper_task::CheckStates(*this, states);
  const int g = stages.grasp(), T = stages.total();
  const Vec3 dg = gripper_task::Offset(scene, *this, states[g].q);
  double sum = 0.0;
  for (int t = g + 1; t <= T; ++t) sum += (gripper_task::Offset(scene, *this, states[t].q) - dg).squaredNorm();
  return T > g ? sum / (T - g) : 0.0;
}

double GripperGraspLoss::Value(const Scene& scene, const std::vector<State>& states, const VecX&) const {
  return push_weight * Push(scene, states) + lift_weight * Lift(scene, states);
}

void GripperGraspLoss::Gradient(const Scene& scene, const std::vector<State>& states, const VecX&,
                                TrajectoryLossGradient* grad) const {
  gripper_task::CheckStates(*this, states);
  grad->q.assign(states.size(), VecX());
  grad->v.assign(states.size(), VecX());
  grad->u.resize(0);
  const int g = stages.grasp(), T = stages.total();
  auto dq = [&](int t) -> VecX& {
    if (grad->q[t].size() == 0) grad->q[t] = VecX::Zero(scene.nv());
    return grad->q[t];
  };
  // The push: the start is fixed (not a function of the design).
  const Vec3 p0 = gripper_task::ObjectPosition(scene, object, states.front().q);
  const int iv = scene.model.body(object).idx_v;
  for (int t = 1; t <= g; ++t) {
    const VecX& q = states[t].q;
    const Vec3 dL = (2.0 * push_weight / g) * (gripper_task::ObjectPosition(scene, object, q) - p0);
    dq(t).segment<3>(iv + 3) += gripper_task::ObjectRotation(scene, object, q).transpose() * dL;
  }
  // The lift: each state after the grasp and, with the opposite sign, the grasp's own.
  if (T > g) {
    const Vec3 dg = gripper_task::Offset(scene, *this, states[g].q);
    Vec3 at_grasp = Vec3::Zero();
    for (int t = g + 1; t <= T; ++t) {
      const Vec3 dL = (2.0 * lift_weight / (T - g)) * (gripper_task::Offset(scene, *this, states[t].q) - dg);
      gripper_task::AddOffsetGradient(scene, *this, states[t].q, dL, &dq(t));
      at_grasp -= dL;
    }
    gripper_task::AddOffsetGradient(scene, *this, states[g].q, at_grasp, &dq(g));
  }
}

GripperMeasures MeasureGrasp(const Scene& scene, const GripperGraspLoss& loss, const std::vector<State>& states) {
  GripperMeasures m;
  m.push = loss.Push(scene, states);
  m.lift = loss.Lift(scene, states);
  m.relative_motion_m = std::sqrt(m.lift);
  m.rise_m = gripper_task::ObjectPosition(scene, loss.object, states.back().q).z() -
             gripper_task::ObjectPosition(scene, loss.object, states.front().q).z();
  const GripperWaypoints w = GripperScript();
  m.held = m.rise_m >= 0.5 * (w.lifted.z() - w.grasp.z());
  return m;
}

double HoleDepth(const Simulator& sim, const VecX& p) {
  const std::vector<DesignVertexId> ids = RequireDesignVertices(sim).DesignVertexIds();
  double depth = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < ids.size(); ++k) {
    if (ids[k].collider == kGripperMiddleBlock) depth = std::min(depth, p[static_cast<Eigen::Index>(3 * k + 1)]);
  }
  return std::isfinite(depth) ? depth : std::numeric_limits<double>::quiet_NaN();
}

GripperObjective::GripperObjective(Simulator& sim, const GripperStages& stages, double timestep,
                                   double kp, double push_weight, double lift_weight)
    : sim_(sim),
      loss_(GripperGraspLoss::For(sim.scene(), stages, push_weight, lift_weight)),
      shooting_(sim, DefaultState(sim.scene()), stages.total(), loss_, true),
      controls_(GripperScriptControls(sim.scene(), stages, timestep, kp)),
      p0_(sim.DesignParameters()),
      np_(static_cast<int>(p0_.size())) {
  if (np_ == 0) throw Unsupported("gripper: the model has no design parameters (design_colliders = block)");
}

VecX GripperObjective::lower() const { return VecX::Constant(np_, -kGripperDesignReach); }
VecX GripperObjective::upper() const {
  VecX b = VecX::Constant(np_, kGripperDesignReach);
  for (int i = 1; i < np_; i += 3) b[i] = kGripperDesignReachBack;  // each vertex's y: back through the wall
  return b;
}

double GripperObjective::Evaluate(const VecX& x, VecX* gradient) {
  VecX y(controls_.size() + np_);
  y.head(controls_.size()) = controls_;
  y.tail(np_) = DesignOf(x);
  const double loss = shooting_.Evaluate(y, gradient != nullptr ? &inner_ : nullptr);
  if (gradient != nullptr && std::isfinite(loss)) *gradient = inner_.tail(np_);
  const Rollout& r = shooting_.last_rollout();
  Record record;
  record.x = x;
  record.loss = loss;
  if (gradient != nullptr && std::isfinite(loss)) record.gradient_norm = gradient->norm();
  GripperMeasures& m = record.measures;
  if (r.ok()) {
    m = MeasureGrasp(sim_.scene(), *loss_, r.states);
  } else {
    m.rise_m = m.push = m.lift = m.relative_motion_m = std::numeric_limits<double>::quiet_NaN();
  }
  records_.push_back(std::move(record));
  return loss;
}

}  // namespace arena
