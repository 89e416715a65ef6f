// Single shooting on any model: the Objective (solvers/objective.h) over a T-step control
// sequence whose value is a TrajectoryLoss of the rollout from a fixed start and whose gradient
// is the backward pass through Simulator::Vjp. Optionally the model's design parameters are
// variables too (appended after the controls; co-design).
//
// A rollout that fails (a step not ok) or a loss that is not finite gives +inf.
#pragma once

#include <cstdint>
#include <memory>

#include "solvers/objective.h"
#include "trajectory/rollout.h"
#include "trajectory/trajectory_backprop.h"
#include "trajectory/trajectory_loss.h"

namespace arena {

class ShootingObjective final : public Objective {
 public:
  /// `sim` (not owned) must outlive the objective; one objective per thread.
  ShootingObjective(Simulator& sim, State start, int steps, std::shared_ptr<const TrajectoryLoss> loss,
                    bool design_variables = false);

  int dimension() const override;
  double Evaluate(const VecX& x, VecX* gradient) override;
  /// The actuators' ranges, repeated for every step (design parameters: unbounded).
  VecX lower() const override { return lower_; }
  VecX upper() const override { return upper_; }
  std::int64_t evaluations() const override { return rollouts_; }
  std::int64_t gradient_evaluations() const override { return backward_passes_; }

  Simulator& simulator() { return sim_; }
  int steps() const { return steps_; }
  int num_controls() const { return steps_ * nu_; }
  /// The last Evaluate's rollout and (after a gradient) backward pass.
  const Rollout& last_rollout() const { return rollout_; }
  const TrajectoryGradient& last_gradient() const { return gradient_; }

 private:
  Simulator& sim_;
  State start_;
  int steps_ = 0, nu_ = 0, np_ = 0;
  std::shared_ptr<const TrajectoryLoss> loss_;
  VecX lower_, upper_;
  Rollout rollout_;
  TrajectoryLossGradient loss_gradient_;
  TrajectoryGradient gradient_;
  VecX controls_;
  std::int64_t rollouts_ = 0, backward_passes_ = 0;
};

}  // namespace arena
