#include "core/geometry/primitives.h"

#include <algorithm>
#include <cmath>

namespace arena {

Aabb BoundsOf(const PointsX3& points) {
  Aabb box;
  for (int i = 0; i < points.rows(); ++i) box.Extend(PointAt(points, i));
  return box;
}

std::vector<Aabb> TriangleBoxes(const PointsX3& vertices, const TrianglesX3& triangles) {
  std::vector<Aabb> boxes(static_cast<std::size_t>(triangles.rows()));
  for (int t = 0; t < triangles.rows(); ++t) {
    for (int k = 0; k < 3; ++k) boxes[static_cast<std::size_t>(t)].Extend(PointAt(vertices, triangles(t, k)));
  }
  return boxes;
}

namespace {

template <class V>
double SegmentParameter(const V& p, const V& a, const V& b) {
  const V ab = b - a;
  const double len2 = ab.squaredNorm();
  if (!(len2 > 0.0)) return 0.0;
  return std::clamp((p - a).dot(ab) / len2, 0.0, 1.0);
}

// Closest point on triangle abc to p by Voronoi-region tests (Ericson 5.1.5): the vertex
// regions, then the edge regions, then the face. Only dot products, so any dimension works.
template <class V>
void ClosestOnTriangle(const V& p, const V& a, const V& b, const V& c, V* point, Vec3* bary) {
  const V ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) {
    *point = a;
    *bary = Vec3(1, 0, 0);
    return;
  }
  const V bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) {
    *point = b;
    *bary = Vec3(0, 1, 0);
    return;
  }
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    const double v = d1 / (d1 - d3);
    *point = a + v * ab;
    *bary = Vec3(1 - v, v, 0);
    return;
  }
  const V cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) {
    *point = c;
    *bary = Vec3(0, 0, 1);
    return;
  }
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    const double w = d2 / (d2 - d6);
    *point = a + w * ac;
    *bary = Vec3(1 - w, 0, w);
    return;
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
    const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    *point = b + w * (c - b);
    *bary = Vec3(0, 1 - w, w);
    return;
  }
  const double sum = va + vb + vc;
  if (sum > 0.0 && std::isfinite(sum)) {
    const double v = vb / sum, w = vc / sum;
    *point = a + v * ab + w * ac;
    *bary = Vec3(1 - v - w, v, w);
    return;
  }
  // Degenerate (collinear) triangle: the nearest of its three edges.
  const V* verts[3] = {&a, &b, &c};
  double best = std::numeric_limits<double>::infinity();
  for (int e = 0; e < 3; ++e) {
    const V& u = *verts[e];
    const V& w = *verts[(e + 1) % 3];
    const double t = SegmentParameter(p, u, w);
    const V q = u + t * (w - u);
    const double d = (q - p).squaredNorm();
    if (d < best) {
      best = d;
      *point = q;
      *bary = Vec3::Zero();
      (*bary)[e] = 1 - t;
      (*bary)[(e + 1) % 3] = t;
    }
  }
}

}  // namespace

TrianglePoint ClosestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  TrianglePoint r;
  ClosestOnTriangle<Vec3>(p, a, b, c, &r.point, &r.barycentric);
  return r;
}

TrianglePoint2 ClosestPointOnTriangle(const Vec2& p, const Vec2& a, const Vec2& b, const Vec2& c) {
  TrianglePoint2 r;
  ClosestOnTriangle<Vec2>(p, a, b, c, &r.point, &r.barycentric);
  return r;
}

double ClosestParameterOnSegment(const Vec3& p, const Vec3& a, const Vec3& b) {
  return SegmentParameter<Vec3>(p, a, b);
}

SegmentPair ClosestPointsSegmentSegment(const Vec3& p0, const Vec3& p1, const Vec3& q0,
                                        const Vec3& q1) {
  // Ericson 5.1.9: minimise |p(s) - q(t)|^2 over the unit square, clamping s then t then s;
  // parallel segments are handled separately to pick a symmetric witness.
  const Vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  double s = 0.0, t = 0.0;
  if (!(a > 0.0) && !(e > 0.0)) {
    s = t = 0.0;
  } else if (!(a > 0.0)) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (!(e > 0.0)) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2);
      const double denom = a * e - b * b;
      if (denom > 1e-14 * a * e) {
        s = std::clamp((b * f - c * e) / denom, 0.0, 1.0);
      } else {
        // Parallel: project q0, q1 onto p's line; take the middle of the overlap if any.
        const double sa = -c / a, sb = (q1 - p0).dot(d1) / a;
        const double lo = std::max(0.0, std::min(sa, sb)), hi = std::min(1.0, std::max(sa, sb));
        s = lo <= hi ? 0.5 * (lo + hi) : (std::max(sa, sb) < 0.0 ? 0.0 : 1.0);
      }
      t = (b * s + f) / e;
      if (t < 0.0) {
        t = 0.0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1.0) {
        t = 1.0;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  SegmentPair out;
  out.s = s;
  out.t = t;
  out.point_p = p0 + s * d1;
  out.point_q = q0 + t * d2;
  out.distance = (out.point_p - out.point_q).norm();
  return out;
}

Vec3 AnyOrthogonal(const Vec3& n) {
  // Cross with the axis least aligned with n.
  int k = 0;
  if (std::abs(n.y()) < std::abs(n[k])) k = 1;
  if (std::abs(n.z()) < std::abs(n[k])) k = 2;
  const Vec3 o = n.cross(Vec3::Unit(k));
  const double len = o.norm();
  return len > 0.0 ? Vec3(o / len) : Vec3::UnitX();
}

}  // namespace arena
