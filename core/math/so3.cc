#include "core/math/so3.h"

#include <cmath>

namespace arena {
namespace {
// Below this angle the closed forms lose precision; their Taylor series take over.
constexpr double kSmallAngle = 1e-4;
}  // namespace

Mat3 Skew(const Vec3& a) {
  Mat3 S;
  S << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
  return S;
}

Mat3 ExpSO3(const Vec3& w) {
  const double t2 = w.squaredNorm();
  const double t = std::sqrt(t2);
  double a, b;  // R = I + a [w] + b [w]^2
  if (t < kSmallAngle) {
    a = 1.0 - t2 / 6.0;
    b = 0.5 - t2 / 24.0;
  } else {
    a = std::sin(t) / t;
    b = (1.0 - std::cos(t)) / t2;
  }
  const Mat3 W = Skew(w);
  return Mat3::Identity() + a * W + b * W * W;
}

Vec3 LogSO3(const Mat3& R) {
  // Through the quaternion: robust for every angle including pi.
  return QuatLog(Quat(R));
}

Mat3 RightJacobianSO3(const Vec3& w) {
  const double t2 = w.squaredNorm();
  const double t = std::sqrt(t2);
  double a, b;  // Jr = I - a [w] + b [w]^2
  if (t < kSmallAngle) {
    a = 0.5 - t2 / 24.0;
    b = 1.0 / 6.0 - t2 / 120.0;
  } else {
    const double h = std::sin(0.5 * t);
    a = 2.0 * h * h / t2;  // (1 - cos t) / t^2 without cancellation
    b = (t - std::sin(t)) / (t2 * t);
  }
  const Mat3 W = Skew(w);
  return Mat3::Identity() - a * W + b * W * W;
}

Mat3 RightJacobianInverseSO3(const Vec3& w) {
  const double t2 = w.squaredNorm();
  const double t = std::sqrt(t2);
  double b;  // Jr^-1 = I + 1/2 [w] + b [w]^2
  if (t < kSmallAngle) {
    b = 1.0 / 12.0 + t2 / 720.0;
  } else {
    // (1 + cos t) / (2 t sin t) = cot(t/2) / (2t): accurate up to t = pi.
    b = 1.0 / t2 - 1.0 / (2.0 * t * std::tan(0.5 * t));
  }
  const Mat3 W = Skew(w);
  return Mat3::Identity() + 0.5 * W + b * W * W;
}

Quat QuatExp(const Vec3& w) {
  const double t = w.norm();
  const double h = 0.5 * t;
  const double s = t < kSmallAngle ? 0.5 - t * t / 48.0 : std::sin(h) / t;
  return Quat(std::cos(h), s * w.x(), s * w.y(), s * w.z());
}

Vec3 QuatLog(const Quat& q_in) {
  // Pick the hemisphere with w >= 0 so the angle is in [0, pi].
  Quat q = q_in.w() < 0.0 ? Quat(-q_in.w(), -q_in.x(), -q_in.y(), -q_in.z()) : q_in;
  const Vec3 u = q.vec();
  const double s = u.norm();
  const double angle = 2.0 * std::atan2(s, q.w());
  if (s < 1e-12) return 2.0 * u / q.w();  // first order; w ~ 1 here
  return angle / s * u;
}

}  // namespace arena
