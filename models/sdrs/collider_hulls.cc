#include "models/sdrs/collider_hulls.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

#include "core/geometry/convex_hull.h"
#include "core/geometry/mass_properties.h"
#include "core/geometry/mesh.h"

namespace arena::sdrs {
namespace {

// The volume a shape encloses, NaN when it encloses none (flat or open).
template <class MakeShape>
double VolumeOrNan(MakeShape&& make) {
  try {
    return Volume(Shape(make()));
  } catch (const std::exception&) {
    return std::numeric_limits<double>::quiet_NaN();
  }
}

}  // namespace

std::vector<int> HullVertices(const PointsX3& vertices) {
  std::vector<int> all(vertices.rows());
  for (int k = 0; k < static_cast<int>(all.size()); ++k) all[k] = k;
  if (vertices.rows() < 4) return all;
  try {
    std::vector<int> hull = MakeConvexHull(vertices).data->input_indices;
    std::sort(hull.begin(), hull.end());
    return hull;
  } catch (const std::exception&) {
    return all;
  }
}

bool ColliderHull::Convex() const {
  if (std::isnan(mesh_volume) || std::isnan(hull_volume)) return true;
  return mesh_volume >= hull_volume * (1.0 - 1e-9);
}

std::vector<ColliderHull> DescribeColliderHulls(const std::vector<ColliderMesh>& meshes) {
  std::vector<ColliderHull> out;
  for (const ColliderMesh& m : meshes) {
    ColliderHull h;
    h.collider = m.collider;
    h.body = m.body;
    h.mesh_vertices = static_cast<int>(m.vertices.rows());
    h.mesh_triangles = static_cast<int>(m.triangles.rows());
    h.hull_vertices = static_cast<int>(HullVertices(m.vertices).size());
    h.mesh_volume = VolumeOrNan([&] { return MakeTriangleMesh(m.vertices, m.triangles); });
    h.hull_volume = VolumeOrNan([&] { return MakeConvexHull(m.vertices); });
    out.push_back(h);
  }
  return out;
}

}  // namespace arena::sdrs
