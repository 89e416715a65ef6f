// The options of the step-validity check (models/step_validity.h), which every model takes
// besides its own. Apart from the check so that models/simulator.h includes only these.
#pragma once

#include <string>

#include "core/common/options.h"

namespace arena {

/// The bounds of the step-validity check; every model takes these keys besides its own.
struct StepValidityOptions {
  bool check_steps = true;
  double max_energy_gain = 0.1;
  double max_speed_factor = 10.0;
  double max_penetration = 0.0;  // 0: the model's own allowance (Simulator::penetration_allowance)

  // Ranges: an energy gain below 1e-3 of the scale flags the rounding of long rollouts and the
  // O(dt) energy oscillation of symplectic Euler; a speed factor below 2 flags an elastic
  // collision of a heavy body with a light one (the light one leaves at twice the speed).
  template <class V>
  void VisitFields(V&& v) {
    v("check_steps", check_steps, "check every step's result (energy, speed, displacement, penetration) and "
      "report a step that fails as 'invalid'", "");
    v("max_energy_gain", max_energy_gain,
      "energy a passive scene may gain over a trajectory, as a fraction of its energy scale", "", Closed(1e-3, 1e3));
    v("max_speed_factor", max_speed_factor, "bound on a body's speed, in units of the scene's speed scale", "",
      Closed(2.0, 1e6));
    v("max_penetration", max_penetration,
      "deepest overlap of two colliders, as a fraction of the smaller one's bounding radius (0: the model's own)", "",
      ZeroOr(Closed(1e-6, 10.0)));
  }
  std::string Validate() const { return CheckRanges(*this); }
};

}  // namespace arena
