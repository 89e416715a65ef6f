// Convex hulls of 3D point sets through qhull's reentrant C API (Barber, Dobkin & Huhdanpaa,
// "The Quickhull algorithm for convex hulls", ACM TOMS 1996).
//
// qhull merges coplanar facets ('C-0'), so a facet (one row of face_normals / face_offsets) may
// be a polygon; it is fan-triangulated into `triangles` with outward (counter-clockwise seen from
// outside) winding, and `triangle_faces` maps each triangle back to its facet. `edges` are the
// facet boundary edges. Vertices are the extreme input points, in input order, copied exactly.
#pragma once

#include "core/geometry/primitives.h"
#include "core/geometry/shape.h"

namespace arena {

/// Hull of the rows of `points`. Throws InvalidArgument for fewer than 4 points, non-finite
/// coordinates, or points that span less than 3 dimensions (qhull's message included). qhull
/// writes nothing to stdout or stderr.
ConvexHull MakeConvexHull(const PointsX3& points);

/// Hull of a mesh's vertices.
ConvexHull ConvexHullOfMesh(const TriangleMesh& mesh);

/// Index of a hull vertex maximising dir . v (hill climbing along vertex_neighbors, which is
/// exact on a convex polytope; linear scan for small hulls). Ties: the first one reached.
int HullSupportVertex(const ConvexHullData& hull, const Vec3& dir);

}  // namespace arena
