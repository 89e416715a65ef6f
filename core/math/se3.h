// Rigid transforms SE(3) and their action on points and spatial vectors.
#pragma once

#include "core/math/types.h"

namespace arena {

namespace se3_kernels {
// Scalar kernels of the spatial operations below, on raw coefficients (Eigen's column-major
// storage: R(r, c) = R[r + 3 c]). These are the inner loops of the multibody algorithms, called
// dozens of times per body; through Eigen's expression templates GCC 12 at -O2 leaves the cross
// products and 3x3 products out of line, and the calls then cost as much as the arithmetic.
// Written out and forced inline, they compile to straight-line code in their callers.
// No output may alias an input.

/// out = a x b.
EIGEN_ALWAYS_INLINE void Cross(const double* a, const double* b, double* out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}
/// out += a x b.
EIGEN_ALWAYS_INLINE void CrossAdd(const double* a, const double* b, double* out) {
  out[0] += a[1] * b[2] - a[2] * b[1];
  out[1] += a[2] * b[0] - a[0] * b[2];
  out[2] += a[0] * b[1] - a[1] * b[0];
}
/// out = R x.
EIGEN_ALWAYS_INLINE void Rotate(const double* R, const double* x, double* out) {
  out[0] = R[0] * x[0] + R[3] * x[1] + R[6] * x[2];
  out[1] = R[1] * x[0] + R[4] * x[1] + R[7] * x[2];
  out[2] = R[2] * x[0] + R[5] * x[1] + R[8] * x[2];
}
/// out = R^T x.
EIGEN_ALWAYS_INLINE void RotateInv(const double* R, const double* x, double* out) {
  out[0] = R[0] * x[0] + R[1] * x[1] + R[2] * x[2];
  out[1] = R[3] * x[0] + R[4] * x[1] + R[5] * x[2];
  out[2] = R[6] * x[0] + R[7] * x[1] + R[8] * x[2];
}
/// out = A B (3x3): column c of the product is A times column c of B.
EIGEN_ALWAYS_INLINE void Compose(const double* A, const double* B, double* out) {
  Rotate(A, B, out);
  Rotate(A, B + 3, out + 3);
  Rotate(A, B + 6, out + 6);
}

}  // namespace se3_kernels

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
  EIGEN_ALWAYS_INLINE SE3 operator*(const SE3& X_BC) const {
    SE3 out(Uninitialized{});
    se3_kernels::Compose(R_.data(), X_BC.R_.data(), out.R_.data());
    se3_kernels::Rotate(R_.data(), X_BC.p_.data(), out.p_.data());
    out.p_ += p_;
    return out;
  }
  /// *this = X_AB * X_BC, written in place: the multibody forward passes compose poses straight
  /// into their storage (a temporary stored by scalars and copied by packets stalls on store
  /// forwarding). Neither argument may be *this.
  EIGEN_ALWAYS_INLINE void SetProduct(const SE3& X_AB, const SE3& X_BC) {
    se3_kernels::Compose(X_AB.R_.data(), X_BC.R_.data(), R_.data());
    se3_kernels::Rotate(X_AB.R_.data(), X_BC.p_.data(), p_.data());
    p_[0] += X_AB.p_[0];
    p_[1] += X_AB.p_[1];
    p_[2] += X_AB.p_[2];
  }
  SE3 Inverse() const { return SE3(R_.transpose(), -(R_.transpose() * p_)); }

  /// p_A = X_AB * p_B.
  Vec3 Act(const Vec3& p_B) const { return R_ * p_B + p_; }
  Vec3 ActInv(const Vec3& p_A) const { return R_.transpose() * (p_A - p_); }

  /// Motion in B to motion in A: [w; v] -> [R w; R v + p x R w].
  EIGEN_ALWAYS_INLINE Motion ActMotion(const Motion& m_B) const {
    Motion out;
    ActMotion(m_B.data(), out.data());
    return out;
  }
  /// ActMotion written to out[0..6) (e.g. a column of a matrix), which must not alias m_B.
  EIGEN_ALWAYS_INLINE void ActMotion(const double* m_B, double* out) const {
    using namespace se3_kernels;
    Rotate(R_.data(), m_B, out);
    Rotate(R_.data(), m_B + 3, out + 3);
    CrossAdd(p_.data(), out, out + 3);
  }
  EIGEN_ALWAYS_INLINE Motion ActInvMotion(const Motion& m_A) const {
    Motion out;
    ActInvMotion(m_A.data(), out.data());
    return out;
  }
  /// ActInvMotion written to out[0..6), which must not alias m_A.
  EIGEN_ALWAYS_INLINE void ActInvMotion(const double* m_A, double* out) const {
    using namespace se3_kernels;
    double v[3];
    Cross(m_A, p_.data(), v);  // v = v_A - p x w = v_A + w x p
    v[0] += m_A[3];
    v[1] += m_A[4];
    v[2] += m_A[5];
    RotateInv(R_.data(), m_A, out);
    RotateInv(R_.data(), v, out + 3);
  }
  /// Force in B to force in A: [n; f] -> [R n + p x R f; R f].
  EIGEN_ALWAYS_INLINE Force ActForce(const Force& f_B) const {
    using namespace se3_kernels;
    Force out;
    Rotate(R_.data(), f_B.data() + 3, out.data() + 3);
    Rotate(R_.data(), f_B.data(), out.data());
    CrossAdd(p_.data(), out.data() + 3, out.data());
    return out;
  }
  /// out[0..6) += ActForce(f_B); out must not alias f_B.
  EIGEN_ALWAYS_INLINE void AddActForce(const double* f_B, double* out) const {
    using namespace se3_kernels;
    double f[3], n[3];
    Rotate(R_.data(), f_B + 3, f);
    Rotate(R_.data(), f_B, n);
    CrossAdd(p_.data(), f, n);
#pragma GCC unroll 3
    for (int k = 0; k < 3; ++k) {
      out[k] += n[k];
      out[3 + k] += f[k];
    }
  }
  EIGEN_ALWAYS_INLINE Force ActInvForce(const Force& f_A) const {
    using namespace se3_kernels;
    double n[3];
    Cross(f_A.data() + 3, p_.data(), n);  // n = n_A - p x f = n_A + f x p
    n[0] += f_A[0];
    n[1] += f_A[1];
    n[2] += f_A[2];
    Force out;
    RotateInv(R_.data(), n, out.data());
    RotateInv(R_.data(), f_A.data() + 3, out.data() + 3);
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
  struct Uninitialized {};
  explicit SE3(Uninitialized) {}

  Mat3 R_;
  Vec3 p_;
};

/// Exponential of a twist [omega; v] (screw motion for unit time), and its inverse.
SE3 ExpSE3(const Motion& twist);
Motion LogSE3(const SE3& X);

/// Motion cross product m1 x m2 (Featherstone crm): the rate of m2 seen from a frame moving with m1.
EIGEN_ALWAYS_INLINE Motion CrossMotion(const Motion& m1, const Motion& m2) {
  using namespace se3_kernels;
  Motion out;
  Cross(m1.data(), m2.data(), out.data());
  Cross(m1.data(), m2.data() + 3, out.data() + 3);
  CrossAdd(m1.data() + 3, m2.data(), out.data() + 3);
  return out;
}
/// Force cross product m x* f (Featherstone crf).
EIGEN_ALWAYS_INLINE Force CrossForce(const Motion& m, const Force& f) {
  using namespace se3_kernels;
  Force out;
  Cross(m.data(), f.data(), out.data());
  CrossAdd(m.data() + 3, f.data() + 3, out.data());
  Cross(m.data(), f.data() + 3, out.data() + 3);
  return out;
}
/// Matrices of the two cross products, crm(m) and crf(m) = -crm(m)^T.
Mat6 CrossMotionMatrix(const Motion& m);
Mat6 CrossForceMatrix(const Motion& m);

}  // namespace arena
