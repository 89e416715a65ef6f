// spider's decision variables and objective (seed 003 Fig. 11): the sine-wave targets of the 12
// leg DOFs (a, omega, phi per DOF and term) and, with co-design, the feet's hull vertices after
// them, as offsets d from the start design p0 in units of `design_scale` (p = p0 + design_scale d:
// Adam's steps are about its learning rate in every variable, so the scale sets how far a vertex
// moves per iteration) and bounded by `design_reach` in each coordinate (the lower leg's frame):
// the spider starts higher than that above the ground, so no design makes its start infeasible.
// Loss: |(x, y)_root(q_T) - (x, y)*|^2 with the target
// `target_distance` down the slope (+x) from the start (TerminalStateLoss on the root's two
// slides). The gradient is the backward pass through the rollout pulled back to the sines
// (trajectory/controller_objective.h); the loss does not depend on the feet at fixed q_T.
#pragma once

#include <cstdint>
#include <memory>

#include "models/ip/ip_simulator.h"
#include "solvers/objective.h"
#include "trajectory/controller_objective.h"
#include "trajectory/shooting_objective.h"

namespace arena {

struct SpiderTaskOptions {
  int steps = 300;
  double timestep = 0.01;
  int terms = 2;                    // [GUESS] sines per leg DOF
  double target_distance = 10.0;    // ours: m down the slope, beyond any walk of the horizon
  double initial_amplitude = 0.2;   // ours: rad, every term
  double omega_min = 4.0, omega_max = 8.0;  // ours: rad/s, the terms' initial frequencies
  double phase_step = 0.7;          // ours: rad between consecutive DOFs' initial phases
  double design_scale = 0.1;        // ours: m per unit of a design variable
  double design_reach = 0.02;       // ours: m, how far a foot vertex may move in each coordinate
};

class SpiderObjective final : public Objective {
 public:
  /// `sim` (not owned, on a spider scene) must outlive the objective; with `codesign` it must
  /// have design parameters (throws Unsupported otherwise).
  SpiderObjective(IncrementalPotentialSimulator& sim, const SpiderTaskOptions& options, bool codesign);

  int dimension() const override { return controller_.dimension(); }
  /// Also records the walking distance of the rollout (walk()).
  double Evaluate(const VecX& x, VecX* gradient) override;
  /// The sines are unbounded; the design offsets within +-design_reach / design_scale.
  VecX lower() const override;
  VecX upper() const override;
  std::int64_t evaluations() const override { return controller_.evaluations(); }
  std::int64_t gradient_evaluations() const override { return controller_.gradient_evaluations(); }

  /// The sines' start (SpiderTaskOptions) and, with co-design, zero design offsets.
  VecX Start() const;
  int num_design_parameters() const { return np_; }
  /// The model's design parameters at x (co-design), p0 + design_scale d.
  VecX DesignOf(const VecX& x) const;
  /// The root's displacement down the slope (+x) at the end of the last Evaluate's rollout (NaN
  /// if it failed).
  double walk() const { return walk_; }
  const Rollout& last_rollout() const { return shooting_.last_rollout(); }

 private:
  IncrementalPotentialSimulator& sim_;
  SpiderTaskOptions options_;
  ShootingObjective shooting_;
  ControllerObjective controller_;
  int np_ = 0;
  VecX p0_;            // the start design
  VecX inner_gradient_;
  double walk_ = 0.0;
};

}  // namespace arena
