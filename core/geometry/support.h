// Support functions and world bounding boxes of shapes.
//
// The support function of a convex set S maps a direction d to a point of S farthest along d,
// argmax_{x in S} d . x (Gilbert, Johnson & Keerthi 1988; van den Bergen 2003, ch. 4). GJK, EPA,
// the half-space distances and the bounding boxes are all written in terms of it.
#pragma once

#include "core/geometry/primitives.h"
#include "core/geometry/shape.h"
#include "core/math/se3.h"

namespace arena {

/// +1 for x >= 0, else -1: which face of a box or cap of a capsule a direction picks (a tie at 0
/// goes to the positive side, as any point of the face is a support point).
inline double SupportSign(double x) { return x >= 0.0 ? 1.0 : -1.0; }

/// Support point of a bounded 3D shape in its own frame S (dir in S; need not be unit). A
/// TriangleMesh is treated as the convex hull of its vertices. For dir = 0 some point of the
/// shape is returned. Throws InvalidArgument for HalfSpace and the 2D shapes.
Vec3 Support(const Shape& shape, const Vec3& dir);

/// Support point of a bounded 2D shape (Polygon2, Disk2, Capsule2) in its xy-plane; a padded
/// Polygon2 adds radius * dir / |dir| to its core's vertex. Throws InvalidArgument for any other
/// shape.
Vec2 Support2(const Shape& shape, const Vec2& dir);

/// Support point of a Polygon2's core (the unpadded polygon: one of its vertices), whatever its
/// radius: how GJK runs a padded polygon, as a core with a margin.
Vec2 PolygonCoreSupport(const Polygon2& polygon, const Vec2& dir);

/// Support point in world coordinates of a 3D shape posed at X_WS (dir_W in world).
Vec3 SupportWorld(const Shape& shape, const SE3& X_WS, const Vec3& dir_W);

/// World axis-aligned box of a shape posed at X_WS. Exact (the box of the support points along
/// +-x, +-y, +-z) for every bounded shape; 2D shapes are flat sets in S's xy-plane. HalfSpace and
/// HalfPlane2 are unbounded in their plane: a bound is finite only along a world axis that is
/// (within 1e-12) normal to the boundary plane, on the side the shape does not extend to.
Aabb ComputeAabb(const Shape& shape, const SE3& X_WS);

}  // namespace arena
