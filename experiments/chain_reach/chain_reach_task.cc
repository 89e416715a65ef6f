#include "experiments/chain_reach/chain_reach_task.h"

#include <cmath>

#include "core/common/error.h"

namespace arena {

namespace chain_reach_task {

std::shared_ptr<BodyPointLoss> TipLoss(const ReachingChains& chains) {
  auto loss = std::make_shared<BodyPointLoss>();
  loss->body = chains.tip_body;
  loss->local = chains.tip_local;
  loss->target = chains.target;
  return loss;
}

}  // namespace chain_reach_task

MatX CubicControlBasis(int steps) {
  MatX B(steps, 4);
  for (int t = 0; t < steps; ++t) {
    const double s = static_cast<double>(t + 1) / steps, r = 1.0 - s;
    B.row(t) << r * r * r, 3.0 * s * r * r, 3.0 * s * s * r, s * s * s;
  }
  return B;
}

ChainReachObjective::ChainReachObjective(Simulator& sim, const ReachingChains& chains, int steps,
                                         bool codesign)
    : sim_(sim),
      loss_(chain_reach_task::TipLoss(chains)),
      shooting_(sim, DefaultState(sim.scene()), steps, loss_, codesign),
      basis_(CubicControlBasis(steps)),
      base_x_(chains.base_x) {
  if (sim.scene().nu() != 1) throw InvalidArgument("chain_reach: the scene must have one actuator, the base's");
  np_ = codesign ? static_cast<int>(sim.DesignParameters().size()) : 0;
}

VecX ChainReachObjective::Start() const {
  VecX x = VecX::Zero(dimension());
  if (np_ > 0) x.tail(np_) = sim_.DesignParameters();
  return x;
}

double ChainReachObjective::Evaluate(const VecX& x, VecX* gradient) {
  const int steps = static_cast<int>(basis_.rows());
  VecX inner(steps + np_);
  inner.head(steps) = (basis_ * x.head<4>()).array() + base_x_;
  if (np_ > 0) inner.tail(np_) = x.tail(np_);
  VecX g;
  const double loss = shooting_.Evaluate(inner, gradient != nullptr ? &g : nullptr);
  if (gradient == nullptr || !std::isfinite(loss)) return loss;
  gradient->resize(dimension());
  gradient->head<4>() = basis_.transpose() * g.head(steps);
  if (np_ > 0) {
    // The tip also moves with the design at fixed q_T: dL/dp += (dL/dx) dx/dp.
    const VecX& qT = shooting_.last_rollout().states.back().q;
    const Vec3 tip = loss_->Point(sim_.scene(), qT);
    const MatX dtip_dp = RequireDesignVertices(sim_).BodyPointDesignJacobian(qT, loss_->body);
    gradient->tail(np_) = g.tail(np_) + dtip_dp.transpose() * (2.0 * (tip - loss_->target));
  }
  return loss;
}

}  // namespace arena
