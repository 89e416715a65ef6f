// What a run of an experiment may not do (checked by OutcomeMonitor, experiments/common/meters/
// outcome_checks.h). A plain struct of its own so that Experiment can declare its limits without
// the geometry the monitor needs.
#pragma once

#include <limits>

namespace arena {

struct OutcomeLimits {
  static constexpr double kNone = std::numeric_limits<double>::infinity();

  /// Deepest penetration between two colliders (m). An experiment declares the thickness of its
  /// thinnest body: deeper than that, a body has gone through the ground or another body.
  double max_penetration_m = kNone;
  /// The total energy may exceed its start by at most (total mass) |g| times this height (m):
  /// more is energy the model created (a box bouncing higher than it was dropped from).
  double max_energy_gain_height_m = kNone;
  /// A body origin farther than this from the world origin has blown up (m).
  double escape_radius_m = 100.0;
  /// For a body falling onto ground at height 0: once the run has lasted as long as the free
  /// fall of every body origin from its start to height 0 takes, some collider pair must have
  /// come this close (m). Catches a model that holds a body in the air. kNone: not checked.
  double reach_distance_m = kNone;
};

}  // namespace arena
