// The trajectory optimisation problems of seed 002 Sec. VII-B (Fig. 7), for any model: the
// open-loop controls u_0..u_{T-1} are the variables and the loss is a TerminalStateLoss
// (trajectory/trajectory_loss.h),
//   L(u) = sum_i wq_i (q_T - q*)_i^2 + sum_i wv_i (v_T)_i^2 + w_u mean_t,k (u_tk / limit_k)^2,
// (q_T, v_T) the state after T steps from the problem's start. The dynamics clamp u to the
// actuators' ranges, so any u is a valid point.
//
// The problems (the experiment's "problems" key):
//   cartpole         start q = [1, 1], v = 0, L = |q_T|^2 + |v_T|^2, dt = 0.01 (as Nimble's
//                    public cartpole example), T = 200 (2 s; our choice, docs/deviations.md).
//   double_cartpole  a second identical pole at the end of the first (our choice of the
//                    robot: the paper does not describe it), start q = [1, 1, 0], the same
//                    loss, dt = 0.01, T = 200.
//   catapult         the catapult scene (dt = 0.001): the projectile, which starts at rest on
//                    the arm, must be at (1.0, 0.5) m after T = 300 steps (0.3 s), which only
//                    a swing of the arm that throws it achieves; L = |p_T - p*|^2 + 1e-4
//                    mean (u / 1000 N m)^2 (target and horizon: our choice, docs/deviations.md).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/scene/scene.h"
#include "trajectory/trajectory_loss.h"

namespace arena {

/// One problem: the scene, its horizon, start and loss. Immutable.
struct TrajoptTask {
  std::string name;
  std::shared_ptr<const Scene> scene;
  double timestep = 0.0;  // s
  int steps = 0;          // T
  State start;
  std::shared_ptr<const TerminalStateLoss> loss;
};

/// The names the experiment accepts, in a fixed order.
const std::vector<std::string>& TrajoptTaskNames();
/// Throws InvalidArgument for an unknown name (listing the valid ones).
TrajoptTask MakeTrajoptTask(const std::string& name);

}  // namespace arena
