// Losses on a rollout, L(x_0 .. x_T, u), with the gradients the backward pass needs: dL/dq_t
// (tangent coordinates), dL/dv_t and the explicit dL/du. A new task writes its own loss; the
// rollout, backward pass and optimisers stay the same for every model.
#pragma once

#include <vector>

#include "core/scene/scene.h"

namespace arena {

/// Gradient of a trajectory loss. q[t] and v[t] (t = 0..T) may be empty: no direct term at
/// step t (a terminal loss fills only t = T). u: the explicit gradient with respect to the
/// stacked controls (empty: none).
struct TrajectoryLossGradient {
  std::vector<VecX> q, v;
  VecX u;
};

class TrajectoryLoss {
 public:
  virtual ~TrajectoryLoss() = default;
  /// L for the states x_0 .. x_T (a complete rollout) and the stacked controls.
  virtual double Value(const Scene& scene, const std::vector<State>& states, const VecX& controls) const = 0;
  /// dL at the same arguments; sizes g->q and g->v to states.size().
  virtual void Gradient(const Scene& scene, const std::vector<State>& states, const VecX& controls,
                        TrajectoryLossGradient* g) const = 0;
};

/// L = sum_i wq_i (q_T - q*)_i^2 + sum_i wv_i (v_T)_i^2 + w_u mean_k (u_k / s_k)^2: a target
/// for the last state and a control cost scaled by s (the actuators' limits in seed 002's
/// Fig. 7 problems). Needs a configuration that is a vector (nq = nv, revolute and prismatic
/// joints): q_T - q* is then the tangent difference.
struct TerminalStateLoss final : TrajectoryLoss {
  VecX q_target, q_weight, v_weight;  // nv each
  double control_weight = 0.0;        // w_u
  VecX control_scale;                 // s, the size of the stacked controls (when w_u > 0)

  double Value(const Scene& scene, const std::vector<State>& states, const VecX& controls) const override;
  void Gradient(const Scene& scene, const std::vector<State>& states, const VecX& controls,
                TrajectoryLossGradient* g) const override;

  // The same loss as a sum of squares, L = |r(x_T)|^2 + sum_i (c_i u_i)^2, for Gauss-Newton
  // methods (multiple shooting): r = [sqrt(wq) (q_T - q*); sqrt(wv) v_T] and its Jacobian with
  // respect to (q_T, v_T) (diagonal), and c = sqrt(w_u / n) / s (n controls; empty when w_u = 0).
  void TerminalResiduals(const State& end, VecX* r, MatX* dr_dx) const;
  VecX ControlResidualScale(int num_controls) const;
};

/// True when every joint of the scene is revolute, prismatic or fixed: q is then a vector and
/// q1 - q0 its tangent difference (what TerminalStateLoss and multiple shooting assume).
bool HasVectorConfiguration(const Scene& scene);

}  // namespace arena
