// Forward kinematics and Jacobians of the kinematic tree.
#pragma once

#include "core/multibody/data.h"

namespace arena {

/// Body poses data.X_WB (and data.X_PB).
void ForwardKinematics(const MultibodyModel& model, MultibodyData& data, const VecX& q);
/// Also body twists data.V_B.
void ForwardKinematics(const MultibodyModel& model, MultibodyData& data, const VecX& q,
                       const VecX& v);
/// Also body accelerations data.A_B: the spatial acceleration in the body frame, i.e. the time
/// derivative of the coordinates of V_B, without gravity (see data.h for the classical one).
void ForwardKinematics(const MultibodyModel& model, MultibodyData& data, const VecX& q,
                       const VecX& v, const VecX& a);

enum class ReferenceFrame {
  kWorld,               // spatial twist of the body at the world origin, world axes
  kLocal,               // body twist in the body frame (V_B = J v)
  kLocalWorldAligned,   // twist at the body origin with world axes: [omega_W; v_WBo]
};

/// 6 x nv Jacobian of body `body`'s twist (after ForwardKinematics(q)).
void BodyJacobian(const MultibodyModel& model, const MultibodyData& data, int body,
                  ReferenceFrame frame, MatX* J);

/// 3 x nv Jacobian of the world velocity of the point fixed to `body` that is at p_W now.
void PointJacobian(const MultibodyModel& model, const MultibodyData& data, int body,
                   const Vec3& p_W, MatX* J);

/// World velocity of the body-fixed point at p_W (after ForwardKinematics(q, v)).
Vec3 PointVelocity(const MultibodyData& data, int body, const Vec3& p_W);

/// Time derivative of BodyJacobian(kWorld) times v, i.e. the world-frame velocity-product
/// spatial acceleration term: A_W = J a + dJ v (after ForwardKinematics(q, v)).
Motion SpatialAccelerationBias(const MultibodyModel& model, const MultibodyData& data, int body);

/// d V_W / dq at fixed v: the derivative of body `body`'s world twist V_W = J_W(q) v (spatial,
/// about the world origin) along the configuration tangent (Integrate's dq), 6 x nv, after
/// ForwardKinematics(q, v). A joint perturbation moves everything it carries, so the column of
/// DOF k with world axis S_k is S_k x (V_W - V_W(parent of k's joint)) (Featherstone 2008,
/// Sec. 2.9; the screw-axis rule of Nimble's eq. 25). The contact Jacobian's d(J v)/dq needs it.
void WorldTwistDerivative(const MultibodyModel& model, const MultibodyData& data, int body, MatX* dV_dq);

}  // namespace arena
