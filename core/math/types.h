// Fixed-size Eigen types and the conventions every part of ContactArena shares.
//
// Conventions (stated once here, used everywhere):
//   - Units are SI. Frames are right-handed; 3D scenes are z-up unless a scene says otherwise
//     (a scene's gravity vector is explicit).
//   - Quaternions are stored (w, x, y, z) in configuration vectors.
//   - Spatial vectors are Featherstone-ordered: a motion (twist) is [omega; v], a force
//     (wrench) is [n; f]. Both are expressed in a frame named by the variable (X_AB maps B to A).
//   - Monogram names: p_WB is the position of B's origin in W, R_WB the orientation of B in W,
//     X_WB the pose of B in W, V_WB the spatial velocity of B measured and expressed in W.
#pragma once

#include <limits>

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace arena {

using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;
using Vec4 = Eigen::Vector4d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat2 = Eigen::Matrix2d;
using Mat3 = Eigen::Matrix3d;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Mat36 = Eigen::Matrix<double, 3, 6>;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;
using Quat = Eigen::Quaterniond;

inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// Spatial motion vector (twist) [omega; v].
using Motion = Vec6;
/// Spatial force vector (wrench) [n; f].
using Force = Vec6;

inline auto Angular(Vec6& m) { return m.head<3>(); }
inline auto Linear(Vec6& m) { return m.tail<3>(); }
inline auto Angular(const Vec6& m) { return m.head<3>(); }
inline auto Linear(const Vec6& m) { return m.tail<3>(); }

inline Vec6 MakeMotion(const Vec3& omega, const Vec3& v) {
  Vec6 m;
  m.head<3>() = omega;
  m.tail<3>() = v;
  return m;
}
inline Vec6 MakeForce(const Vec3& n, const Vec3& f) {
  Vec6 w;
  w.head<3>() = n;
  w.tail<3>() = f;
  return w;
}

}  // namespace arena
