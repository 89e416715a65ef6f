#include "core/math/inertia.h"

#include <numbers>

#include "core/math/so3.h"

namespace arena {

Mat6 SpatialInertia::Matrix() const {
  const Mat3 C = Skew(com_);
  Mat6 M;
  M.topLeftCorner<3, 3>() = inertia_com_ + mass_ * C * C.transpose();
  M.topRightCorner<3, 3>() = mass_ * C;
  M.bottomLeftCorner<3, 3>() = mass_ * C.transpose();
  M.bottomRightCorner<3, 3>() = mass_ * Mat3::Identity();
  return M;
}

SpatialInertia SpatialInertia::Transformed(const SE3& X_AB) const {
  const Mat3& R = X_AB.rotation();
  return SpatialInertia(mass_, X_AB.Act(com_), R * inertia_com_ * R.transpose());
}

SpatialInertia SpatialInertia::operator+(const SpatialInertia& o) const {
  const double m = mass_ + o.mass_;
  if (m <= 0.0) return SpatialInertia(0.0, Vec3::Zero(), inertia_com_ + o.inertia_com_);
  const Vec3 c = (mass_ * com_ + o.mass_ * o.com_) / m;
  // Parallel-axis theorem moves both rotational inertias to the common COM.
  const Mat3 d1 = Skew(com_ - c), d2 = Skew(o.com_ - c);
  const Mat3 I = inertia_com_ - mass_ * d1 * d1 + o.inertia_com_ - o.mass_ * d2 * d2;
  return SpatialInertia(m, c, I);
}

SpatialInertia SpatialInertia::SolidBox(double m, const Vec3& h) {
  const Vec3 d = 4.0 * h.cwiseProduct(h);  // full side lengths squared
  const Mat3 I = Vec3(d.y() + d.z(), d.x() + d.z(), d.x() + d.y()).asDiagonal() * (m / 12.0);
  return SpatialInertia(m, Vec3::Zero(), I);
}

SpatialInertia SpatialInertia::SolidSphere(double m, double r) {
  return SpatialInertia(m, Vec3::Zero(), Mat3::Identity() * (0.4 * m * r * r));
}

SpatialInertia SpatialInertia::SolidCylinder(double m, double r, double hl) {
  const double L = 2.0 * hl;
  const double Ixx = m * (3.0 * r * r + L * L) / 12.0;
  return SpatialInertia(m, Vec3::Zero(), Vec3(Ixx, Ixx, 0.5 * m * r * r).asDiagonal());
}

SpatialInertia SpatialInertia::SolidCapsule(double m, double r, double hl) {
  // Uniform density split between the cylinder and the two hemispherical caps.
  const double L = 2.0 * hl;
  const double v_cyl = std::numbers::pi * r * r * L;
  const double v_sph = 4.0 / 3.0 * std::numbers::pi * r * r * r;
  const double rho = m / (v_cyl + v_sph);
  const double mc = rho * v_cyl, ms = rho * v_sph;
  const double Izz = 0.5 * mc * r * r + 0.4 * ms * r * r;
  // Each hemisphere (mass ms/2) has its COM 3r/8 from the flat face, which sits at +-L/2.
  const double Ixx = mc * (3.0 * r * r + L * L) / 12.0 +
                     ms * (0.4 * r * r + L * L / 4.0 + 3.0 * L * r / 8.0);
  return SpatialInertia(m, Vec3::Zero(), Vec3(Ixx, Ixx, Izz).asDiagonal());
}

}  // namespace arena
