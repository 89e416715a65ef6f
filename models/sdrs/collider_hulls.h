// How sdrs turns the Scene's colliders into the convex hulls its separating-plane potential works
// on (seed 003 Sec. III: a robot link is a union of convex hulls). Each collider's triangle mesh
// (models/incremental_potential/collider_meshes.h) becomes the hull of its vertices: one hull per collider, so a body
// with several colliders carries several hulls. A collider whose mesh is not convex is replaced
// by its hull (the potential sees no concavity); `arena inspect SCENE --model sdrs` prints the
// choice per collider, with the volume the hull adds. No decomposition into several hulls is
// built (V-HACD is not packaged): split a non-convex link into convex colliders in its URDF/MJCF.
#pragma once

#include <vector>

#include "core/geometry/primitives.h"
#include "core/scene/scene.h"
#include "models/incremental_potential/collider_meshes.h"

namespace arena::sdrs {

/// The indices of the hull's vertices among `vertices` (qhull's extreme points, ascending), or
/// all of them when they span less than 3 dimensions (a ground's top face): interior points do
/// not change the hull but would add barrier terms, and the potential sums over hull vertices.
std::vector<int> HullVertices(const PointsX3& vertices);

/// One collider's hull, for reports.
struct ColliderHull {
  int collider = -1;       // index in Scene::colliders
  int body = kWorldBody;
  int mesh_vertices = 0;
  int mesh_triangles = 0;
  int hull_vertices = 0;   // the vertices the potential sums over
  double mesh_volume = 0.0;  // m^3; NaN for a mesh that encloses none (open: a ground's top face)
  double hull_volume = 0.0;  // m^3; NaN when the vertices are flat
  /// The mesh is its own hull, to 1e-9 of the hull's volume (open and flat meshes count as convex:
  /// they have no concavity for the hull to fill).
  bool Convex() const;
};

/// Every collider's hull as sdrs builds it from `meshes` (BuildColliderMeshes), in collider order.
std::vector<ColliderHull> DescribeColliderHulls(const std::vector<ColliderMesh>& meshes);

}  // namespace arena::sdrs
