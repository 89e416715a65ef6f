// SCM's point-plane contact law (seed 001 Sec. III-D, eqs. 14-20), for any scalar type (double
// for stepping, forward-mode AutoDiff for the step derivatives).
//
// A point p moving at v relative to the plane (p_i, n_i) feels
//   phi = n_i^T (p - p_i),  c(phi) = k s+_eps3(-phi)           (a softplus spring, eq. 15)
//   lambda_n = c(phi) d(v_n / v_d)                              (eq. 17)
//   lambda_t = -mu lambda_n v_t / sqrt(v_s^2 + |v_t|^2)         (eq. 18)
// with the damping shape d(s) = 1 - s (s <= 0), (s - 2)^2 / 4 (0 < s <= 2), 0 (s > 2): C1 but
// not C2 (its second derivative jumps at s = 0 and s = 2). DampingShape::kC2 replaces the middle
// piece by the quintic 1 - 2t + 2t^3 - t^4 (t = s / 2), which matches value, slope and curvature
// at both ends, for users who need a twice differentiable step.
#pragma once

#include <algorithm>
#include <cmath>

#include <Eigen/Core>

#include "models/point_contact/kernel_geometry.h"

namespace arena::scm {

using contact::V3;
using contact::Val;

enum class DampingShape { kC1, kC2 };

struct ContactLaw {
  double stiffness = 0.0;             // k, N/m
  double softplus_width = 0.0;        // eps3, m
  double dissipation_velocity = 0.0;  // v_d, m/s
  double stiction_velocity = 0.0;     // v_s, m/s
  double friction = 0.0;              // mu
  DampingShape damping_shape = DampingShape::kC1;
};

/// eps log(1 + exp(x / eps)) without overflow: max(x, 0) + eps log(1 + exp(-|x| / eps)).
template <class T>
T Softplus(const T& x, double eps) {
  using std::exp;
  using std::log;
  const T ax = Val(x) >= 0.0 ? x : T(-x);
  const T pos = Val(x) >= 0.0 ? x : T(0.0 * x);
  return pos + T(eps) * log(T(1.0) + exp(-ax / T(eps)));
}

/// d(s) of eq. 17 (or its C2 variant).
template <class T>
T DampingFactor(const T& s, DampingShape shape) {
  if (Val(s) <= 0.0) return T(1.0) - s;
  if (Val(s) >= 2.0) return T(0.0 * s);
  if (shape == DampingShape::kC1) return (s - T(2.0)) * (s - T(2.0)) / T(4.0);
  const T t = s / T(2.0);
  return T(1.0) + t * (T(-2.0) + t * t * (T(2.0) - t));
}

/// The plane distance beyond which every point-plane force of the law, at relative speeds up to
/// `speed`, is below e^-cutoff of k eps3 (the spring's scale: k eps3 ln 2 at contact). From eqs.
/// 15-18: s+_eps3(-phi) <= eps3 e^(-phi / eps3), d(s) <= 1 + |v_n| / v_d and |lambda| <= (1 + mu)
/// |lambda_n|, so phi >= eps3 (cutoff + ln((1 + speed / v_d)(1 + mu))) suffices.
inline double SpringReach(const ContactLaw& law, double cutoff, double speed) {
  return law.softplus_width *
         (cutoff + std::log((1.0 + speed / law.dissipation_velocity) * (1.0 + std::abs(law.friction))));
}

/// The force the plane (p_i, n_i) exerts on the point p whose velocity relative to the plane's
/// body at p is v_rel (eq. 20: lambda = lambda_n n_i + lambda_t).
template <class T>
V3<T> PointPlaneForce(const ContactLaw& law, const V3<T>& p, const V3<T>& v_rel, const V3<T>& p_i,
                      const V3<T>& n_i) {
  using std::sqrt;
  const T phi = n_i.dot(p - p_i);
  const T spring = T(law.stiffness) * Softplus<T>(-phi, law.softplus_width);
  const T vn = n_i.dot(v_rel);
  const T lambda_n = spring * DampingFactor<T>(vn / T(law.dissipation_velocity), law.damping_shape);
  const V3<T> vt = v_rel - vn * n_i;
  const T slip = sqrt(T(law.stiction_velocity * law.stiction_velocity) + vt.squaredNorm());
  return lambda_n * n_i - (T(law.friction) * lambda_n / slip) * vt;
}

}  // namespace arena::scm
