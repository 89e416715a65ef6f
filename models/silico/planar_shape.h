// Planar shapes as "alpha-scaled" constraints g(p, alpha, aux) >= 0 (seed 000, Silico Sec. IV-A,
// App. B, with the sign of the authors' 2D code): the shape scaled by alpha >= 0 about its
// reference point (the shape frame's origin, strictly inside) is
// { p : g(p, alpha, aux) >= 0 for some aux }.
// The collision program "min alpha s.t. both shapes' constraints" then gives the P-SDF
// alpha* - 1 (negative when overlapping).
//
// Primitives, with p the point in the shape frame S:
//   polygon    A p <= alpha b                      g = alpha b - A p                (m rows)
//   disk       |p| <= alpha r                      g = alpha^2 r^2 - |p|^2          (1 row)
//   capsule    |p - e x_hat| <= alpha r, |e| <= alpha l, aux e (axis x, half-length l)
//                                                  g = (alpha^2 r^2 - |p - e x_hat|^2,
//                                                       alpha l - e, alpha l + e)   (3 rows)
//   half-plane n.p <= 0 in the world (not scaled: the environment's floor)
// Composition (Sec. VI-A eq. 25): the Minkowski sum S1 (+) S2 stacks g1(p1, alpha, aux1) and
// g2(p - p1, alpha, aux2) with the extra variable p1 (aux = [p1; aux1; aux2]); it scales as
// alpha (S1 (+) S2) = alpha S1 (+) alpha S2. A padded polygon is polygon (+) disk.
// A union ("convex bundle") is not a shape here: each convex part is its own collider, and
// each pair of parts its own contact.
//
// The round constraints use squared norms (only nonnegative-orthant cones, as in the paper's
// code) but scale linearly in alpha (alpha^2 r^2): the code the figures came from used
// alpha r^2 for the padded polygon, whose scaled set is not the scaled shape (deviations.md).
#pragma once

#include <string>
#include <vector>

#include "core/geometry/shape.h"
#include "core/math/types.h"

namespace arena::silico {

template <class T> using V2 = Eigen::Matrix<T, 2, 1>;

// Scratch bounds of the residual (checked when a pair is built): rows and auxiliaries of one
// shape, a Minkowski sum's parts included.
inline constexpr int kMaxShapeRows = 16;
inline constexpr int kMaxShapeAux = 8;

struct PlanarShape {
  enum class Kind { kPolygon, kDisk, kCapsule, kHalfPlane, kMinkowski };
  Kind kind = Kind::kPolygon;
  Eigen::Matrix<double, Eigen::Dynamic, 2> A;  // polygon faces (rows need not be unit)
  VecX b;                                      // polygon offsets (> 0)
  double radius = 0.0;                         // disk, capsule
  double half_length = 0.0;                    // capsule
  std::vector<PlanarShape> parts;              // Minkowski: exactly two

  int num_rows() const { return rows_; }
  int num_aux() const { return aux_; }
  bool scaled() const { return kind != Kind::kHalfPlane; }

  static PlanarShape Polygon(const Eigen::Matrix<double, Eigen::Dynamic, 2>& A, const VecX& b);
  static PlanarShape Disk(double radius);
  static PlanarShape Capsule(double radius, double half_length);
  static PlanarShape HalfPlane();
  static PlanarShape Minkowski(PlanarShape a, PlanarShape b);

 private:
  void CacheSizes();
  int rows_ = 0, aux_ = 0;  // cached: read in the residual's inner loops
};

/// The silico constraint of a scene shape: Polygon2 (a padded one as polygon (+) disk), Disk2,
/// Capsule2, HalfPlane2. Throws Unsupported for 3D shapes.
PlanarShape FromShape(const Shape& shape);

/// Constraint values and their partial derivatives at (p in S, alpha, aux). Outputs are
/// written row by row: g[i], dg_dp[2 i + {0,1}], dg_dalpha[i], dg_daux[i * num_aux + j].
/// The half-plane is written in its own frame (n = +y): g = -p_y, independent of alpha.
template <class T>
void EvaluateConstraint(const PlanarShape& s, const V2<T>& p, const T& alpha, const T* aux, T* g,
                        T* dg_dp, T* dg_dalpha, T* dg_daux) {
  using K = PlanarShape::Kind;
  const int na = s.num_aux();
  switch (s.kind) {
    case K::kPolygon:
      for (int i = 0; i < s.A.rows(); ++i) {
        g[i] = alpha * s.b[i] - (s.A(i, 0) * p[0] + s.A(i, 1) * p[1]);
        dg_dp[2 * i] = T(-s.A(i, 0));
        dg_dp[2 * i + 1] = T(-s.A(i, 1));
        dg_dalpha[i] = T(s.b[i]);
      }
      return;
    case K::kDisk: {
      const double r2 = s.radius * s.radius;
      g[0] = alpha * alpha * r2 - p.squaredNorm();
      dg_dp[0] = -2.0 * p[0];
      dg_dp[1] = -2.0 * p[1];
      dg_dalpha[0] = 2.0 * alpha * r2;
      return;
    }
    case K::kCapsule: {
      const double r2 = s.radius * s.radius;
      const T& e = aux[0];
      const T dx = p[0] - e;
      g[0] = alpha * alpha * r2 - dx * dx - p[1] * p[1];
      dg_dp[0] = -2.0 * dx;
      dg_dp[1] = -2.0 * p[1];
      dg_dalpha[0] = 2.0 * alpha * r2;
      dg_daux[0] = 2.0 * dx;
      g[1] = alpha * s.half_length - e;
      dg_dp[2] = T(0.0);
      dg_dp[3] = T(0.0);
      dg_dalpha[1] = T(s.half_length);
      dg_daux[1] = T(-1.0);
      g[2] = alpha * s.half_length + e;
      dg_dp[4] = T(0.0);
      dg_dp[5] = T(0.0);
      dg_dalpha[2] = T(s.half_length);
      dg_daux[2] = T(1.0);
      return;
    }
    case K::kHalfPlane:
      g[0] = -p[1];
      dg_dp[0] = T(0.0);
      dg_dp[1] = T(-1.0);
      dg_dalpha[0] = T(0.0);
      return;
    case K::kMinkowski: {
      // aux = [p1 (2); aux1; aux2]; rows = [rows of part 1 at p1; rows of part 2 at p - p1].
      const PlanarShape& s1 = s.parts[0];
      const PlanarShape& s2 = s.parts[1];
      const int m1 = s1.num_rows(), m2 = s2.num_rows();
      const int a1 = s1.num_aux(), a2 = s2.num_aux();
      const V2<T> p1(aux[0], aux[1]);
      const V2<T> p2 = p - p1;
      // Part derivatives into scratch on the stack (the residual runs in the solver's inner
      // loop: no heap allocation), then scatter into the stacked layout.
      T dp1[2 * kMaxShapeRows], daux1[kMaxShapeRows * kMaxShapeAux];
      T dp2[2 * kMaxShapeRows], daux2[kMaxShapeRows * kMaxShapeAux];
      EvaluateConstraint(s1, p1, alpha, aux + 2, g, dp1, dg_dalpha, daux1);
      EvaluateConstraint(s2, p2, alpha, aux + 2 + a1, g + m1, dp2, dg_dalpha + m1, daux2);
      for (int i = 0; i < m1 + m2; ++i) {
        for (int j = 0; j < na; ++j) dg_daux[i * na + j] = T(0.0);
      }
      for (int i = 0; i < m1; ++i) {
        dg_dp[2 * i] = T(0.0);
        dg_dp[2 * i + 1] = T(0.0);
        dg_daux[i * na + 0] = dp1[2 * i];
        dg_daux[i * na + 1] = dp1[2 * i + 1];
        for (int j = 0; j < a1; ++j) dg_daux[i * na + 2 + j] = daux1[i * a1 + j];
      }
      for (int i = 0; i < m2; ++i) {
        const int r = m1 + i;
        dg_dp[2 * r] = dp2[2 * i];
        dg_dp[2 * r + 1] = dp2[2 * i + 1];
        dg_daux[r * na + 0] = -dp2[2 * i];
        dg_daux[r * na + 1] = -dp2[2 * i + 1];
        for (int j = 0; j < a2; ++j) dg_daux[r * na + 2 + a1 + j] = daux2[i * a2 + j];
      }
      return;
    }
  }
}

}  // namespace arena::silico
