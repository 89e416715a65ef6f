// The quasi-static step of seed 000's grasp planner (Fig. 1, Sec. VII; the quasi-dynamic model of
// Pang et al. that its RRT follows): from rest, holding the controls. The previous velocity is
// dropped, so an unactuated body's impulse balance is M v+ = dt (m g + f) + contact impulses, and
// a position-controlled fingertip moves to where its spring balances the contact impulses. Run
// on any model as `substeps` steps with u held, each from v = 0: one step for a model whose
// springs are implicit (silico), several short ones for a model whose position springs are
// explicit (MuJoCo), where each from rest moves a fingertip a fixed fraction of the way to its
// spring's balance (dt^2 kp / m of it; a step with the velocity kept would oscillate instead).
// Its Jacobian is the chain of the steps' Derivatives() (d q / d q and d q / d u; the velocity
// is reset) in configuration coordinates (x, y, theta of a planar body).
#pragma once

#include <string>

#include "core/math/types.h"
#include "models/simulator.h"

namespace arena {

struct QuasiStaticResult {
  bool ok = false;
  std::string failure;  // why, when !ok (the step's message)
  VecX q;               // the configuration after the step
  MatX dq_du;           // nq x nu, d q / d u in configuration coordinates (when asked for)
};

/// One quasi-static step of `sim` from q with controls u (throws Unsupported for a scene with a
/// free or ball joint: its quaternion coordinates are not a metric space for the planner). A
/// failed step is reported in the result, never thrown.
QuasiStaticResult QuasiStaticStep(Simulator& sim, const VecX& q, const VecX& u, int substeps, bool derivatives);

/// d q / d (tangent) at q: how a tangent perturbation (the rows of StepDerivatives) moves the
/// configuration coordinates, nq x nv (planar: (x, y) = R(theta) (v_x, v_y), theta = omega).
MatX CoordinateJacobian(const MultibodyModel& model, const VecX& q);

}  // namespace arena
