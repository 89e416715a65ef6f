// Internals shared by the convex distance queries of gjk.h: the GJK iteration (gjk.cc), EPA
// (epa.cc) and the polishing of EPA's depth on curved shapes (epa_polish.cc). Not part of the
// public API.
//
// Everything runs on the Minkowski difference M = A - B of the two shapes' cores (gjk.h): a
// support functor maps a direction d to the support points of A along d and of B along -d.
// Dimension D is 3, or 2 for planar shapes.
#pragma once

#include <array>
#include <limits>
#include <variant>

#include "core/geometry/convex_hull.h"
#include "core/geometry/gjk.h"
#include "core/geometry/shape.h"
#include "core/geometry/support.h"
#include "core/math/se3.h"

namespace arena::gjk_internal {


template <int D>
using VecD = Eigen::Matrix<double, D, 1>;

// A vertex of the Minkowski difference M = A - B with the points of A and B that made it.
template <int D>
struct SupportPoint {
  VecD<D> a = VecD<D>::Zero(), b = VecD<D>::Zero(), w = VecD<D>::Zero();
};

// GJK simplex with the barycentric coordinates of its point closest to the origin.
template <int D>
struct Simplex {
  std::array<SupportPoint<D>, D + 1> p;
  std::array<double, D + 1> lambda{};
  int size = 0;

  VecD<D> Combine(VecD<D> SupportPoint<D>::*member) const {
    VecD<D> x = VecD<D>::Zero();
    for (int i = 0; i < size; ++i) x += lambda[i] * (p[i].*member);
    return x;
  }
};

// ---------------------------------------------------------------------------------------------
// Cores: a sphere is a point plus a radius, a capsule a segment plus a radius, a padded polygon
// its core polygon plus a radius, a padded hull its hull plus a radius.

inline Vec3 CoreSupport3(const Shape& s, const Vec3& d) {
  if (std::holds_alternative<Sphere>(s)) return Vec3::Zero();
  if (const auto* c = std::get_if<Capsule>(&s)) {
    return Vec3(0, 0, d.z() >= 0.0 ? c->half_length : -c->half_length);
  }
  if (const auto* h = std::get_if<ConvexHull>(&s)) return h->data->vertices.row(HullSupportVertex(*h->data, d)).transpose();
  return Support(s, d);
}

inline Vec2 CoreSupport2(const Shape& s, const Vec2& d) {
  if (std::holds_alternative<Disk2>(s)) return Vec2::Zero();
  if (const auto* c = std::get_if<Capsule2>(&s)) {
    return Vec2(d.x() >= 0.0 ? c->half_length : -c->half_length, 0.0);
  }
  if (const auto* p = std::get_if<Polygon2>(&s)) return PolygonCoreSupport(*p, d);
  return Support2(s, d);
}

struct Pose2 {
  Mat2 R = Mat2::Identity();
  Vec2 p = Vec2::Zero();
};

struct Support3Fn {
  const Shape& A;
  const SE3& XA;
  const Shape& B;
  const SE3& XB;
  SupportPoint<3> operator()(const Vec3& d) const {
    SupportPoint<3> s;
    s.a = XA.Act(CoreSupport3(A, XA.rotation().transpose() * d));
    s.b = XB.Act(CoreSupport3(B, -(XB.rotation().transpose() * d)));
    s.w = s.a - s.b;
    return s;
  }
};

struct Support2Fn {
  const Shape& A;
  Pose2 XA;
  const Shape& B;
  Pose2 XB;
  SupportPoint<2> operator()(const Vec2& d) const {
    SupportPoint<2> s;
    s.a = XA.R * CoreSupport2(A, XA.R.transpose() * d) + XA.p;
    s.b = XB.R * CoreSupport2(B, -(XB.R.transpose() * d)) + XB.p;
    s.w = s.a - s.b;
    return s;
  }
};

// M with B translated by T: how the depth polish separates the shapes to probe M's boundary.
struct TranslatedSupport3Fn {
  const Support3Fn& support;
  Vec3 T;
  SupportPoint<3> operator()(const Vec3& d) const {
    SupportPoint<3> p = support(d);
    p.b += T;
    p.w -= T;
    return p;
  }
};

// ---------------------------------------------------------------------------------------------
// GJK (gjk.cc).

template <int D>
struct GjkCore {
  Simplex<D> simplex;
  VecD<D> v = VecD<D>::Zero();  // point of M closest to the origin (zero when intersecting)
  double upper = 0.0;           // |v| at termination: an upper bound on the distance
  double lower = 0.0;           // best lower bound max_k v_k . w_k / |v_k| (van den Bergen)
  bool intersecting = false;
  int iterations = 0;
  DistanceStatus status = DistanceStatus::kNotComputed;
};

// GJK from the search direction dir0. Defined in gjk.cc for the support functors above only.
template <int D, class F>
GjkCore<D> RunGjk(const F& support, VecD<D> dir0, const GjkOptions& opt);

extern template GjkCore<3> RunGjk<3, Support3Fn>(const Support3Fn&, Vec3, const GjkOptions&);
extern template GjkCore<2> RunGjk<2, Support2Fn>(const Support2Fn&, Vec2, const GjkOptions&);
extern template GjkCore<3> RunGjk<3, TranslatedSupport3Fn>(const TranslatedSupport3Fn&, Vec3,
                                                           const GjkOptions&);

// ---------------------------------------------------------------------------------------------
// EPA (epa.cc, epa_polish.cc).

template <int D>
struct EpaCore {
  double depth = 0.0;                // >= 0
  VecD<D> normal = VecD<D>::Zero();  // unit outward normal of M: from A to B
  VecD<D> a = VecD<D>::Zero(), b = VecD<D>::Zero();
  int iterations = 0;
  DistanceStatus status = DistanceStatus::kConverged;
  double upper = std::numeric_limits<double>::infinity();  // h(normal) >= depth
  double error_bound = 0.0;                                // upper - lower bound on the depth
  // The support point (a point of the boundary of M) nearest the origin: its norm is an upper
  // bound on the depth, with witnesses consistent along its direction (3D).
  double vertex_norm = std::numeric_limits<double>::infinity();
  VecD<D> vertex_a = VecD<D>::Zero(), vertex_b = VecD<D>::Zero();
};

// Penetration depth from GJK's final simplex `s`, which contains the origin.
EpaCore<3> RunEpa3(const Support3Fn& support, const Simplex<3>& s, const GjkOptions& opt);
EpaCore<2> RunEpa2(const Support2Fn& support, const Simplex<2>& s, const GjkOptions& opt);

// Tightens a 3D EPA result that missed its tolerance. Returns whether it replaced EPA's
// estimate; e->iterations counts its GJK runs either way.
bool PolishDepth3(const Support3Fn& support, const GjkOptions& opt, EpaCore<3>* e);

}  // namespace arena::gjk_internal
