// chain_reach's decision variables and objective (seed 003 Fig. 10): the left chain's base target
// over the horizon as a cubic in time with 4 coefficients (Bernstein form, the paper's "cubic
// spline with its 4 coefficients"; all zero: the base stays), and with co-design the sdrs design
// parameters after them (the left chain's hull vertices, the joints following:
// SdrsModelOptions::design_attachments). Loss: |tip(q_T) - target|^2
// (trajectory/body_point_loss.h). The gradient is the backward pass through the rollout
// (trajectory/shooting_objective.h) carried to the coefficients, plus the loss's own dependence on
// the design at fixed q_T (the tip moves with the joints: BodyPointDesignJacobian).
#pragma once

#include <cstdint>
#include <memory>

#include "models/simulator.h"
#include "scenes/reaching_chains_scenes.h"
#include "solvers/objective.h"
#include "trajectory/body_point_loss.h"
#include "trajectory/shooting_objective.h"

namespace arena {

/// The Bernstein basis of a cubic at the end of each of `steps` steps (steps x 4): the control
/// of step t is the base's target at t + 1, s = (t + 1) / steps.
MatX CubicControlBasis(int steps);

class ChainReachObjective final : public Objective {
 public:
  /// `sim` (not owned) must outlive the objective; with `codesign` it must have design
  /// parameters (throws Unsupported otherwise).
  ChainReachObjective(Simulator& sim, const ReachingChains& chains, int steps, bool codesign);

  int dimension() const override { return 4 + np_; }
  double Evaluate(const VecX& x, VecX* gradient) override;
  std::int64_t evaluations() const override { return shooting_.evaluations(); }
  std::int64_t gradient_evaluations() const override { return shooting_.gradient_evaluations(); }

  /// Zero coefficients and (co-design) the model's design parameters as they are.
  VecX Start() const;
  /// The last Evaluate's rollout.
  const Rollout& last_rollout() const { return shooting_.last_rollout(); }
  const BodyPointLoss& loss() const { return *loss_; }
  Simulator& simulator() { return sim_; }

 private:
  Simulator& sim_;
  std::shared_ptr<BodyPointLoss> loss_;
  ShootingObjective shooting_;
  MatX basis_;
  double base_x_ = 0.0;
  int np_ = 0;
};

}  // namespace arena
