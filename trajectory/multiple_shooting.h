// Multiple shooting on any model with derivatives: the method seed 002 Sec. VII-B used on the
// catapult. The T steps are split into K segments; the start state of every segment but the
// first (a "knot") becomes a variable beside the controls, and the defects
// d_k = x_end(k) - x_knot(k+1) between a segment's end and the next knot are driven to zero.
//
// Nimble solved the constrained problem with an interior-point NLP solver. Here it is a
// Gauss-Newton problem for Ceres' Levenberg-Marquardt (the papers' losses are sums of squares,
// TerminalStateLoss), with the defects as an augmented-Lagrangian penalty: Ceres minimises
//   |r(x_T)|^2 + sum (c_i u_i)^2 + rho / 2 sum_k |d_k + lambda_k / rho|^2
// for fixed (lambda, rho), then lambda += rho d and rho grows when the defects did not shrink
// by 4x; repeated until the defects are below the tolerance. Each residual block rolls out its
// own segment and chains the model's step Jacobians (Simulator::Derivatives: analytical, or
// differences of the step for the engines) through it, so the Jacobian is block-sparse
// (SuiteSparse Cholesky). Freeing the knots lets the optimiser place the state mid-trajectory
// before the controls that reach it are found, where single shooting must find them through
// the whole rollout at once.
//
// Every recorded iteration reports the loss of the *feasible* trajectory: a rollout of the
// current controls from the true start (counted), so the trace compares with single shooting
// and CEM at the same task loss. Work is counted in rollouts: the steps simulated divided by T
// (evaluations) and the step Jacobians taken divided by T (gradient evaluations). Needs a
// vector configuration (revolute and prismatic joints: HasVectorConfiguration): the knots are
// plain (q, v).
#pragma once

#include <memory>
#include <string>

#include "models/simulator.h"
#include "solvers/optimizer_trace.h"
#include "trajectory/trajectory_loss.h"

namespace arena {

struct MultipleShootingOptions {
  int segments = 10;               // K
  double initial_penalty = 1.0;    // rho_0
  double penalty_growth = 10.0;    // rho *= this when the defects did not shrink by 4x
  int inner_iterations = 20;       // Levenberg-Marquardt iterations per multiplier update
  double defect_tolerance = 1e-6;  // max |d| below which the trajectory counts as stitched
  int max_updates = 100;           // multiplier updates before giving up (kMaxIterations)
  /// "" when valid.
  std::string Validate() const;
};

/// The end of one segment, x_end = (q, v) after `steps` steps of `sim` from `start` under
/// `controls` (steps * nu), and its Jacobians with respect to the start (2nv x 2nv) and the
/// controls (2nv x steps nu), chained from the step Jacobians. False when a step fails.
struct SegmentJacobians {
  VecX end;
  MatX d_start, d_controls;
};
bool SegmentEndAndJacobians(Simulator& sim, const State& start, const VecX& controls, int steps,
                            SegmentJacobians* out);

/// Minimises `loss` over the controls of a `steps`-step rollout from `start`, starting from
/// `controls0` (the knots start on its rollout). trace.best_x holds the best feasible controls.
/// Throws Unsupported for a model without derivatives or a scene whose configuration is not a
/// vector, InvalidArgument for bad sizes or options.
OptimizerTrace MinimizeMultipleShooting(Simulator& sim, const State& start, int steps,
                                        std::shared_ptr<const TerminalStateLoss> loss, const VecX& controls0,
                                        const MultipleShootingOptions& options, const OptimizerBudget& budget);

}  // namespace arena
