#include "trajectory/sine_wave_controls.h"

#include <cmath>
#include <string>
#include <utility>

#include "core/common/error.h"

namespace arena {

std::vector<SineWaveChannel> SineWaveChannelsOf(const Scene& scene) {
  std::vector<SineWaveChannel> channels;
  for (int i = 0; i < scene.nu(); ++i) {
    const Actuator& a = scene.actuators[i];
    if (a.type != ActuatorType::kPdTarget) continue;
    SineWaveChannel c;
    c.position_actuator = i;
    for (int j = 0; j < scene.nu(); ++j) {
      const Actuator& b = scene.actuators[j];
      if (b.type == ActuatorType::kVelocityTarget && b.body == a.body && b.dof == a.dof) c.velocity_actuator = j;
    }
    channels.push_back(c);
  }
  return channels;
}

SineWaveControls::SineWaveControls(int nu, double dt, int steps, std::vector<SineWaveChannel> channels, int terms)
    : nu_(nu), steps_(steps), terms_(terms), dt_(dt), channels_(std::move(channels)) {
  if (!(dt > 0.0) || steps < 1 || terms < 1) {
    throw InvalidArgument("sine-wave controls: dt, steps and terms must be positive (dt " + std::to_string(dt) +
                          ", steps " + std::to_string(steps) + ", terms " + std::to_string(terms) + ")");
  }
  std::vector<int> driven(static_cast<std::size_t>(nu), 0);
  for (const SineWaveChannel& c : channels_) {
    for (int a : {c.position_actuator, c.velocity_actuator}) {
      if (a == -1 && c.position_actuator != -1) continue;  // no velocity actuator
      if (a < 0 || a >= nu) {
        throw InvalidArgument("sine-wave controls: actuator index " + std::to_string(a) + " out of range [0, " +
                              std::to_string(nu) + ")");
      }
      if (driven[static_cast<std::size_t>(a)]++ > 0) {
        throw InvalidArgument("sine-wave controls: actuator " + std::to_string(a) + " is driven by two channels");
      }
    }
  }
}

VecX SineWaveControls::Controls(const VecX& theta) const {
  if (theta.size() != num_parameters()) {
    throw InvalidArgument("sine-wave controls: " + std::to_string(theta.size()) + " parameters, expected " +
                          std::to_string(num_parameters()));
  }
  VecX u = VecX::Zero(num_controls());
  for (int t = 0; t < steps_; ++t) {
    const double time = t * dt_;
    for (std::size_t c = 0; c < channels_.size(); ++c) {
      double q = 0.0, qd = 0.0;
      for (int k = 0; k < terms_; ++k) {
        const double* p = theta.data() + 3 * (static_cast<int>(c) * terms_ + k);
        const double angle = p[1] * time + p[2];
        q += p[0] * std::sin(angle);
        qd += p[0] * p[1] * std::cos(angle);
      }
      u[t * nu_ + channels_[c].position_actuator] = q;
      if (channels_[c].velocity_actuator >= 0) u[t * nu_ + channels_[c].velocity_actuator] = qd;
    }
  }
  return u;
}

VecX SineWaveControls::Pullback(const VecX& theta, const VecX& dL_du) const {
  if (theta.size() != num_parameters() || dL_du.size() != num_controls()) {
    throw InvalidArgument("sine-wave controls: pullback of " + std::to_string(dL_du.size()) + " control gradients at " +
                          std::to_string(theta.size()) + " parameters, expected " + std::to_string(num_controls()) +
                          " and " + std::to_string(num_parameters()));
  }
  VecX g = VecX::Zero(num_parameters());
  for (int t = 0; t < steps_; ++t) {
    const double time = t * dt_;
    for (std::size_t c = 0; c < channels_.size(); ++c) {
      const double gq = dL_du[t * nu_ + channels_[c].position_actuator];
      const double gv = channels_[c].velocity_actuator >= 0 ? dL_du[t * nu_ + channels_[c].velocity_actuator] : 0.0;
      for (int k = 0; k < terms_; ++k) {
        const int i = 3 * (static_cast<int>(c) * terms_ + k);
        const double a = theta[i], omega = theta[i + 1], angle = omega * time + theta[i + 2];
        const double s = std::sin(angle), co = std::cos(angle);
        // q = a sin(angle), qd = a omega cos(angle), angle = omega t + phi.
        g[i] += gq * s + gv * omega * co;
        g[i + 1] += gq * a * time * co + gv * (a * co - a * omega * time * s);
        g[i + 2] += gq * a * co - gv * a * omega * s;
      }
    }
  }
  return g;
}

VecX SineWaveControls::Initial(double amplitude, double omega_min, double omega_max, double phase_step) const {
  VecX theta = VecX::Zero(num_parameters());
  for (std::size_t c = 0; c < channels_.size(); ++c) {
    for (int k = 0; k < terms_; ++k) {
      const int i = 3 * (static_cast<int>(c) * terms_ + k);
      theta[i] = amplitude;
      theta[i + 1] = terms_ == 1 ? omega_min : omega_min + (omega_max - omega_min) * k / (terms_ - 1);
      theta[i + 2] = phase_step * static_cast<double>(c);
    }
  }
  return theta;
}

}  // namespace arena
