// `arena gradcheck`: every derivative a model offers (its Derivatives(): d(q+, v+)/d(q, v, u),
// and d(q+, v+)/dp for its design parameters p, such as nimble's link masses or sdrs's hull
// vertices) against Ridders' extrapolation of its own Step, on random states in and out of
// contact; design derivatives column by column, or with --design-directions N along N random
// directions per state (one Ridders tableau each, whatever the number of parameters).
//
// States: from the scene's default state, a random perturbation (tangent q ~ N(0, 0.05^2),
// v ~ N(0, 0.3^2)) followed by a random number of the model's own steps (0-300), so that the
// states are ones the model visits: resting, sliding, landing and flying. Controls are uniform
// in [-1, 1] per actuator. The error per Jacobian block is the corrected relative error
// max |A - R| / (1e-6 + max |R|) (solvers/finite_difference.h), its maximum over the states.
//
// Ridders' differences are derivatives only on a smooth piece of the step map. A state where
// one of its perturbed steps finds another contact count or contact mode (StepReport::
// contact_mode: nimble's LCP active set), or where forward and backward differences (1e-7)
// disagree by more than 1e-4, is "at a contact event": its errors are reported apart and do
// not decide the verdict, which needs at least one smooth state.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/common/options.h"
#include "core/scene/scene_options.h"
#include "models/simulator.h"

namespace arena {

struct GradcheckOptions {
  std::string model;
  std::string scene;            // a registered name or a scene file (scenes/scene_registry.h)
  SceneLoadOptions scene_options;  // --package, --exclude, --srdf, --set self_collision=...
  OptionMap model_options;      // "timestep" defaults to the scene's hint (if it has one)
  int states = 10;
  std::uint64_t seed = 0;
  double tolerance = 1e-5;      // fail above this corrected relative error
  double ridders_step = 1e-5;   // Ridders' initial step (10 rows, shrink 1.4)
  // > 0: the design derivatives are checked along this many random unit directions w per state
  // (blocks "dq+/dp w", "dv+/dp w"), not column by column, and a model with the option
  // `design_derivatives` gets it on. For models with thousands of design parameters.
  int design_directions = 0;
  // Called with each of the model's OptionWarnings (its options cannot hold the scene at this
  // timestep) once the simulator is built, before any state is checked.
  std::function<void(const std::string&)> warn;
};

struct GradcheckBlock {
  std::string name;             // "dv+/dq", ...
  double max_error = 0.0;        // over the smooth states
  int worst_state = -1;
  double max_error_at_events = 0.0;
};

struct GradcheckResult {
  DerivativeSource derivatives = DerivativeSource::kNone;  // what was checked: analytical or differences
  std::vector<GradcheckBlock> blocks;
  int states_in_contact = 0;
  int states_free = 0;
  int states_at_events = 0;     // of all states, those whose differences crossed a contact event
  double max_error = 0.0;       // over the smooth states
  bool passed = false;
  std::vector<std::string> warnings;  // the model's OptionWarnings on this scene
};

/// Throws InvalidArgument (unknown model or scene, bad options, a model without derivatives),
/// ParseError (a malformed scene file) or Unsupported (the model cannot simulate the scene).
GradcheckResult RunGradcheck(const GradcheckOptions& options);

}  // namespace arena
