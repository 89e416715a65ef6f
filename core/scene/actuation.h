// Generalized forces that do not come from contact: actuators and passive joint terms.
#pragma once

#include "core/scene/scene.h"

namespace arena {

/// tau_act(q, v, u): torque actuators gear * u, PD actuators kp (u - q) - kd v (u clamped to
/// the control range first); a target on a planar body's x or y acts on that world coordinate
/// (Actuator in scene.h).
VecX ActuatorForces(const Scene& scene, const State& state, const Control& control);

/// Passive joint forces: -stiffness (q - spring_reference) - damping v on 1-DOF joints.
VecX PassiveForces(const Scene& scene, const State& state);

/// Partial derivatives of ActuatorForces + PassiveForces (nv x nv, nv x nv, nv x nu).
/// Rows and columns in q are tangent-space (nv) coordinates. Clamped controls have zero
/// derivative.
struct GeneralizedForceJacobians {
  MatX dtau_dq;
  MatX dtau_dv;
  MatX dtau_du;
};
GeneralizedForceJacobians ActuationJacobians(const Scene& scene, const State& state,
                                             const Control& control);

}  // namespace arena
