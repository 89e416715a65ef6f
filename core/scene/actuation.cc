#include "core/scene/actuation.h"

#include <algorithm>
#include <numbers>

#include <Eigen/Geometry>

namespace arena {

namespace {
double ClampedControl(const Actuator& a, const Control& control, int i, bool* clamped) {
  const double u = control.u.size() == 0 ? 0.0 : control.u[i];
  const double c = std::clamp(u, a.ctrl_lower, a.ctrl_upper);
  *clamped = c != u;
  return c;
}
}  // namespace

double ControlGain(const Actuator& a) {
  switch (a.type) {
    case ActuatorType::kTorque: return a.gear;
    case ActuatorType::kPdTarget: return a.kp;
    case ActuatorType::kVelocityTarget: return a.kd;
  }
  return 0.0;
}
double PositionGain(const Actuator& a) { return a.type == ActuatorType::kPdTarget ? a.kp : 0.0; }
double VelocityGain(const Actuator& a) { return a.type == ActuatorType::kTorque ? 0.0 : a.kd; }

const char* ToString(ActuatorType type) {
  switch (type) {
    case ActuatorType::kTorque: return "torque";
    case ActuatorType::kPdTarget: return "pd_target";
    case ActuatorType::kVelocityTarget: return "velocity_target";
  }
  return "?";
}

namespace {

// A position or velocity target on a planar body's x or y (DOF 1 or 2) acts on that world
// coordinate c = (x, y)[k] at the rate c' = (R(theta) v_B)[k] (v_B the body-frame velocity), as
// a force F e_k along the plane's axis: in our body-frame tangent coordinates R^T e_k F.
// (Silico's planar rows and MuJoCo's slide joints read planar targets the same way.)
bool IsPlanarTranslation(const BodyModel& b, const Actuator& a) {
  return b.joint.type == JointType::kPlanar && a.dof != 0 && a.type != ActuatorType::kTorque;
}

// Such a target at `state`: the axis e = R^T e_k in the body frame, its derivative in theta, and
// the force F = ControlGain u - kp c - kd c'.
struct PlanarTarget {
  Vec2 e;
  Vec2 de;
  double F = 0.0;
};

PlanarTarget PlanarTargetAt(const BodyModel& b, const Actuator& a, double u, const State& state) {
  const int k = a.dof - 1;
  const double theta = state.q[b.idx_q + 2];
  PlanarTarget t;
  t.e = Eigen::Rotation2Dd(theta).toRotationMatrix().row(k).transpose();
  t.de = Eigen::Rotation2Dd(theta + std::numbers::pi / 2).toRotationMatrix().row(k).transpose();  // d R / d theta
  const double rate = t.e.dot(state.v.segment<2>(b.idx_v + 1));
  t.F = ControlGain(a) * u - PositionGain(a) * state.q[b.idx_q + k] - VelocityGain(a) * rate;
  return t;
}

// The coordinate a 1-DOF-style target acts on: a planar body's rotation is its q[2] (q = (x, y,
// theta), v = (omega, v_x, v_y)); any other joint's DOF k is q[k].
int CoordinateIndex(const BodyModel& b, const Actuator& a) {
  return b.joint.type == JointType::kPlanar ? b.idx_q + 2 : b.idx_q + a.dof;
}

}  // namespace

VecX ActuatorForces(const Scene& scene, const State& state, const Control& control) {
  VecX tau = VecX::Zero(scene.nv());
  for (int i = 0; i < scene.nu(); ++i) {
    const Actuator& a = scene.actuators[i];
    const BodyModel& b = scene.model.body(a.body);
    bool clamped = false;
    const double u = ClampedControl(a, control, i, &clamped);
    if (IsPlanarTranslation(b, a)) {
      const PlanarTarget t = PlanarTargetAt(b, a, u, state);
      tau.segment<2>(b.idx_v + 1) += t.e * t.F;
      continue;
    }
    const int iv = b.idx_v + a.dof;
    // Position and velocity targets act on a 1-DOF joint coordinate (or a planar rotation).
    const double q = PositionGain(a) != 0.0 ? state.q[CoordinateIndex(b, a)] : 0.0;
    tau[iv] += ControlGain(a) * u - PositionGain(a) * q - VelocityGain(a) * state.v[iv];
  }
  return tau;
}

VecX PassiveForces(const Scene& scene, const State& state) {
  VecX tau = VecX::Zero(scene.nv());
  for (const auto& b : scene.model.bodies()) {
    const auto& j = b.joint;
    if (j.nv() != 1) continue;
    tau[b.idx_v] = -j.stiffness * (state.q[b.idx_q] - j.spring_reference) - j.damping * state.v[b.idx_v];
  }
  return tau;
}

namespace {

// d/d(tangent) of tau = R^T e_k F, F = g u - kp c - kd e_k^T R v_B (see IsPlanarTranslation). A
// tangent step (d omega, d p_B) moves theta by d omega and (x, y) by R d p_B.
void AddPlanarTargetJacobians(const BodyModel& b, const Actuator& a, double u, bool clamped, int column,
                              const State& state, GeneralizedForceJacobians* J) {
  const int iw = b.idx_v, ip = b.idx_v + 1;
  const PlanarTarget t = PlanarTargetAt(b, a, u, state);
  const Vec2 v_B = state.v.segment<2>(ip);
  const double kp = PositionGain(a), kd = VelocityGain(a);
  J->dtau_dq.block<2, 2>(ip, ip) -= kp * t.e * t.e.transpose();
  J->dtau_dq.block<2, 1>(ip, iw) += t.de * t.F - kd * t.e * t.de.dot(v_B);
  J->dtau_dv.block<2, 2>(ip, ip) -= kd * t.e * t.e.transpose();
  if (!clamped) J->dtau_du.block<2, 1>(ip, column) += t.e * ControlGain(a);
}

}  // namespace

GeneralizedForceJacobians ActuationJacobians(const Scene& scene, const State& state,
                                             const Control& control) {
  const int nv = scene.nv();
  GeneralizedForceJacobians J;
  J.dtau_dq = MatX::Zero(nv, nv);
  J.dtau_dv = MatX::Zero(nv, nv);
  J.dtau_du = MatX::Zero(nv, scene.nu());
  for (int i = 0; i < scene.nu(); ++i) {
    const Actuator& a = scene.actuators[i];
    const BodyModel& b = scene.model.body(a.body);
    bool clamped = false;
    const double u = ClampedControl(a, control, i, &clamped);
    if (IsPlanarTranslation(b, a)) {
      AddPlanarTargetJacobians(b, a, u, clamped, i, state, &J);
      continue;
    }
    const int iv = b.idx_v + a.dof;
    if (!clamped) J.dtau_du(iv, i) = ControlGain(a);
    J.dtau_dq(iv, iv) -= PositionGain(a);
    J.dtau_dv(iv, iv) -= VelocityGain(a);
  }
  for (const auto& b : scene.model.bodies()) {
    if (b.joint.nv() != 1) continue;
    J.dtau_dq(b.idx_v, b.idx_v) -= b.joint.stiffness;
    J.dtau_dv(b.idx_v, b.idx_v) -= b.joint.damping;
  }
  return J;
}

}  // namespace arena
