// Spatial (3D) shapes as alpha-scaled constraints g(p, alpha, aux) >= 0 (seed 000, Silico
// Sec. IV-A, App. B), the 3D counterpart of planar_shape.h: the shape scaled by alpha >= 0 about
// its reference point (the shape frame's origin, strictly inside) is
// { p : g(p, alpha, aux) >= 0 for some aux }.
//
// Primitives, p in the shape frame S:
//   polytope   A p <= alpha b                           g = alpha b - A p            (m rows)
//              (Box: its 6 faces; ConvexHull: face_normals / face_offsets, re-centred on the
//               hull's interior point when the origin is not strictly inside)
//   padded     A (p - e) <= alpha b, |e| <= alpha r    g = (alpha b - A (p - e),   (m + 1 rows,
//   polytope   (polytope (+) ball of radius r,               alpha^2 r^2 - |e|^2)   aux e (3))
//              App. B eq. 46; a ConvexHull with a padding radius)
//   sphere     |p| <= alpha r                           g = alpha^2 r^2 - |p|^2      (1 row)
//   ellipsoid  |diag(1/radii) p| <= alpha               g = alpha^2 - |diag(1/radii) p|^2
//   capsule    |p - e z| <= alpha r, |e| <= alpha l     g = (alpha^2 r^2 - |p - e z|^2,
//              (aux e, axis z, half-length l)                alpha l - e, alpha l + e)
//   cylinder   p_x^2 + p_y^2 <= alpha^2 r^2, |p_z| <= alpha l
//                                                        g = (alpha^2 r^2 - p_x^2 - p_y^2,
//                                                             alpha l - p_z, alpha l + p_z)
//   cone       apex at +3h/4, base radius R at -h/4 (the centroid is the origin). With
//              a = (3h/4) alpha - p_z (height below the scaled apex), k = R / h:
//                                                        g = (a^2 k^2 - p_x^2 - p_y^2, a,
//                                                             p_z + (h/4) alpha)
//              (the second-order cone |p_xy| <= k a written squared, plus a >= 0 so that the
//               mirrored nappe above the apex is excluded)
//   half-space z <= 0 in the world (not scaled: the environment's floor)  g = -p_z
// General 3D Minkowski sums (eq. 25) are not implemented; the padded polytope is the one the
// paper's 3D primitives need. As in the planar code, round constraints use squared norms
// (nonnegative orthant only) but scale linearly in alpha.
#pragma once

#include <string>

#include "core/geometry/shape.h"
#include "core/math/types.h"

namespace arena::silico {

template <class T> using V3 = Eigen::Matrix<T, 3, 1>;

struct SpatialShape {
  enum class Kind { kPolytope, kPaddedPolytope, kSphere, kEllipsoid, kCapsule, kCylinder, kCone, kHalfSpace };
  Kind kind = Kind::kPolytope;
  Eigen::Matrix<double, Eigen::Dynamic, 3> A;  // polytope faces (rows need not be unit)
  VecX b;                                      // polytope offsets (> 0)
  double radius = 0.0;                         // sphere, capsule, cylinder, cone (base), padding
  double half_length = 0.0;                    // capsule, cylinder
  double height = 0.0;                         // cone
  Vec3 inv_radii = Vec3::Ones();               // ellipsoid: 1 / radii

  int num_rows() const { return rows_; }
  int num_aux() const { return aux_; }
  bool scaled() const { return kind != Kind::kHalfSpace; }

  static SpatialShape Polytope(const Eigen::Matrix<double, Eigen::Dynamic, 3>& A, const VecX& b);
  static SpatialShape PaddedPolytope(const Eigen::Matrix<double, Eigen::Dynamic, 3>& A, const VecX& b,
                                     double radius);
  static SpatialShape BoxShape(const Vec3& half_extents);
  static SpatialShape SphereShape(double radius);
  static SpatialShape EllipsoidShape(const Vec3& radii);
  static SpatialShape CapsuleShape(double radius, double half_length);
  static SpatialShape CylinderShape(double radius, double half_length);
  static SpatialShape ConeShape(double radius, double height);
  static SpatialShape HalfSpaceShape();

 private:
  void CacheSizes();
  int rows_ = 0, aux_ = 0;
};

/// The silico constraint of a scene shape and the offset of its reference point in the shape
/// frame (non-zero only for a convex hull whose frame origin is not strictly inside; the
/// caller shifts the placement by it). Throws Unsupported for meshes and 2D shapes.
SpatialShape FromShape3(const Shape& shape, Vec3* reference_offset);

/// Constraint values and partial derivatives at (p in S, alpha, aux), row by row:
/// g[i], dg_dp[3 i + {0,1,2}], dg_dalpha[i], dg_daux[i * num_aux + j].
template <class T>
void EvaluateConstraint3(const SpatialShape& s, const V3<T>& p, const T& alpha, const T* aux, T* g,
                         T* dg_dp, T* dg_dalpha, T* dg_daux) {
  using K = SpatialShape::Kind;
  auto zero_p = [&](int i) { dg_dp[3 * i] = T(0.0); dg_dp[3 * i + 1] = T(0.0); dg_dp[3 * i + 2] = T(0.0); };
  switch (s.kind) {
    case K::kPolytope:
      for (int i = 0; i < s.A.rows(); ++i) {
        g[i] = alpha * s.b[i] - (s.A(i, 0) * p[0] + s.A(i, 1) * p[1] + s.A(i, 2) * p[2]);
        for (int k = 0; k < 3; ++k) dg_dp[3 * i + k] = T(-s.A(i, k));
        dg_dalpha[i] = T(s.b[i]);
      }
      return;
    case K::kPaddedPolytope: {
      const int m = static_cast<int>(s.A.rows());
      const V3<T> e(aux[0], aux[1], aux[2]);
      const V3<T> d = p - e;
      for (int i = 0; i < m; ++i) {
        g[i] = alpha * s.b[i] - (s.A(i, 0) * d[0] + s.A(i, 1) * d[1] + s.A(i, 2) * d[2]);
        for (int k = 0; k < 3; ++k) {
          dg_dp[3 * i + k] = T(-s.A(i, k));
          dg_daux[3 * i + k] = T(s.A(i, k));
        }
        dg_dalpha[i] = T(s.b[i]);
      }
      const double r2 = s.radius * s.radius;
      g[m] = alpha * alpha * r2 - e.squaredNorm();
      for (int k = 0; k < 3; ++k) {
        dg_dp[3 * m + k] = T(0.0);
        dg_daux[3 * m + k] = -2.0 * e[k];
      }
      dg_dalpha[m] = 2.0 * alpha * r2;
      return;
    }
    case K::kSphere: {
      const double r2 = s.radius * s.radius;
      g[0] = alpha * alpha * r2 - p.squaredNorm();
      for (int k = 0; k < 3; ++k) dg_dp[k] = -2.0 * p[k];
      dg_dalpha[0] = 2.0 * alpha * r2;
      return;
    }
    case K::kEllipsoid: {
      const V3<T> q(p[0] * s.inv_radii[0], p[1] * s.inv_radii[1], p[2] * s.inv_radii[2]);
      g[0] = alpha * alpha - q.squaredNorm();
      for (int k = 0; k < 3; ++k) dg_dp[k] = -2.0 * q[k] * s.inv_radii[k];
      dg_dalpha[0] = 2.0 * alpha;
      return;
    }
    case K::kCapsule: {
      const double r2 = s.radius * s.radius;
      const T& e = aux[0];
      const T dz = p[2] - e;
      g[0] = alpha * alpha * r2 - p[0] * p[0] - p[1] * p[1] - dz * dz;
      dg_dp[0] = -2.0 * p[0];
      dg_dp[1] = -2.0 * p[1];
      dg_dp[2] = -2.0 * dz;
      dg_dalpha[0] = 2.0 * alpha * r2;
      dg_daux[0] = 2.0 * dz;
      g[1] = alpha * s.half_length - e;
      zero_p(1);
      dg_dalpha[1] = T(s.half_length);
      dg_daux[1] = T(-1.0);
      g[2] = alpha * s.half_length + e;
      zero_p(2);
      dg_dalpha[2] = T(s.half_length);
      dg_daux[2] = T(1.0);
      return;
    }
    case K::kCylinder: {
      const double r2 = s.radius * s.radius;
      g[0] = alpha * alpha * r2 - p[0] * p[0] - p[1] * p[1];
      dg_dp[0] = -2.0 * p[0];
      dg_dp[1] = -2.0 * p[1];
      dg_dp[2] = T(0.0);
      dg_dalpha[0] = 2.0 * alpha * r2;
      g[1] = alpha * s.half_length - p[2];
      dg_dp[3] = T(0.0);
      dg_dp[4] = T(0.0);
      dg_dp[5] = T(-1.0);
      dg_dalpha[1] = T(s.half_length);
      g[2] = alpha * s.half_length + p[2];
      dg_dp[6] = T(0.0);
      dg_dp[7] = T(0.0);
      dg_dp[8] = T(1.0);
      dg_dalpha[2] = T(s.half_length);
      return;
    }
    case K::kCone: {
      const double h = s.height, k = s.radius / s.height, k2 = k * k;
      const T a = 0.75 * h * alpha - p[2];
      g[0] = a * a * k2 - p[0] * p[0] - p[1] * p[1];
      dg_dp[0] = -2.0 * p[0];
      dg_dp[1] = -2.0 * p[1];
      dg_dp[2] = -2.0 * a * k2;
      dg_dalpha[0] = 2.0 * a * k2 * (0.75 * h);
      g[1] = a;
      dg_dp[3] = T(0.0);
      dg_dp[4] = T(0.0);
      dg_dp[5] = T(-1.0);
      dg_dalpha[1] = T(0.75 * h);
      g[2] = p[2] + 0.25 * h * alpha;
      dg_dp[6] = T(0.0);
      dg_dp[7] = T(0.0);
      dg_dp[8] = T(1.0);
      dg_dalpha[2] = T(0.25 * h);
      return;
    }
    case K::kHalfSpace:
      g[0] = -p[2];
      dg_dp[0] = T(0.0);
      dg_dp[1] = T(0.0);
      dg_dp[2] = T(-1.0);
      dg_dalpha[0] = T(0.0);
      return;
  }
}

}  // namespace arena::silico
