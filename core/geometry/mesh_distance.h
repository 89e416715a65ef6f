// Exact distance between two posed triangle meshes, signed so that an experiment can report
// the minimum distance seen and detect interpenetration.
//
// Triangle-triangle: for disjoint triangles the closest pair always involves a vertex of one
// and the other triangle, or an edge of each (Ericson, "Real-Time Collision Detection", 2005,
// 5.1.11: the minimum over the 6 vertex-triangle and 9 edge-edge distances); triangles
// intersect iff that minimum is 0 or an edge of one pierces the other (their intersection is
// bounded by points of their edges; Moller, "A fast triangle-triangle intersection test", JGT
// 1997).
//
// Mesh-mesh: the minimum over triangle pairs, by simultaneous traversal of the two meshes'
// bounding-volume hierarchies (branch and bound on the node boxes and spheres, B's nodes moved
// into A's frame), which also collects every intersecting triangle pair.
//
// Sign, for CLOSED meshes (core/geometry/mesh.h IsClosed): inside/outside is decided by the
// generalized winding number (Jacobson, Kavan & Sorkine-Hornung, "Robust inside-outside
// segmentation using generalized winding numbers", SIGGRAPH 2013; triangle solid angles by
// Van Oosterom & Strackee, IEEE TBME 1983), and a penetration depth is estimated from witness
// points of each mesh that lie inside the other: every vertex, and the midpoints of the pieces
// into which an edge's crossings with the other surface cut it. The depth of a witness (its
// distance to the other surface) is a lower bound on the translational penetration depth (any
// separating translation must carry that point out), so the reported depth is such a bound.
// The result:
//   kSeparated    distance = the exact surface distance > 0;
//   kTouching     the surfaces meet but no witness lies deeper than the resolution
//                 (1e-10 x the diagonal of the two meshes' bounding box): distance = 0
//                 (e.g. coplanar touching faces, edges crossing at a point);
//   kPenetrating  distance = -depth < 0: the surfaces intersect with a witness deeper than the
//                 resolution, or they are disjoint and one closed mesh contains a vertex of
//                 the other (containment).
// Open meshes have no inside: with an open mesh involved the result is unsigned (kSeparated or
// kTouching), and containment and penetration are not detected.
#pragma once

#include <limits>
#include <string_view>

#include "core/geometry/mesh.h"
#include "core/math/se3.h"

namespace arena {

/// Distance between triangles a0 a1 a2 and b0 b1 b2 (m), with closest points. Exact up to
/// round-off for disjoint triangles; intersecting triangles give distance 0, intersecting =
/// true and a common point. Degenerate (zero-area) triangles are treated as their edges.
struct TrianglePairDistance {
  double distance = std::numeric_limits<double>::infinity();
  bool intersecting = false;
  Vec3 point_a = Vec3::Zero();
  Vec3 point_b = Vec3::Zero();
};
TrianglePairDistance TriangleTriangleDistance(const Vec3& a0, const Vec3& a1, const Vec3& a2,
                                              const Vec3& b0, const Vec3& b1, const Vec3& b2);

enum class MeshContact { kSeparated, kTouching, kPenetrating };
std::string_view ToString(MeshContact contact);

struct MeshDistanceResult {
  /// m: > 0 separated (exact), 0 touching, < 0 minus a penetration-depth lower bound.
  double distance = std::numeric_limits<double>::quiet_NaN();
  MeshContact contact = MeshContact::kSeparated;
  /// m: unsigned distance between the two surfaces (0 when they intersect).
  double surface_distance = std::numeric_limits<double>::quiet_NaN();
  /// A closest (or, when the surfaces intersect, an intersecting) triangle pair and its
  /// closest points in the world frame.
  int triangle_a = -1, triangle_b = -1;
  Vec3 point_a_W = Vec3::Zero(), point_b_W = Vec3::Zero();
  int intersecting_pairs = 0;  // triangle pairs that intersect
  int pairs_tested = 0;        // triangle pairs whose exact distance was computed
  bool signed_result = false;  // both meshes closed, so inside/outside was decided
};

/// Signed distance between mesh A placed at X_WA and mesh B placed at X_WB (see above).
MeshDistanceResult MeshDistance(const TriangleMeshData& a, const SE3& X_WA,
                                const TriangleMeshData& b, const SE3& X_WB);

/// Generalized winding number of the closed mesh's surface at p (mesh frame): about +-1 inside
/// (sign by orientation), 0 outside, 1/2 on the surface.
double WindingNumber(const TriangleMeshData& mesh, const Vec3& p);
/// The same for triangles over vertices given in any frame (p in that frame).
double WindingNumber(const PointsX3& vertices, const TrianglesX3& triangles, const Vec3& p);

}  // namespace arena
