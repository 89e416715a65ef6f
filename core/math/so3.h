// Rotation group SO(3): hat map, exponential and logarithm, and their Jacobians.
#pragma once

#include "core/math/types.h"

namespace arena {

/// Skew-symmetric matrix with Skew(a) * b == a.cross(b).
Mat3 Skew(const Vec3& a);

/// Exponential map: rotation by angle |w| about axis w/|w| (Rodrigues).
Mat3 ExpSO3(const Vec3& w);

/// Logarithm: the rotation vector w with ExpSO3(w) == R, |w| <= pi.
Vec3 LogSO3(const Mat3& R);

/// Right Jacobian Jr(w): ExpSO3(w + dw) ~= ExpSO3(w) * ExpSO3(Jr(w) dw).
Mat3 RightJacobianSO3(const Vec3& w);

/// Inverse of the right Jacobian.
Mat3 RightJacobianInverseSO3(const Vec3& w);

/// Quaternion (unit, any sign) from a rotation vector, and back.
Quat QuatExp(const Vec3& w);
Vec3 QuatLog(const Quat& q);

}  // namespace arena
