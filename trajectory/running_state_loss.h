// A loss on every state of a rollout, not only the last: L = (1/T) sum_{t=1..T} sum_i w_i (q_t -
// q*)_i^2, the mean over the horizon of a weighted squared distance to a reference
// configuration. What a terminal loss cannot ask for: to stay somewhere all along (seed 003's
// biped, Figs. 12-13: the torso upright over the whole walk, not only at its end). LossSum adds
// it to another loss.
#pragma once

#include <memory>
#include <vector>

#include "trajectory/trajectory_loss.h"

namespace arena {

/// Needs a vector configuration (HasVectorConfiguration): q_t - q* is the tangent difference.
struct RunningStateLoss final : TrajectoryLoss {
  VecX q_target, q_weight;  // nv each

  double Value(const Scene& scene, const std::vector<State>& states, const VecX& controls) const override;
  void Gradient(const Scene& scene, const std::vector<State>& states, const VecX& controls,
                TrajectoryLossGradient* g) const override;
};

/// L = sum_k L_k: the terms' values and gradients added (a term's empty per-step entry adds
/// nothing).
struct LossSum final : TrajectoryLoss {
  std::vector<std::shared_ptr<const TrajectoryLoss>> terms;

  double Value(const Scene& scene, const std::vector<State>& states, const VecX& controls) const override;
  void Gradient(const Scene& scene, const std::vector<State>& states, const VecX& controls,
                TrajectoryLossGradient* g) const override;
};

}  // namespace arena
