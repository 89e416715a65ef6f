// Group operations of the planar joint (SE(2)) and the right Jacobian of SE(3), used by
// configuration.cc. Twists are Featherstone-ordered: SE(3) [omega; v], SE(2) (omega, v_x, v_y).
#pragma once

#include "core/math/se3.h"

namespace arena {

/// SE(2) element: rotation angle theta and translation t (in the parent frame).
struct SE2 {
  double theta = 0.0;
  Vec2 t = Vec2::Zero();
};

/// V(omega) with Exp(omega, v).t == V(omega) v: [sin w, -(1 - cos w); 1 - cos w, sin w] / w.
Mat2 Se2TranslationMap(double omega);
/// Exponential of the SE(2) twist (omega, v): the screw motion held for unit time.
SE2 ExpSE2(const Vec3& twist);
/// The twist with ExpSE2(twist) == X and twist[0] == X.theta (the angle is not wrapped, so that
/// Exp(Log(X)) == X exactly). Ill-conditioned when theta is a non-zero multiple of 2 pi.
Vec3 LogSE2(const SE2& X);
/// Adjoint of X on SE(2) twists (omega, v_x, v_y).
Mat3 AdjointSE2(const SE2& X);

/// Right Jacobian of SE(3): ExpSE3(xi + dxi) ~= ExpSE3(xi) * ExpSE3(Jr(xi) dxi).
/// Block form [Jr(w), 0; Q(-v, -w), Jr(w)] with Barfoot's Q (State Estimation for Robotics,
/// 2017, eq. 7.86), written for the [omega; v] ordering.
Mat6 RightJacobianSE3(const Motion& xi);
/// Right Jacobian of SE(2), the restriction of RightJacobianSE3 to the planar subalgebra.
Mat3 RightJacobianSE2(const Vec3& twist);

}  // namespace arena
