#include "models/silico/planar_body_rows.h"

#include <algorithm>
#include <numbers>
#include <string>

#include "core/common/error.h"

namespace arena::silico {

PlanarBodyRows::PlanarBodyRows(const Scene& scene, std::vector<PlanarBody> bodies, const std::vector<int>& slot,
                               const char* model)
    : bodies_(std::move(bodies)), gravity_(scene.model.gravity().head<2>()) {
  for (const Actuator& act : scene.actuators) {
    if (act.body < 0 || slot[act.body] < 0) {
      throw Unsupported(std::string(model) + ": actuator '" + act.name + "' must drive a planar body");
    }
    actuators_.push_back(act);
    actuator_body_.push_back(slot[act.body]);
  }
}

void PlanarBodyRows::Add(double dt, const VecX& p2, const VecX& v15, const VecX& u_in, const VecX& y, VecX* F,
                         MatX* J, MatX* dF_dtheta) const {
  const int nb = num_bodies();
  for (int k = 0; k < nb; ++k) {
    const PlanarBody& b = bodies_[k];
    const double M[3] = {b.mass, b.mass, b.inertia};
    for (int i = 0; i < 3; ++i) {
      const int r = 3 * k + i;
      (*F)[r] += M[i] * (y[r] - v15[r]) - (i < 2 ? dt * b.mass * gravity_[i] : 0.0);
      if (J != nullptr) (*J)(r, r) += M[i];
      if (dF_dtheta != nullptr) (*dF_dtheta)(r, 3 * nb + r) -= M[i];
    }
  }
  for (size_t i = 0; i < actuators_.size(); ++i) {
    const Actuator& a = actuators_[i];
    const int k = actuator_body_[i];
    const double raw = u_in.size() > static_cast<Eigen::Index>(i) ? u_in[i] : 0.0;
    const double u = std::clamp(raw, a.ctrl_lower, a.ctrl_upper);
    const bool clamped = u != raw;
    const int u_col = 6 * nb + static_cast<int>(i);
    if (a.type == ActuatorType::kTorque) {
      if (a.dof == 0) {
        (*F)[3 * k + 2] -= dt * a.gear * u;
        if (dF_dtheta != nullptr && !clamped) (*dF_dtheta)(3 * k + 2, u_col) -= dt * a.gear;
        continue;
      }
      // Body-frame force along x or y, rotated with the pose at the step's start.
      const double th = p2[3 * k + 2];
      const Vec2 e_B = a.dof == 1 ? Vec2(1.0, 0.0) : Vec2(0.0, 1.0);
      const Vec2 e_W = Eigen::Rotation2Dd(th) * e_B;
      const Vec2 de_W = Eigen::Rotation2Dd(th + std::numbers::pi / 2) * e_B;  // d e_W / d theta
      for (int r = 0; r < 2; ++r) {
        (*F)[3 * k + r] -= dt * a.gear * u * e_W[r];
        if (dF_dtheta != nullptr) {
          (*dF_dtheta)(3 * k + r, 3 * k + 2) -= dt * a.gear * u * de_W[r];
          if (!clamped) (*dF_dtheta)(3 * k + r, u_col) -= dt * a.gear * e_W[r];
        }
      }
    } else {
      // Position control on world coordinate c (theta, x, y), implicit at the step's end.
      const int row = 3 * k + (a.dof == 0 ? 2 : a.dof - 1);
      const double p3 = p2[row] + dt * y[row];
      // Position or velocity target: tau = ControlGain u - PositionGain p3 - VelocityGain y.
      const double kp = PositionGain(a), kd = VelocityGain(a);
      (*F)[row] -= dt * (ControlGain(a) * u - kp * p3 - kd * y[row]);
      if (J != nullptr) (*J)(row, row) += dt * (kp * dt + kd);
      if (dF_dtheta != nullptr) {
        (*dF_dtheta)(row, row) += dt * kp;
        if (!clamped) (*dF_dtheta)(row, u_col) -= dt * ControlGain(a);
      }
    }
  }
}

void LoadPlanarState(const std::vector<PlanarBody>& bodies, const State& state, VecX* p2, VecX* v15) {
  const int nb = static_cast<int>(bodies.size());
  p2->resize(3 * nb);
  v15->resize(3 * nb);
  for (int k = 0; k < nb; ++k) {
    const PlanarBody& b = bodies[k];
    p2->segment<3>(3 * k) = state.q.segment<3>(b.idx_q);
    v15->segment<2>(3 * k) = Eigen::Rotation2Dd(state.q[b.idx_q + 2]) * state.v.segment<2>(b.idx_v + 1);
    (*v15)[3 * k + 2] = state.v[b.idx_v];
  }
}

void StorePlanarState(const std::vector<PlanarBody>& bodies, const VecX& p3, const VecX& v25, State* state) {
  for (size_t k = 0; k < bodies.size(); ++k) {
    const PlanarBody& b = bodies[k];
    state->q.segment<3>(b.idx_q) = p3.segment<3>(3 * k);
    state->v[b.idx_v] = v25[3 * k + 2];
    state->v.segment<2>(b.idx_v + 1) = Eigen::Rotation2Dd(-p3[3 * k + 2]) * v25.segment<2>(3 * k);
  }
}

}  // namespace arena::silico
