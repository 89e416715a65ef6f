// Internal kernels of the multibody algorithms: joint transforms (joint.h table), joint
// velocity maps, and spatial-algebra products on fixed-size types. Not part of the public API.
#pragma once

#include <cmath>
#include <string>

#include "core/common/error.h"
#include "core/math/so3.h"
#include "core/multibody/data.h"

namespace arena::internal {

/// Rotation by `angle` about the unit axis `a` (Rodrigues): c I + s [a] + (1 - c) a a^T.
inline Mat3 AxisAngleRotation(const Vec3& a, double angle) {
  const double c = std::cos(angle), s = std::sin(angle), t = 1.0 - c;
  Mat3 R;
  R << c + t * a.x() * a.x(), t * a.x() * a.y() - s * a.z(), t * a.x() * a.z() + s * a.y(),
      t * a.x() * a.y() + s * a.z(), c + t * a.y() * a.y(), t * a.y() * a.z() - s * a.x(),
      t * a.x() * a.z() - s * a.y(), t * a.y() * a.z() + s * a.x(), c + t * a.z() * a.z();
  return R;
}

/// Rotation about z by theta.
inline Mat3 RotZ(double theta) {
  const double c = std::cos(theta), s = std::sin(theta);
  Mat3 R;
  R << c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0;
  return R;
}

/// Unit quaternion stored (w, x, y, z) at q[0..3].
inline Quat QuatFrom(const double* q) { return Quat(q[0], q[1], q[2], q[3]).normalized(); }

/// X_J(q): pose of the child frame in the joint frame (joint.h table).
inline SE3 JointTransform(const JointModel& joint, const double* q) {
  switch (joint.type) {
    case JointType::kFixed: return SE3();
    case JointType::kRevolute: return SE3(AxisAngleRotation(joint.axis, q[0]), Vec3::Zero());
    case JointType::kPrismatic: return SE3(Mat3::Identity(), joint.axis * q[0]);
    case JointType::kBall: return SE3(QuatFrom(q).toRotationMatrix(), Vec3::Zero());
    case JointType::kPlanar: return SE3(RotZ(q[2]), Vec3(q[0], q[1], 0.0));
    case JointType::kFree: return SE3(QuatFrom(q + 3).toRotationMatrix(), Vec3(q[0], q[1], q[2]));
  }
  return SE3();
}

/// Index k of the coordinate axis the unit `axis` lies along (+-e_k), or -1 for another axis.
inline int CoordinateAxis(const Vec3& axis) {
  if (axis.y() == 0.0 && axis.z() == 0.0) return 0;
  if (axis.x() == 0.0 && axis.z() == 0.0) return 1;
  if (axis.x() == 0.0 && axis.y() == 0.0) return 2;
  return -1;
}

/// out = R_PJ * Rot(axis, angle) for a revolute joint. About a coordinate axis e_k the rotation
/// only turns columns i = k+1 and j = k+2 (mod 3) of R_PJ into each other: 12 flops instead of
/// Rodrigues' matrix and a 3x3 product (45 multiplications); most robot joints (every Atlas
/// joint but two) turn about a coordinate axis of their frame.
EIGEN_ALWAYS_INLINE void RevoluteRotation(const Mat3& R_PJ, const Vec3& axis, double angle,
                                          Mat3& out) {
  const int k = CoordinateAxis(axis);
  if (k < 0) {
    out.noalias() = R_PJ * AxisAngleRotation(axis, angle);
    return;
  }
  const double c = std::cos(angle), s = std::copysign(1.0, axis[k]) * std::sin(angle);
  const double* P = R_PJ.data();  // column-major: column c starts at P + 3 c
  double* R = out.data();
  const int i = 3 * ((k + 1) % 3), j = 3 * ((k + 2) % 3);
  for (int r = 0; r < 3; ++r) {
    R[3 * k + r] = P[3 * k + r];
    R[i + r] = c * P[i + r] + s * P[j + r];
    R[j + r] = c * P[j + r] - s * P[i + r];
  }
}

/// out = X_PB(q) = X_PJ * X_J(q), without the products that are known to be trivial.
EIGEN_ALWAYS_INLINE void SetParentToChild(const BodyModel& body, const VecX& q, SE3& out) {
  const JointModel& joint = body.joint;
  const SE3& P = joint.placement;
  const double* qi = q.data() + body.idx_q;
  switch (joint.type) {
    case JointType::kFixed: out = P; return;
    case JointType::kRevolute:
      RevoluteRotation(P.rotation(), joint.axis, qi[0], out.rotation());
      out.translation() = P.translation();
      return;
    case JointType::kPrismatic:
      out.rotation() = P.rotation();
      out.translation().noalias() = P.rotation() * (joint.axis * qi[0]);
      out.translation() += P.translation();
      return;
    default: out = P * JointTransform(joint, qi); return;
  }
}

/// X_PB(q) = X_PJ * X_J(q).
inline SE3 ParentToChild(const BodyModel& body, const VecX& q) {
  SE3 out;
  SetParentToChild(body, q, out);
  return out;
}

/// 6x6 matrix of a body inertia given in B, expressed in A (X = X_AB; Featherstone eq. 2.63):
/// [I_c' + m (|c|^2 1 - c c^T), m [c]; m [c]^T, m 1] with c = X c_B, I_c' = R I_c R^T.
/// Written on scalars: the upper-left block is symmetric, so only 6 of its 9 entries are
/// computed (R I_c R^T alone is half the cost of the whole function).
/// Written into `out` (no 6x6 temporary to copy).
EIGEN_ALWAYS_INLINE void InertiaMatrixIn(const SE3& X, const SpatialInertia& I, Mat6& out) {
  const double m = I.mass();
  const Mat3& R = X.rotation();
  double c[3], A[9];  // c = R c_B + p; A = R I_c (column-major)
  se3_kernels::Rotate(R.data(), I.com().data(), c);
  c[0] += X.translation()[0];
  c[1] += X.translation()[1];
  c[2] += X.translation()[2];
  se3_kernels::Compose(R.data(), I.inertia_com().data(), A);
  // Rows r of A dotted with rows k of R give (R I_c R^T)(r, k).
  auto rot = [&](int r, int k) {
    return A[r] * R(k, 0) + A[r + 3] * R(k, 1) + A[r + 6] * R(k, 2);
  };
  const double mx = m * c[0], my = m * c[1], mz = m * c[2];
  const double xx = mx * c[0], yy = my * c[1], zz = mz * c[2];
  const double xy = mx * c[1], xz = mx * c[2], yz = my * c[2];
  out(0, 0) = rot(0, 0) + yy + zz;
  out(1, 1) = rot(1, 1) + xx + zz;
  out(2, 2) = rot(2, 2) + xx + yy;
  out(0, 1) = out(1, 0) = rot(0, 1) - xy;
  out(0, 2) = out(2, 0) = rot(0, 2) - xz;
  out(1, 2) = out(2, 1) = rot(1, 2) - yz;
  // Off-diagonal blocks m [c] and m [c]^T, lower-right m 1, entry by entry: through a Mat3
  // temporary and its comma initializer they were a tenth of Aba, and GCC at -O2 does not
  // unroll loops over the blocks.
  const auto both = [&out](int r, int k, double x) { out(r, k) = out(k, r) = x; };
  both(0, 3, 0.0);
  both(0, 4, -mz);
  both(0, 5, my);
  both(1, 3, mz);
  both(1, 4, 0.0);
  both(1, 5, -mx);
  both(2, 3, -my);
  both(2, 4, mx);
  both(2, 5, 0.0);
  both(3, 3, m);
  both(4, 4, m);
  both(5, 5, m);
  both(3, 4, 0.0);
  both(3, 5, 0.0);
  both(4, 5, 0.0);
}

/// Y m for a rigid-body inertia matrix Y as InertiaMatrixIn writes it, [A, m [c]; m [c]^T, m 1]
/// (A symmetric), on its blocks: for m = [w; u], [A w + mc x u; m u + w x mc] with mc = m c,
/// 24 multiplications instead of the 36 of a 6x6 product.
EIGEN_ALWAYS_INLINE Force RigidInertiaTimes(const Mat6& Y, const Motion& m_in) {
  const double* y = Y.data();  // column-major: Y(r, k) = y[r + 6 k]
  const double* w = m_in.data();
  const double* u = m_in.data() + 3;
  const double mc[3] = {y[2 + 24], y[0 + 30], y[1 + 18]};  // Y(2, 4), Y(0, 5), Y(1, 3)
  const double m = y[3 + 18];                               // Y(3, 3)
  Force out;
  out[0] = y[0] * w[0] + y[6] * w[1] + y[12] * w[2];
  out[1] = y[1] * w[0] + y[7] * w[1] + y[13] * w[2];
  out[2] = y[2] * w[0] + y[8] * w[1] + y[14] * w[2];
  se3_kernels::CrossAdd(mc, u, out.data());
  out[3] = m * u[0];
  out[4] = m * u[1];
  out[5] = m * u[2];
  se3_kernels::CrossAdd(w, mc, out.data() + 3);
  return out;
}

inline Mat6 InertiaMatrixIn(const SE3& X, const SpatialInertia& I) {
  Mat6 out;
  InertiaMatrixIn(X, I, out);
  return out;
}

/// Body i's pose in its tree frame, from the X_WB and tree_origin its algorithm's forward pass set.
inline SE3 InTreeFrame(const MultibodyData& data, int i) {
  return SE3(data.X_WB[i].rotation(), data.X_WB[i].translation() - data.tree_origin[i]);
}

/// Forward-kinematics step of the tree-frame algorithms (CRBA, ABA, RNEA derivatives): sets
/// X_PB[i], X_WB[i] and tree_origin[i], and returns body i's pose in its tree frame, world-
/// oriented with the origin at the tree root's world position. About the world origin, a
/// composite inertia's m |c|^2 terms grow with the robot's distance r from it and cancel in
/// S^T I S, losing ~r^2 / L^2 of precision (half_cheetah at 1 km: 1e-10 relative in M); about
/// the root they stay O(m L^2). Trees never exchange inertia, so each may have its own origin.
EIGEN_ALWAYS_INLINE SE3 TreeFramePose(const MultibodyModel& model, MultibodyData& data,
                                      const VecX& q, int i) {
  const BodyModel& body = model.body(i);
  const int p = body.parent;
  SetParentToChild(body, q, data.X_PB[i]);
  if (p == kWorldBody) {
    data.X_WB[i] = data.X_PB[i];
    data.tree_origin[i] = data.X_WB[i].translation();
  } else {
    data.X_WB[i].SetProduct(data.X_WB[p], data.X_PB[i]);
    data.tree_origin[i] = data.tree_origin[p];
  }
  return InTreeFrame(data, i);
}

/// Writes joint i's motion subspace in the tree frame, X S_i, into its columns of data.J
/// (X from TreeFramePose). A revolute joint's S is [axis; 0]: X S = [R axis; p x R axis].
EIGEN_ALWAYS_INLINE void SetTreeFrameSubspace(const BodyModel& body, MultibodyData& data,
                                              const SE3& X, int i) {
  double* col = data.J.data() + 6 * body.idx_v;
  if (body.joint.type == JointType::kRevolute) {
    se3_kernels::Rotate(X.rotation().data(), body.joint.axis.data(), col);
    se3_kernels::Cross(X.translation().data(), col, col + 3);
    return;
  }
  for (int k = 0; k < data.S[i].cols(); ++k) X.ActMotion(data.S[i].col(k).data(), col + 6 * k);
}

/// A world wrench [n_O; f] about the world origin, about `origin` instead: [n_O - origin x f; f].
inline Force ShiftForceTo(const Force& f_O, const Vec3& origin) {
  Force out = f_O;
  out.head<3>() -= origin.cross(f_O.tail<3>());
  return out;
}

/// Column k of a 6-row matrix as a fixed-size block (MatX columns would be dynamic-size).
inline auto Col6(const MatX& A, int k) { return A.template block<6, 1>(0, k); }
inline auto Col6(MatX& A, int k) { return A.template block<6, 1>(0, k); }

/// Column k of a motion subspace as a fixed-size vector.
inline Motion SubspaceColumn(const MotionSubspace& S, int k) {
  return S.template block<6, 1>(0, k);
}

/// S v: the joint's contribution to the child twist (child frame).
EIGEN_ALWAYS_INLINE Motion JointMotion(const JointModel& joint, const double* v) {
  Motion m = Motion::Zero();
  switch (joint.type) {
    case JointType::kFixed: break;
    case JointType::kRevolute: m.head<3>() = joint.axis * v[0]; break;
    case JointType::kPrismatic: m.tail<3>() = joint.axis * v[0]; break;
    case JointType::kBall: m.head<3>() = Eigen::Map<const Vec3>(v); break;
    case JointType::kPlanar:
      m[2] = v[0];
      m[3] = v[1];
      m[4] = v[2];
      break;
    case JointType::kFree: m = Eigen::Map<const Vec6>(v); break;
  }
  return m;
}

/// The joint's motion X S_i qd in the tree frame for joint rates qd (velocities or
/// accelerations), after SetTreeFrameSubspace: a revolute joint's is its column of data.J times
/// qd, any other's is transformed from the child frame.
EIGEN_ALWAYS_INLINE Motion TreeFrameJointMotion(const BodyModel& body, const MultibodyData& data,
                                                const SE3& X, const double* qd) {
  if (body.joint.type == JointType::kRevolute) return qd[0] * data.J.col(body.idx_v).head<6>();
  return X.ActMotion(JointMotion(body.joint, qd));
}

/// S^T f written into out[0..nv).
EIGEN_ALWAYS_INLINE void JointForce(const JointModel& joint, const Force& f, double* out) {
  switch (joint.type) {
    case JointType::kFixed: break;
    case JointType::kRevolute: out[0] = joint.axis.dot(f.head<3>()); break;
    case JointType::kPrismatic: out[0] = joint.axis.dot(f.tail<3>()); break;
    case JointType::kBall: Eigen::Map<Vec3>{out} = f.head<3>(); break;
    case JointType::kPlanar:
      out[0] = f[2];
      out[1] = f[3];
      out[2] = f[4];
      break;
    case JointType::kFree: Eigen::Map<Vec6>{out} = f; break;
  }
}

/// Motion subspace S (6 x nv) in the child frame. Constant for every joint of joint.h: each
/// velocity is expressed in the child frame, in which the joint's axes do not move.
inline MotionSubspace JointSubspace(const JointModel& joint) {
  MotionSubspace S = MotionSubspace::Zero(6, joint.nv());
  switch (joint.type) {
    case JointType::kFixed: break;
    case JointType::kRevolute: S.col(0).head<3>() = joint.axis; break;
    case JointType::kPrismatic: S.col(0).tail<3>() = joint.axis; break;
    case JointType::kBall: S.topRows<3>().setIdentity(); break;
    case JointType::kPlanar:
      S(2, 0) = 1.0;
      S(3, 1) = 1.0;
      S(4, 2) = 1.0;
      break;
    case JointType::kFree: S.setIdentity(); break;
  }
  return S;
}

/// B <- M^-1 B for a row-major B, with data.M_ltdl from FactorizeMassMatrix (crba.cc).
void SolveMassMatrixRows(const MultibodyData& data,
                         Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>& B);

inline void CheckSize(const VecX& x, int n, const char* what) {
  if (x.size() != n) {
    throw InvalidArgument(std::string(what) + " has size " + std::to_string(x.size()) +
                          ", expected " + std::to_string(n));
  }
}

inline void CheckExternalForces(const MultibodyModel& model, const std::vector<Force>* f_ext) {
  if (f_ext != nullptr && static_cast<int>(f_ext->size()) != model.num_bodies()) {
    throw InvalidArgument("f_ext has " + std::to_string(f_ext->size()) +
                          " wrenches, expected one per body (" +
                          std::to_string(model.num_bodies()) + ")");
  }
}

}  // namespace arena::internal
