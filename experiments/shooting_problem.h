// The trajectory optimisation problems of Nimble's Fig. 7 (Werling et al., RSS 2021, Sec. VII-B;
// digest 8.4, 8.6, 13), as single-shooting problems over the open-loop controls u_0..u_{T-1}:
//   L(u) = sum_i wq_i (q_T - q*)_i^2 + sum_i wv_i (v_T)_i^2 + w_u mean_t,k (u_tk / limit_k)^2
// where (q_T, v_T) is the state after T nimble steps from the problem's start state. The
// controls are clamped to the actuators' ranges by the dynamics (Step clamps u; the actuation
// Jacobian is zero outside the range), so any u is a valid point.
//
// The problems (the experiment's "problems" key):
//   cartpole         Nimble's cartpole.py: start q = [1, 1], v = 0, L = |q_T|^2 + |v_T|^2,
//                    dt = 0.01, T = 200 (2 s; Nimble used 500 steps with multiple shooting).
//   double_cartpole  a second identical pole at the end of the first (digest 13's guess),
//                    start q = [1, 1, 0], the same loss, dt = 0.01, T = 200.
//   catapult         CatapultScene (dt = 0.001): the projectile, which starts at rest at (0, 0)
//                    beside the arm and otherwise just falls to the floor, must be at
//                    (1.0, 0.5) m after T = 300 steps (0.3 s), which only a swing of the arm
//                    that hits it can achieve; L = |p_T - p*|^2 + 1e-4 mean (u / 1000 N m)^2.
//                    (Nimble's catapult.py aims at (2.2, 2.2) after 500 steps with multiple
//                    shooting; a nearer target and a shorter horizon keep a rollout cheap.)
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/scene/scene.h"

namespace arena {

class NimbleSimulator;

/// One problem: the scene, its horizon, start and the loss weights. Immutable.
struct ShootingTask {
  std::string name;
  std::shared_ptr<const Scene> scene;
  double timestep = 0.0;  // s
  int steps = 0;          // T
  State start;
  VecX q_target, q_weight, v_weight;  // nv each (these scenes have nq = nv)
  double control_weight = 0.0;        // w_u, on controls scaled by their limits
};

/// The names the experiment accepts, in a fixed order.
const std::vector<std::string>& ShootingTaskNames();
/// Throws InvalidArgument for an unknown name (listing the valid ones).
ShootingTask MakeShootingTask(const std::string& name);

/// Rollouts and backward passes of one task on one simulator (owned workspace: one thread).
/// A rollout whose step fails (status not ok) or whose loss is not finite has loss +inf.
class ShootingProblem {
 public:
  /// `sim` must be a NimbleSimulator of task.scene with timestep task.timestep.
  ShootingProblem(ShootingTask task, std::unique_ptr<NimbleSimulator> sim);
  ~ShootingProblem();

  const ShootingTask& task() const { return task_; }
  int num_actuators() const { return nu_; }
  /// T * nu: u stacked step by step.
  int num_controls() const { return task_.steps * nu_; }
  /// The actuators' ranges, repeated for every step.
  const VecX& lower() const { return lower_; }
  const VecX& upper() const { return upper_; }

  /// L(u) from one forward rollout.
  double Loss(const VecX& u);
  /// L(u) and dL/du (forward rollout, then nimble's Backprop through every step: the standard
  /// gradient). `gradient` is left untouched when the loss is +inf.
  double LossAndGradient(const VecX& u, VecX* gradient);

  std::int64_t rollouts() const { return rollouts_; }
  std::int64_t backward_passes() const { return backward_passes_; }

 private:
  // Fills states_[0..T]; false when a step fails or the final state is not finite.
  bool Forward(const VecX& u);
  Control ControlAt(const VecX& u, int t) const;

  ShootingTask task_;
  std::unique_ptr<NimbleSimulator> sim_;
  int nu_ = 0;
  VecX lower_, upper_;
  std::vector<State> states_;
  std::int64_t rollouts_ = 0;
  std::int64_t backward_passes_ = 0;
};

}  // namespace arena
