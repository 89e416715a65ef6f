#include "core/math/se3.h"

#include <cmath>

#include "core/math/so3.h"

namespace arena {

Motion SE3::ActMotion(const Motion& m) const {
  const Vec3 w = R_ * Angular(m);
  return MakeMotion(w, R_ * Linear(m) + p_.cross(w));
}

Motion SE3::ActInvMotion(const Motion& m) const {
  const Vec3 w = Angular(m);
  return MakeMotion(R_.transpose() * w, R_.transpose() * (Linear(m) - p_.cross(w)));
}

Force SE3::ActForce(const Force& f) const {
  const Vec3 lin = R_ * Linear(f);
  return MakeForce(R_ * Angular(f) + p_.cross(lin), lin);
}

Force SE3::ActInvForce(const Force& f) const {
  const Vec3 lin = Linear(f);
  return MakeForce(R_.transpose() * (Angular(f) - p_.cross(lin)), R_.transpose() * lin);
}

Mat6 SE3::MotionMatrix() const {
  Mat6 X = Mat6::Zero();
  X.topLeftCorner<3, 3>() = R_;
  X.bottomRightCorner<3, 3>() = R_;
  X.bottomLeftCorner<3, 3>() = Skew(p_) * R_;
  return X;
}

SE3 ExpSE3(const Motion& twist) {
  const Vec3 w = Angular(twist);
  const Vec3 v = Linear(twist);
  // p = V(w) v with V = R * Jr(w) = Jl(w), the left Jacobian of SO(3).
  const Mat3 R = ExpSO3(w);
  const Mat3 V = R * RightJacobianSO3(w);
  return SE3(R, V * v);
}

Motion LogSE3(const SE3& X) {
  const Vec3 w = LogSO3(X.rotation());
  // Inverse of the left Jacobian: Jl^-1(w) = Jr^-1(-w).
  const Vec3 v = RightJacobianInverseSO3(-w) * X.translation();
  return MakeMotion(w, v);
}

Motion CrossMotion(const Motion& m1, const Motion& m2) {
  const Vec3 w1 = Angular(m1), v1 = Linear(m1);
  const Vec3 w2 = Angular(m2), v2 = Linear(m2);
  return MakeMotion(w1.cross(w2), w1.cross(v2) + v1.cross(w2));
}

Force CrossForce(const Motion& m, const Force& f) {
  const Vec3 w = Angular(m), v = Linear(m);
  const Vec3 n = Angular(f), lin = Linear(f);
  return MakeForce(w.cross(n) + v.cross(lin), w.cross(lin));
}

Mat6 CrossMotionMatrix(const Motion& m) {
  Mat6 C = Mat6::Zero();
  const Mat3 W = Skew(Angular(m));
  C.topLeftCorner<3, 3>() = W;
  C.bottomRightCorner<3, 3>() = W;
  C.bottomLeftCorner<3, 3>() = Skew(Linear(m));
  return C;
}

Mat6 CrossForceMatrix(const Motion& m) { return -CrossMotionMatrix(m).transpose(); }

}  // namespace arena
