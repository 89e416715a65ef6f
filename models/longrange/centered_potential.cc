#include "models/longrange/centered_potential.h"

#include <cmath>
#include <limits>

namespace arena::longrange {

Scalar2 CenteredPotential(double r) {
  if (!(r > 0.0)) {
    const double inf = std::numeric_limits<double>::infinity();
    return {inf, -inf, inf};
  }
  // P = 12 (1 + r^{-1/2})^2 = 12 + 24 r^{-1/2} + 12 r^{-1}   (Eq. 5)
  const double q = 1.0 / std::sqrt(r);  // r^{-1/2}
  const double inv_r = 1.0 / r;
  Scalar2 p;
  p.value = 12.0 * (1.0 + q) * (1.0 + q);
  p.first = -12.0 * inv_r * (q + inv_r);                 // -12 (r^{-3/2} + r^{-2})
  p.second = inv_r * inv_r * (18.0 * q + 24.0 * inv_r);  // 18 r^{-5/2} + 24 r^{-3}
  return p;
}

Scalar2 QuinticStep(double s) {
  if (s <= 0.0) return {0.0, 0.0, 0.0};
  if (s >= 1.0) return {1.0, 0.0, 0.0};
  // Phi = s^3 (6 s^2 - 15 s + 10), Phi' = 30 s^2 (s - 1)^2, Phi'' = 60 s (2 s - 1)(s - 1)  (Eq. 4)
  const double s2 = s * s;
  return {s2 * s * (s * (6.0 * s - 15.0) + 10.0), 30.0 * s2 * (s - 1.0) * (s - 1.0),
          60.0 * s * (2.0 * s - 1.0) * (s - 1.0)};
}

Scalar2 BlendWeight(double r, double d1, double d2) {
  const double w = 1.0 / (d2 - d1);
  const Scalar2 step = QuinticStep((r - d1) * w);
  return {step.value, step.first * w, step.second * w * w};
}

Mat3 RadialHessianBlock(const Scalar2& h, const Vec3& u, double r) {
  const Mat3 uu = u * u.transpose();
  return h.second * uu + (h.first / r) * (Mat3::Identity() - uu);
}

RadialDerivatives LiftRadial(const Scalar2& h, const Vec3& x_I, const Vec3& x_J) {
  const Vec3 diff = x_I - x_J;
  const double r = diff.norm();
  const Vec3 u = diff / r;
  const Mat3 k = RadialHessianBlock(h, u, r);
  RadialDerivatives out;
  out.value = h.value;
  out.gradient << h.first * u, -h.first * u;
  out.hessian << k, -k, -k, k;
  return out;
}

RadialDerivatives CenteredPairPotential(const Vec3& x_I, const Vec3& x_J) {
  return LiftRadial(CenteredPotential((x_I - x_J).norm()), x_I, x_J);
}

}  // namespace arena::longrange
