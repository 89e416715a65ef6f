#include "core/scene/actuation.h"

#include <algorithm>

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

VecX ActuatorForces(const Scene& scene, const State& state, const Control& control) {
  VecX tau = VecX::Zero(scene.nv());
  for (int i = 0; i < scene.nu(); ++i) {
    const Actuator& a = scene.actuators[i];
    const BodyModel& b = scene.model.body(a.body);
    const int iv = b.idx_v + a.dof;
    bool clamped = false;
    const double u = ClampedControl(a, control, i, &clamped);
    // Position and velocity targets act on a 1-DOF joint coordinate (q index = v index offset).
    const double q = PositionGain(a) != 0.0 ? state.q[b.idx_q + a.dof] : 0.0;
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

GeneralizedForceJacobians ActuationJacobians(const Scene& scene, const State& state,
                                             const Control& control) {
  const int nv = scene.nv();
  GeneralizedForceJacobians J;
  J.dtau_dq = MatX::Zero(nv, nv);
  J.dtau_dv = MatX::Zero(nv, nv);
  J.dtau_du = MatX::Zero(nv, scene.nu());
  for (int i = 0; i < scene.nu(); ++i) {
    const Actuator& a = scene.actuators[i];
    const int iv = scene.model.body(a.body).idx_v + a.dof;
    bool clamped = false;
    ClampedControl(a, control, i, &clamped);
    if (!clamped) J.dtau_du(iv, i) = ControlGain(a);
    J.dtau_dq(iv, iv) -= PositionGain(a);
    J.dtau_dv(iv, iv) -= VelocityGain(a);
  }
  for (const auto& b : scene.model.bodies()) {
    if (b.joint.nv() != 1) continue;
    J.dtau_dq(b.idx_v, b.idx_v) -= b.joint.stiffness;
    J.dtau_dv(b.idx_v, b.idx_v) -= b.joint.damping;
  }
  (void)state;
  return J;
}

}  // namespace arena
