// Whether an explicit spring contact law (penalty's per-point springs, scm's per-pair spring) can
// hold a scene at a timestep, before any step is run: `arena gradcheck` and `arena inspect
// --model` print these (Simulator::OptionWarnings).
//
// A body of mass m on n springs of stiffness k oscillates at omega = sqrt(n k / m); semi-implicit
// Euler is stable only for timestep * omega < 2 (Hairer, Lubich & Wanner, Geometric Numerical
// Integration, Sec. I.1: the Stormer-Verlet stability interval), and a spring carrying weight W
// sinks W / (n k).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/scene/scene.h"

namespace arena {

struct SpringContactLaw {
  std::string_view model;       // "penalty"
  double stiffness = 0.0;       // N/m per spring
  int springs_per_body = 1;     // n: penalty's box face rests on 4 corner springs, scm's pair is one
  double timestep = 0.0;        // s
  double stability_limit = 2.0; // timestep * omega must stay below this (RK4: 2.8)
};

/// One sentence per body whose step is unstable (the lightest such body first), and one when the
/// whole scene's weight on one body's springs would sink deeper than a tenth of that body's size;
/// each names the body, the numbers and the options to change. Empty when neither applies.
std::vector<std::string> SpringContactWarnings(const Scene& scene, const SpringContactLaw& law);

}  // namespace arena
