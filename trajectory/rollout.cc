#include "trajectory/rollout.h"

#include "core/common/error.h"

namespace arena {

int Rollout::contact_steps() const {
  int n = 0;
  for (const StepReport& r : reports) n += r.contacts > 0;
  return n;
}

void RunRollout(Simulator& sim, const State& start, const VecX& controls, Rollout* out) {
  const int nu = sim.scene().nu();
  if (nu == 0) throw InvalidArgument("RunRollout: scene '" + sim.scene().name + "' has no actuators: pass the step count");
  if (controls.size() % nu != 0) {
    throw InvalidArgument("RunRollout: " + std::to_string(controls.size()) + " controls are not a multiple of nu = " +
                          std::to_string(nu));
  }
  RunRollout(sim, start, controls, static_cast<int>(controls.size() / nu), out);
}

void RunRollout(Simulator& sim, const State& start, const VecX& controls, int steps, Rollout* out) {
  const int nu = sim.scene().nu();
  if (steps < 0 || controls.size() != static_cast<Eigen::Index>(steps) * nu) {
    throw InvalidArgument("RunRollout: " + std::to_string(steps) + " steps need " + std::to_string(steps * nu) +
                          " controls, got " + std::to_string(controls.size()));
  }
  out->states.resize(steps + 1);
  out->reports.clear();
  out->failure.clear();
  out->steps_done = 0;
  out->states[0] = start;
  for (int t = 0; t < steps; ++t) {
    out->states[t + 1] = out->states[t];
    const StepReport r = sim.Step(out->states[t + 1], nu > 0 ? ControlAt(controls, nu, t) : Control{});
    out->reports.push_back(r);
    if (!r.ok()) {
      out->failure = "step " + std::to_string(t) + ": " + std::string(ToString(r.status)) +
                     (r.message.empty() ? "" : " " + r.message);
      out->states.resize(t + 1);
      return;
    }
    out->steps_done = t + 1;
  }
}

}  // namespace arena
