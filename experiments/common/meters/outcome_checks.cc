#include "experiments/common/meters/outcome_checks.h"

#include <algorithm>
#include <cmath>

#include "core/common/options.h"
#include "core/multibody/kinematics.h"
#include "experiments/common/meters/metrics.h"

namespace arena {

namespace {

std::string Format(double x) { return options_detail::FormatDouble(x); }

}  // namespace

double FallTime(double h, double w, double g) { return (w + std::sqrt(w * w + 2.0 * g * std::max(h, 0.0))) / g; }

OutcomeMonitor::OutcomeMonitor(const Scene& scene, const State& initial, const OutcomeLimits& limits)
    : scene_(scene), limits_(limits), data_(scene.model), t0_(initial.t), t_last_(initial.t) {
  const double g = scene.model.gravity().norm();
  double mass = 0.0;
  for (int b = 0; b < scene.model.num_bodies(); ++b) mass += scene.model.body(b).inertia.mass();
  energy0_ = TotalEnergy(scene, data_, initial);
  energy_margin_ = mass * g * limits.max_energy_gain_height_m;
  if (g > 0.0) {
    ForwardKinematics(scene.model, data_, initial.q, initial.v);
    const Vec3 up = -scene.model.gravity() / g;
    for (int b = 0; b < scene.model.num_bodies(); ++b) {
      const Vec3 p_WB = data_.X_WB[b].translation();
      fall_time_s_ = std::max(fall_time_s_, FallTime(up.dot(p_WB), up.dot(PointVelocity(data_, b, p_WB)), g));
    }
  }
  for (double d : PairSignedDistances(scene, data_, initial.q)) min_distance_m_ = std::min(min_distance_m_, d);
}

std::string OutcomeMonitor::Observe(const State& state) {
  t_last_ = state.t;
  double d_min = std::numeric_limits<double>::infinity();
  for (double d : PairSignedDistances(scene_, data_, state.q)) d_min = std::min(d_min, d);
  min_distance_m_ = std::min(min_distance_m_, d_min);
  max_penetration_m_ = std::max(max_penetration_m_, -d_min);
  if (-d_min > limits_.max_penetration_m) {
    return "went through: penetration " + Format(-d_min) + " m, deeper than the " + Format(limits_.max_penetration_m) +
           " m limit (a body this deep has passed through the ground or another body)";
  }
  for (int b = 0; b < scene_.model.num_bodies(); ++b) {
    if (data_.X_WB[b].translation().norm() > limits_.escape_radius_m) {
      return "escaped: body farther than " + Format(limits_.escape_radius_m) + " m from the origin";
    }
  }
  if (std::isfinite(limits_.max_energy_gain_height_m)) {
    const double energy = TotalEnergy(scene_, data_, state);
    if (!(energy - energy0_ <= energy_margin_)) {
      return "gained energy: " + Format(energy) + " J from " + Format(energy0_) + " J at the start, more than " +
             Format(energy_margin_) + " J (lifting every body " + Format(limits_.max_energy_gain_height_m) + " m)";
    }
  }
  return "";
}

std::string OutcomeMonitor::Finish() const {
  if (!std::isfinite(limits_.reach_distance_m)) return "";
  const double elapsed = t_last_ - t0_;
  if (elapsed < fall_time_s_ || min_distance_m_ <= limits_.reach_distance_m) return "";
  return "never came down: no collider came within " + Format(limits_.reach_distance_m) + " m of another (closest " +
         Format(min_distance_m_) + " m), though falling from the start reaches the ground in " + Format(fall_time_s_) +
         " s of the " + Format(elapsed) + " s run";
}

double MaxPenetration(const Scene& scene, const std::vector<State>& states) {
  MultibodyData data(scene.model);
  double worst = 0.0;
  for (const State& s : states) worst = std::max(worst, Penetration(scene, data, s.q));
  return worst;
}

}  // namespace arena
