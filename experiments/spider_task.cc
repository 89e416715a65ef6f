#include "experiments/spider_task.h"

#include <cmath>
#include <limits>

#include "scenes/spider_scenes.h"
#include "trajectory/trajectory_loss.h"

namespace arena {

namespace spider_task {

std::shared_ptr<TerminalStateLoss> WalkLoss(const Scene& scene, double target_distance) {
  auto loss = std::make_shared<TerminalStateLoss>();
  const int nv = scene.nv();
  loss->q_target = DefaultState(scene).q;
  loss->q_target[kSpiderRootX] += target_distance;
  loss->q_weight = VecX::Zero(nv);
  loss->q_weight[kSpiderRootX] = loss->q_weight[kSpiderRootY] = 1.0;
  loss->v_weight = VecX::Zero(nv);
  return loss;
}

}  // namespace spider_task

SpiderObjective::SpiderObjective(IncrementalPotentialSimulator& sim, const SpiderTaskOptions& options, bool codesign)
    : sim_(sim),
      options_(options),
      shooting_(sim, DefaultState(sim.scene()), options.steps, spider_task::WalkLoss(sim.scene(), options.target_distance),
                codesign),
      controller_(shooting_, SineWaveControls(sim.scene().nu(), options.timestep, options.steps,
                                              SineWaveChannelsOf(sim.scene()), options.terms)) {
  np_ = codesign ? static_cast<int>(sim.DesignParameters().size()) : 0;
  if (np_ > 0) p0_ = sim.DesignParameters();
}

VecX SpiderObjective::DesignOf(const VecX& x) const { return p0_ + options_.design_scale * x.tail(np_); }

VecX SpiderObjective::lower() const { return -upper(); }

VecX SpiderObjective::upper() const {
  VecX b = VecX::Constant(dimension(), std::numeric_limits<double>::infinity());
  b.tail(np_).setConstant(options_.design_reach / options_.design_scale);
  return b;
}

VecX SpiderObjective::Start() const {
  const SineWaveControls& sines = controller_.controller();
  VecX x(dimension());
  VecX theta = sines.Initial(options_.initial_amplitude, options_.omega_min, options_.omega_max);
  for (int c = 0; c < static_cast<int>(sines.channels().size()); ++c) {
    for (int k = 0; k < sines.terms(); ++k) theta[3 * (c * sines.terms() + k) + 2] = options_.phase_step * c;
  }
  x.head(theta.size()) = theta;
  x.tail(np_).setZero();
  return x;
}

double SpiderObjective::Evaluate(const VecX& x, VecX* gradient) {
  VecX y = x;
  if (np_ > 0) y.tail(np_) = DesignOf(x);
  const double loss = controller_.Evaluate(y, gradient != nullptr ? &inner_gradient_ : nullptr);
  if (gradient != nullptr && std::isfinite(loss)) {
    *gradient = inner_gradient_;
    gradient->tail(np_) *= options_.design_scale;
  }
  const Rollout& r = shooting_.last_rollout();
  walk_ = r.ok() ? r.states.back().q[kSpiderRootX] - r.states.front().q[kSpiderRootX]
                 : std::numeric_limits<double>::quiet_NaN();
  return loss;
}

}  // namespace arena
