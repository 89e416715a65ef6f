// Rigid transforms SE(3) and their action on points and spatial vectors.
#pragma once

#include "core/math/types.h"

namespace arena {

/// A rigid transform X_AB = (R_AB, p_AB): maps coordinates in B to coordinates in A.
class SE3 {
 public:
  SE3() : R_(Mat3::Identity()), p_(Vec3::Zero()) {}
  SE3(const Mat3& R, const Vec3& p) : R_(R), p_(p) {}
  static SE3 Identity() { return SE3(); }
  static SE3 FromTranslation(const Vec3& p) { return SE3(Mat3::Identity(), p); }
  static SE3 FromRotation(const Mat3& R) { return SE3(R, Vec3::Zero()); }

  const Mat3& rotation() const { return R_; }
  const Vec3& translation() const { return p_; }
  Mat3& rotation() { return R_; }
  Vec3& translation() { return p_; }

  /// X_AC = X_AB * X_BC.
  SE3 operator*(const SE3& X_BC) const {
    SE3 out;
    out.R_.noalias() = R_ * X_BC.R_;
    out.p_.noalias() = R_ * X_BC.p_;
    out.p_ += p_;
    return out;
  }
  SE3 Inverse() const { return SE3(R_.transpose(), -(R_.transpose() * p_)); }

  /// p_A = X_AB * p_B.
  Vec3 Act(const Vec3& p_B) const { return R_ * p_B + p_; }
  Vec3 ActInv(const Vec3& p_A) const { return R_.transpose() * (p_A - p_); }

  /// Motion in B to motion in A: [w; v] -> [R w; R v + p x R w].
  Motion ActMotion(const Motion& m_B) const {
    Motion out;
    out.head<3>().noalias() = R_ * m_B.head<3>();
    out.tail<3>().noalias() = R_ * m_B.tail<3>();
    out.tail<3>() += p_.cross(out.head<3>());
    return out;
  }
  Motion ActInvMotion(const Motion& m_A) const {
    Motion out;
    const Vec3 v = m_A.tail<3>() - p_.cross(m_A.head<3>());
    out.head<3>().noalias() = R_.transpose() * m_A.head<3>();
    out.tail<3>().noalias() = R_.transpose() * v;
    return out;
  }
  /// Force in B to force in A: [n; f] -> [R n + p x R f; R f].
  Force ActForce(const Force& f_B) const {
    Force out;
    out.tail<3>().noalias() = R_ * f_B.tail<3>();
    out.head<3>().noalias() = R_ * f_B.head<3>();
    out.head<3>() += p_.cross(out.tail<3>());
    return out;
  }
  Force ActInvForce(const Force& f_A) const {
    Force out;
    const Vec3 n = f_A.head<3>() - p_.cross(f_A.tail<3>());
    out.head<3>().noalias() = R_.transpose() * n;
    out.tail<3>().noalias() = R_.transpose() * f_A.tail<3>();
    return out;
  }

  /// 6x6 matrix of ActMotion (the adjoint). Its inverse-transpose acts on forces.
  Mat6 MotionMatrix() const;

  /// Entry-wise |difference| <= tol * (1 + |entry|): absolute near zero, relative above one.
  bool IsApprox(const SE3& other, double tol = 1e-12) const {
    const auto close = [tol](const auto& a, const auto& b) {
      return ((a - b).array().abs() <= tol * (1.0 + b.array().abs())).all();
    };
    return close(R_, other.R_) && close(p_, other.p_);
  }

 private:
  Mat3 R_;
  Vec3 p_;
};

/// Exponential of a twist [omega; v] (screw motion for unit time), and its inverse.
SE3 ExpSE3(const Motion& twist);
Motion LogSE3(const SE3& X);

/// Motion cross product m1 x m2 (Featherstone crm): the rate of m2 seen from a frame moving with m1.
inline Motion CrossMotion(const Motion& m1, const Motion& m2) {
  Motion out;
  out.head<3>() = m1.head<3>().cross(m2.head<3>());
  out.tail<3>() = m1.head<3>().cross(m2.tail<3>()) + m1.tail<3>().cross(m2.head<3>());
  return out;
}
/// Force cross product m x* f (Featherstone crf).
inline Force CrossForce(const Motion& m, const Force& f) {
  Force out;
  out.head<3>() = m.head<3>().cross(f.head<3>()) + m.tail<3>().cross(f.tail<3>());
  out.tail<3>() = m.head<3>().cross(f.tail<3>());
  return out;
}
/// Matrices of the two cross products, crm(m) and crf(m) = -crm(m)^T.
Mat6 CrossMotionMatrix(const Motion& m);
Mat6 CrossForceMatrix(const Motion& m);

}  // namespace arena
