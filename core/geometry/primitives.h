// Low-level primitives shared by the geometry core: point-set matrix types, axis-aligned boxes,
// and exact closest points between points, segments and triangles (Ericson, "Real-Time
// Collision Detection", 2005, sections 5.1.2, 5.1.5 and 5.1.9).
#pragma once

#include <limits>
#include <vector>

#include "core/math/types.h"

namespace arena {

/// N x 3 points, one per row (vertices of meshes and hulls, point clouds).
using PointsX3 = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;
/// M x 3 vertex indices, one triangle per row.
using TrianglesX3 = Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor>;

/// Point i of a PointsX3 as a column vector.
inline Vec3 PointAt(const PointsX3& points, int i) { return points.row(i).transpose(); }

/// Axis-aligned box [lower, upper]. Default-constructed it is empty (lower = +inf, upper = -inf);
/// unbounded shapes (half-spaces) have infinite bounds.
struct Aabb {
  Vec3 lower = Vec3::Constant(std::numeric_limits<double>::infinity());
  Vec3 upper = Vec3::Constant(-std::numeric_limits<double>::infinity());

  static Aabb FromPoint(const Vec3& p) { return Aabb{p, p}; }
  bool IsEmpty() const { return (lower.array() > upper.array()).any(); }
  bool IsBounded() const { return lower.allFinite() && upper.allFinite(); }
  void Extend(const Vec3& p) {
    lower = lower.cwiseMin(p);
    upper = upper.cwiseMax(p);
  }
  void Extend(const Aabb& b) {
    lower = lower.cwiseMin(b.lower);
    upper = upper.cwiseMax(b.upper);
  }
  /// Grows the box by `margin` on every side.
  Aabb Inflated(double margin) const {
    return Aabb{(lower.array() - margin).matrix(), (upper.array() + margin).matrix()};
  }
  /// Centre and half extents; meaningful for bounded, non-empty boxes only.
  Vec3 Center() const { return 0.5 * (lower + upper); }
  Vec3 HalfExtents() const { return 0.5 * (upper - lower); }
  bool Contains(const Vec3& p) const {
    return (p.array() >= lower.array()).all() && (p.array() <= upper.array()).all();
  }
  /// Closed boxes: touching boxes overlap.
  bool Overlaps(const Aabb& o) const {
    return (lower.array() <= o.upper.array()).all() && (o.lower.array() <= upper.array()).all();
  }
  /// Squared distance from p to the box (0 inside).
  double SquaredDistance(const Vec3& p) const {
    const Vec3 d = (lower - p).cwiseMax(p - upper).cwiseMax(0.0);
    return d.squaredNorm();
  }
  bool OverlapsSphere(const Vec3& center, double radius) const {
    return SquaredDistance(center) <= radius * radius;
  }
};

/// The box of all the points (empty for none).
Aabb BoundsOf(const PointsX3& points);
/// The box of each triangle (rows of `triangles` index `vertices`).
std::vector<Aabb> TriangleBoxes(const PointsX3& vertices, const TrianglesX3& triangles);

/// Closest point of a triangle (or of a segment) to a query point, with its barycentric
/// coordinates: point = bary[0] a + bary[1] b + bary[2] c.
struct TrianglePoint {
  Vec3 point = Vec3::Zero();
  Vec3 barycentric = Vec3::Zero();
};
struct TrianglePoint2 {
  Vec2 point = Vec2::Zero();
  Vec3 barycentric = Vec3::Zero();
};

/// Exact closest point of triangle abc to p by Voronoi regions (Ericson 5.1.5); degenerate
/// (zero-area) triangles fall back to their edges. Works for 3D and for 2D triangles.
TrianglePoint ClosestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);
TrianglePoint2 ClosestPointOnTriangle(const Vec2& p, const Vec2& a, const Vec2& b, const Vec2& c);

/// Parameter t in [0, 1] of the point a + t (b - a) closest to p (t = 0 when a == b).
double ClosestParameterOnSegment(const Vec3& p, const Vec3& a, const Vec3& b);

/// Closest points of segments p0p1 and q0q1: p0 + s (p1 - p0) and q0 + t (q1 - q0).
/// Parallel overlapping segments return the midpoint of the overlap (a symmetric witness).
struct SegmentPair {
  double s = 0.0, t = 0.0;
  Vec3 point_p = Vec3::Zero(), point_q = Vec3::Zero();
  double distance = 0.0;
};
SegmentPair ClosestPointsSegmentSegment(const Vec3& p0, const Vec3& p1, const Vec3& q0,
                                        const Vec3& q1);

/// A unit vector orthogonal to the unit vector n (deterministic; used for arbitrary normals).
Vec3 AnyOrthogonal(const Vec3& n);

}  // namespace arena
