// Rigid-body spatial inertia (Featherstone ordering [omega; v]).
#pragma once

#include "core/math/se3.h"

namespace arena {

/// Mass m, centre of mass c (in the body frame) and rotational inertia I_c about the COM.
class SpatialInertia {
 public:
  SpatialInertia() = default;
  SpatialInertia(double mass, const Vec3& com, const Mat3& inertia_com)
      : mass_(mass), com_(com), inertia_com_(inertia_com) {}

  double mass() const { return mass_; }
  const Vec3& com() const { return com_; }
  const Mat3& inertia_com() const { return inertia_com_; }

  /// 6x6 matrix: [I_c + m cx cx^T, m cx; m cx^T, m 1] with cx = Skew(c).
  Mat6 Matrix() const;
  /// The same inertia expressed in frame A, given X_AB (this inertia is in B).
  SpatialInertia Transformed(const SE3& X_AB) const;
  /// Sum of two inertias expressed in the same frame.
  SpatialInertia operator+(const SpatialInertia& other) const;
  /// Momentum h = I * m: linear m (v - c x w), angular I_c w + c x linear.
  EIGEN_ALWAYS_INLINE Force operator*(const Motion& m) const {
    using namespace se3_kernels;  // scalar kernels, as the actions of se3.h
    double v[3];
    Cross(m.data(), com_.data(), v);  // v - c x w = v + w x c
    Force out;
    out[3] = mass_ * (m[3] + v[0]);
    out[4] = mass_ * (m[4] + v[1]);
    out[5] = mass_ * (m[5] + v[2]);
    Rotate(inertia_com_.data(), m.data(), out.data());
    CrossAdd(com_.data(), out.data() + 3, out.data());
    return out;
  }

  /// Uniform solids (inertia about their centre, aligned with the shape axes).
  static SpatialInertia SolidBox(double mass, const Vec3& half_extents);
  static SpatialInertia SolidSphere(double mass, double radius);
  /// Cylinder and capsule along the local z axis.
  static SpatialInertia SolidCylinder(double mass, double radius, double half_length);
  static SpatialInertia SolidCapsule(double mass, double radius, double half_length);

 private:
  double mass_ = 0.0;
  Vec3 com_ = Vec3::Zero();
  Mat3 inertia_com_ = Mat3::Zero();
};

}  // namespace arena
