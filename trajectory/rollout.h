// A rollout of any Simulator: T steps from a start state under a control sequence, keeping
// every state (the backward pass needs them) and every step's report.
//
// Control sequences are stacked step by step: u_t = controls.segment(t * nu, nu), so a
// T-step sequence has T * nu entries (what the optimisers of solvers/ see as x).
#pragma once

#include <string>
#include <vector>

#include "models/simulator.h"

namespace arena {

struct Rollout {
  std::vector<State> states;        // x_0 .. x_T (only x_0 .. x_steps_done when it failed)
  std::vector<StepReport> reports;  // one per step taken
  int steps_done = 0;
  std::string failure;              // empty when every step succeeded

  bool ok() const { return failure.empty(); }
  /// Steps whose report has at least one contact.
  int contact_steps() const;
};

/// The control of step t.
inline Control ControlAt(const VecX& controls, int nu, int t) { return Control{controls.segment(t * nu, nu)}; }

/// Steps `sim` controls.size() / nu times from `start`. A step whose status is not ok (not
/// converged, non-finite, error) ends the rollout: `failure` names the step and the reason.
/// Throws InvalidArgument when controls.size() is not a multiple of the scene's nu (or nu = 0
/// and `steps` is needed: use the overload).
void RunRollout(Simulator& sim, const State& start, const VecX& controls, Rollout* out);
/// The same with an explicit step count, for scenes without actuators (controls empty).
void RunRollout(Simulator& sim, const State& start, const VecX& controls, int steps, Rollout* out);

}  // namespace arena
