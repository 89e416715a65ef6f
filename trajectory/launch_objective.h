// The launch of one free body as the decision variables: its start position and velocity in
// the horizontal plane, x = (p_x, p_y, v_x, v_y), the rest of the start state fixed. Seed 004's
// billiards (Sec. 6, Fig. 5): "the initial planar position and velocity of the cue ball" are
// the 4 controls of a 100-frame rollout. The gradient is the backward pass's dL/d(start state)
// (trajectory/trajectory_backprop.h) restricted to those four coordinates.
#pragma once

#include <cstdint>
#include <memory>

#include "solvers/objective.h"
#include "trajectory/rollout.h"
#include "trajectory/trajectory_backprop.h"
#include "trajectory/trajectory_loss.h"

namespace arena {

class LaunchObjective final : public Objective {
 public:
  /// `sim` (not owned) must outlive the objective. `body` is on a free joint and unrotated in
  /// `start` (so its tangent coordinates are world ones); throws InvalidArgument otherwise.
  LaunchObjective(Simulator& sim, State start, int body, int steps, std::shared_ptr<const TrajectoryLoss> loss);

  int dimension() const override { return 4; }
  double Evaluate(const VecX& x, VecX* gradient) override;
  std::int64_t evaluations() const override { return rollouts_; }
  std::int64_t gradient_evaluations() const override { return backward_passes_; }

  /// (p_x, p_y, v_x, v_y) of the body in `start`.
  VecX Launch() const;
  /// `start` with the body launched at x.
  State StartAt(const VecX& x) const;
  const Rollout& last_rollout() const { return rollout_; }

 private:
  Simulator& sim_;
  State start_;
  int idx_q_ = 0, idx_v_ = 0, steps_ = 0;
  std::shared_ptr<const TrajectoryLoss> loss_;
  Rollout rollout_;
  TrajectoryLossGradient loss_gradient_;
  TrajectoryGradient gradient_;
  std::int64_t rollouts_ = 0, backward_passes_ = 0;
};

}  // namespace arena
