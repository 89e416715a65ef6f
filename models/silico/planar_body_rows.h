// The body rows of a planar step, shared by silico and its bilevel baseline (the 2D body of
// seed 000 App. C eq. 58, in the midpoint-velocity form of the authors' code): per body the
// impulse balance
//   M (v25 - v15) - dt (m g + f_act) - sum of contact impulses = 0,   M = diag(m, m, J),
// of which this writes everything but the contact impulses. Actuators on a body's planar joint:
// torque actuators add gear u along the joint's DOF (dof 0 = rotation, 1/2 = body x/y, rotated
// with the pose at the start of the step); PD actuators are position control, implicit at the
// end of the step on the world coordinate of the DOF (dof 0 = theta, 1 = x, 2 = y):
// kp (u - p3) - kd v25, the paper's position-controlled fingertip when kd = 0.
// Also the map between a State and the paper's step data (p2, v15) and back.
#pragma once

#include <vector>

#include "core/scene/scene.h"

namespace arena::silico {

struct PlanarBody {
  int body = 0;         // scene body index
  int idx_q = 0;        // (x, y, theta) in the scene's q
  int idx_v = 0;        // (omega, v_x, v_y) in the scene's v (body frame)
  double mass = 0.0;
  double inertia = 0.0;
};

class PlanarBodyRows {
 public:
  PlanarBodyRows() = default;
  /// `slot[b]` is the dynamic-body slot of scene body b (-1 if fixed). Throws Unsupported for an
  /// actuator that does not drive a dynamic body (`model` names the caller in the message).
  PlanarBodyRows(const Scene& scene, std::vector<PlanarBody> bodies, const std::vector<int>& slot,
                 const char* model);

  const std::vector<PlanarBody>& bodies() const { return bodies_; }
  int num_bodies() const { return static_cast<int>(bodies_.size()); }

  /// Adds the rows (3 per body, from row 0) at v25 = y.head(3 nb) to F, their v25-derivatives
  /// to J (if non-null) and their derivatives in theta = [p2 | v15 | u] to dF_dtheta (if non-null).
  void Add(double dt, const VecX& p2, const VecX& v15, const VecX& u, const VecX& y, VecX* F, MatX* J,
           MatX* dF_dtheta) const;

 private:
  std::vector<PlanarBody> bodies_;
  std::vector<Actuator> actuators_;
  std::vector<int> actuator_body_;  // dynamic-body slot of each actuator
  Vec2 gravity_ = Vec2::Zero();
};

/// State (q = (x, y, theta), v = (omega, v_x, v_y) in the body frame) -> p2 and the world
/// midpoint velocity v15 = (x-dot, y-dot, theta-dot), 3 per body.
void LoadPlanarState(const std::vector<PlanarBody>& bodies, const State& state, VecX* p2, VecX* v15);
/// The inverse after a step: q = p3, v = (theta-dot, R(theta3)^T v25_xy).
void StorePlanarState(const std::vector<PlanarBody>& bodies, const VecX& p3, const VecX& v25, State* state);

}  // namespace arena::silico
