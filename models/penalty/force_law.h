// The penalty model's contact force law, for any scalar type (double for stepping, AutoDiff for
// its step derivatives), on the contact points of models/point_contact/contact_kernels.h.
#pragma once

#include <cmath>

#include <Eigen/Core>

#include "models/point_contact/contact_kernels.h"

namespace arena::penalty {

using contact::ContactPointT;
using contact::V3;
using contact::Val;

/// Spring-damper normal force with regularised Coulomb friction (force on B, world frame):
///   f_n = max(0, -k phi - c dphi/dt),  f_t = -mu f_n v_t / sqrt(|v_t|^2 + v_s^2),
/// with the relative velocity of B w.r.t. A at the contact point from the bodies' world twists
/// [omega; v] (about the world origin).
struct ForceLaw {
  double stiffness = 0.0;        // k, N/m
  double damping = 0.0;          // c, N s/m
  double friction = 0.0;         // mu
  double friction_velocity = 0.0;  // v_s, m/s
};

template <class T>
V3<T> ContactForce(const ForceLaw& law, const ContactPointT<T>& c,
                   const Eigen::Matrix<T, 6, 1>& VA, const Eigen::Matrix<T, 6, 1>& VB) {
  const V3<T> vA = VA.template tail<3>() + VA.template head<3>().cross(c.p_W);
  const V3<T> vB = VB.template tail<3>() + VB.template head<3>().cross(c.p_W);
  const V3<T> v_rel = vB - vA;
  const T phi_dot = c.n_W.dot(v_rel);
  T fn = T(-law.stiffness) * c.phi - T(law.damping) * phi_dot;
  if (Val(fn) <= 0.0) return V3<T>::Zero();
  using std::sqrt;
  const V3<T> vt = v_rel - phi_dot * c.n_W;
  const T scale = sqrt(vt.squaredNorm() + T(law.friction_velocity * law.friction_velocity));
  return fn * c.n_W - (T(law.friction) * fn / scale) * vt;
}

}  // namespace arena::penalty
