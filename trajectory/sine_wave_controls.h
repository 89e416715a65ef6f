// Open-loop sine-wave PD controllers as the decision variables of a rollout (seed 003 Sec. VII,
// the spider and biped of Figs. 11-13, after ChainQueen; seed 004's Ant-Push, App. A.6): each
// controlled joint DOF follows the target
//   qbar(t) = sum_k a_k sin(omega_k t + phi_k),   qbar'(t) = sum_k a_k omega_k cos(omega_k t + phi_k),
// the position target driving the DOF's PD actuator (kp) and the velocity target its velocity
// actuator (kd), when the scene has one. The parameters theta = (a, omega, phi) per channel and
// term are mapped to a rollout's stacked controls u (u_t = controls at t = t_index * dt, the
// start of step t); the gradient pulls dL/du back through that map. Actuators no channel drives
// get u = 0.
#pragma once

#include <string>
#include <vector>

#include "core/scene/scene.h"

namespace arena {

/// One driven DOF: the index of its position-target actuator, and of its velocity-target
/// actuator (-1: none).
struct SineWaveChannel {
  int position_actuator = -1;
  int velocity_actuator = -1;
};

/// The channels of every DOF with a kPdTarget actuator, each with the kVelocityTarget actuator
/// on the same DOF if there is one, in the order of the position actuators.
std::vector<SineWaveChannel> SineWaveChannelsOf(const Scene& scene);

class SineWaveControls {
 public:
  /// `nu` actuators, `steps` steps of `dt`, `terms` sines per channel. Throws InvalidArgument
  /// on an actuator index out of range, an actuator driven twice, non-positive dt, steps or terms.
  SineWaveControls(int nu, double dt, int steps, std::vector<SineWaveChannel> channels, int terms);

  /// 3 per channel and term: theta[3 (c terms + k) + {0, 1, 2}] = (a, omega, phi) of term k of
  /// channel c.
  int num_parameters() const { return 3 * terms_ * static_cast<int>(channels_.size()); }
  int num_controls() const { return steps_ * nu_; }
  const std::vector<SineWaveChannel>& channels() const { return channels_; }
  int terms() const { return terms_; }

  /// The stacked controls of theta.
  VecX Controls(const VecX& theta) const;
  /// dL/dtheta from dL/du (stacked like Controls) at theta.
  VecX Pullback(const VecX& theta, const VecX& dL_du) const;
  /// theta with amplitude `amplitude`, frequencies spread over [omega_min, omega_max] across the
  /// terms and channel c's phases c * phase_step: a start for an optimiser (the sines of one
  /// channel differ in frequency, the channels in phase).
  VecX Initial(double amplitude, double omega_min, double omega_max, double phase_step = 0.0) const;

 private:
  int nu_ = 0, steps_ = 0, terms_ = 0;
  double dt_ = 0.0;
  std::vector<SineWaveChannel> channels_;
};

}  // namespace arena
