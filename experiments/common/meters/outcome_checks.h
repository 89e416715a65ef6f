// Sanity checks on a rollout's outcome, shared by the experiments. A model can report success on
// every step and still produce a run that is physically impossible: a body that fell through the
// ground, one left hanging in the air under gravity, a tower that gained energy and flew apart.
// Each experiment declares its limits (with the reason, in its own file); the monitor checks
// every state a rollout reaches against them with our geometry and our energy (metrics.h), never
// with what the model reports, and names the first violation, which fails the row.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "core/multibody/data.h"
#include "core/scene/scene.h"
#include "experiments/common/meters/outcome_limits.h"

namespace arena {

class OutcomeMonitor {
 public:
  /// Measures the initial state (its distances count for reach_distance_m).
  OutcomeMonitor(const Scene& scene, const State& initial, const OutcomeLimits& limits);

  /// Checks a state the rollout reached: the first violation of max_penetration_m,
  /// escape_radius_m or max_energy_gain_height_m, or "" (the run should end at a violation).
  std::string Observe(const State& state);
  /// The end-of-run check (reach_distance_m), after the last observed state: why the run fails,
  /// or "".
  std::string Finish() const;

  /// Largest penetration over the observed states (m; 0 when none penetrated).
  double max_penetration_m() const { return max_penetration_m_; }
  /// Smallest pair distance over the initial and observed states (m).
  double min_distance_m() const { return min_distance_m_; }
  /// Time a free fall of every body origin to height 0 takes from the initial state (s).
  double fall_time_s() const { return fall_time_s_; }

 private:
  const Scene& scene_;
  OutcomeLimits limits_;
  MultibodyData data_;
  double t0_ = 0.0, t_last_ = 0.0;
  double energy0_ = 0.0;
  double energy_margin_ = 0.0;  // J
  double fall_time_s_ = 0.0;
  double max_penetration_m_ = 0.0;
  double min_distance_m_ = std::numeric_limits<double>::infinity();
};

/// Time (s) a point at height h (m, >= 0) rising at speed w (m/s; negative: falling) takes to
/// reach height 0 under gravity g (m/s^2, > 0): (w + sqrt(w^2 + 2 g h)) / g.
double FallTime(double h, double w, double g);

/// Largest penetration (m) between two colliders over `states` (our geometry).
double MaxPenetration(const Scene& scene, const std::vector<State>& states);

}  // namespace arena
