// Signed distance between two posed shapes: the solver-agnostic penetration metric of the
// benchmark, so exact where a closed form exists and tolerance-bounded GJK/EPA elsewhere.
//
// The pair table (order-independent; SupportsSignedDistance answers it):
//   half-space / half-plane vs any bounded shape of the same dimension  exact, support function
//       (a mesh through its vertices)
//   sphere-sphere, disk-disk                                            closed form
//   sphere vs box, capsule, cylinder, ellipsoid, cone, hull, mesh       closed form: the point
//   disk vs polygon, capsule2                                             signed distance of the
//                                                                          centre minus the radius
//   capsule-capsule (3D)                                                closed form (segments)
//   any other pair of bounded convex shapes of the same dimension       GJK + EPA (gjk.h)
//   mesh-mesh, half-space-half-space, half-plane-half-plane, 2D-3D      Unsupported
// Meshes in pairs with bounded shapes are treated as the convex hull of their vertices. A padded
// Polygon2 (radius r > 0) is exact wherever its core polygon is: its point distance is the core's
// minus r, its support point the core's plus r along the direction, and GJK takes r as a margin.
// The ellipsoid point distance solves its one-dimensional secular equation by bisection to
// machine precision (Eberly, "Distance from a point to an ellipse, an ellipsoid, or a
// hyperellipsoid", 2013).
#pragma once

#include "core/geometry/gjk.h"
#include "core/geometry/shape.h"
#include "core/math/se3.h"

namespace arena {

/// True if SignedDistance handles the pair (in either order).
bool SupportsSignedDistance(ShapeType a, ShapeType b);

/// Signed distance (negative: minus the penetration depth), witnesses with
/// p_WB - p_WA = distance * normal_W, and the unit normal from A to B. 2D shapes are placed by
/// the xy-part of their pose (which must rotate about z); their results have z = 0.
/// Throws Unsupported for pairs outside the table above, InvalidArgument for invalid options
/// or 2D poses.
SignedDistanceResult SignedDistance(const Shape& a, const SE3& X_WA, const Shape& b,
                                    const SE3& X_WB, const GjkOptions& options = {});

/// Signed distance of a point to a shape's surface, in the shape frame.
struct PointSignedDistance {
  double distance = std::numeric_limits<double>::quiet_NaN();  // m; < 0 inside
  Vec3 point = Vec3::Zero();                                   // nearest surface point
  Vec3 normal = Vec3::Zero();  // unit outward normal there (the gradient of the distance)
};

/// Exact for every 3D shape (a mesh as the hull of its vertices; a flat mesh gives the unsigned
/// distance to its triangles). Throws InvalidArgument for 2D shapes.
PointSignedDistance PointDistance(const Shape& shape, const Vec3& p_S);

/// 2D shapes, point in the shape's xy-plane (z of the result is 0). Throws InvalidArgument for
/// 3D shapes.
PointSignedDistance PointDistance2(const Shape& shape, const Vec2& p_S);

}  // namespace arena
