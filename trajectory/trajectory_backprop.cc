#include "trajectory/trajectory_backprop.h"

#include "core/common/error.h"

namespace arena {

void BackpropagateTrajectory(Simulator& sim, const Rollout& rollout, const VecX& controls,
                             const TrajectoryLossGradient& g, TrajectoryGradient* out) {
  if (!rollout.ok()) throw InvalidArgument("BackpropagateTrajectory: the rollout failed (" + rollout.failure + ")");
  const int steps = rollout.steps_done;
  const int nv = sim.scene().nv(), nu = sim.scene().nu();
  if (static_cast<int>(g.q.size()) != steps + 1 || static_cast<int>(g.v.size()) != steps + 1) {
    throw InvalidArgument("BackpropagateTrajectory: the loss gradient has the wrong number of states");
  }
  auto term = [nv](const VecX& x) { return x.size() == 0 ? VecX(VecX::Zero(nv)) : x; };
  VecX lq = term(g.q[steps]), lv = term(g.v[steps]);
  out->controls.resize(controls.size());
  out->design.resize(0);
  out->alternative_steps = 0;
  StepGradient step;
  for (int t = steps - 1; t >= 0; --t) {
    sim.Vjp(rollout.states[t], nu > 0 ? ControlAt(controls, nu, t) : Control{}, lq, lv, &step);
    out->alternative_steps += step.alternative;
    if (nu > 0) out->controls.segment(t * nu, nu) = step.u;
    if (step.p.size() > 0) {
      if (out->design.size() == 0) out->design = VecX::Zero(step.p.size());
      out->design += step.p;
    }
    // A state with a direct term adds it; others pass the pulled-back gradient on unchanged.
    lq = g.q[t].size() == 0 ? step.q : VecX(step.q + g.q[t]);
    lv = g.v[t].size() == 0 ? step.v : VecX(step.v + g.v[t]);
  }
  if (g.u.size() > 0) out->controls += g.u;
  out->q0 = std::move(lq);
  out->v0 = std::move(lv);
}

}  // namespace arena
