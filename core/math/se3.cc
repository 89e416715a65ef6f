#include "core/math/se3.h"

#include <cmath>

#include "core/math/so3.h"

namespace arena {

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
