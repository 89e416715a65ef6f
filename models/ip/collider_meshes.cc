#include "models/ip/collider_meshes.h"

#include <cmath>

#include "core/common/error.h"
#include "core/geometry/convex_hull.h"
#include "core/geometry/mesh.h"
#include "core/geometry/sphere_mesh.h"

namespace arena {

std::string ColliderMeshOptions::Validate() const {
  if (sphere_vertices < 12 || sphere_vertices > 100000) return "sphere_vertices must be in [12, 100000]";
  if (!(ground_half_size > 0.0) || !std::isfinite(ground_half_size)) return "ground_half_size must be > 0";
  if (!(ground_depth > 0.0) || !std::isfinite(ground_depth)) return "ground_depth must be > 0";
  return "";
}

namespace {

// The 8 corners and 12 outward triangles of the box [-h, h] (centred at c).
void BoxMesh(const Vec3& h, const Vec3& c, PointsX3* v, TrianglesX3* t) {
  v->resize(8, 3);
  for (int i = 0; i < 8; ++i) {
    v->row(i) = (c + Vec3(i & 1 ? h.x() : -h.x(), i & 2 ? h.y() : -h.y(), i & 4 ? h.z() : -h.z())).transpose();
  }
  *t = TrianglesX3(12, 3);
  *t << 0, 2, 1, 1, 2, 3,   // z-
      4, 5, 6, 5, 7, 6,     // z+
      0, 1, 4, 1, 5, 4,     // y-
      2, 6, 3, 3, 6, 7,     // y+
      0, 4, 2, 2, 4, 6,     // x-
      1, 3, 5, 3, 7, 5;     // x+
}

void HullMesh(const ConvexHullData& hull, PointsX3* v, TrianglesX3* t) {
  *v = hull.vertices;
  t->resize(static_cast<Eigen::Index>(hull.triangles.size()), 3);
  for (size_t i = 0; i < hull.triangles.size(); ++i) t->row(i) = hull.triangles[i].transpose();
}

}  // namespace

std::vector<ColliderMesh> BuildColliderMeshes(const Scene& scene, const ColliderMeshOptions& options) {
  if (std::string why = options.Validate(); !why.empty()) throw InvalidArgument("collider meshes: " + why);
  std::vector<ColliderMesh> out;
  for (size_t i = 0; i < scene.colliders.size(); ++i) {
    const Collider& c = scene.colliders[i];
    ColliderMesh m;
    m.body = c.body;
    m.collider = static_cast<int>(i);
    m.friction = c.friction;
    PointsX3 local;
    if (const auto* s = std::get_if<Sphere>(&c.shape)) {
      SphereMesh sphere = FibonacciSphere(options.sphere_vertices, s->radius);
      local = std::move(sphere.vertices);
      m.triangles = std::move(sphere.triangles);
    } else if (const auto* b = std::get_if<Box>(&c.shape)) {
      BoxMesh(b->half_extents, Vec3::Zero(), &local, &m.triangles);
    } else if (std::holds_alternative<HalfSpace>(c.shape)) {
      // The half-space z <= 0 of its frame as a box whose top face is the plane.
      const double h = options.ground_half_size, d = options.ground_depth;
      BoxMesh(Vec3(h, h, 0.5 * d), Vec3(0.0, 0.0, -0.5 * d), &local, &m.triangles);
    } else if (const auto* hull = std::get_if<ConvexHull>(&c.shape); hull != nullptr && hull->radius == 0.0) {
      HullMesh(*hull->data, &local, &m.triangles);
    } else if (const auto* mesh = std::get_if<TriangleMesh>(&c.shape)) {
      local = mesh->data->vertices;
      m.triangles = mesh->data->triangles;
    } else {
      throw Unsupported("collider '" + c.name + "': shape '" + std::string(ToString(TypeOf(c.shape))) +
                        "' has no triangle mesh here (spheres, boxes, half-spaces, convex hulls and meshes do)");
    }
    m.vertices.resize(local.rows(), 3);
    for (Eigen::Index r = 0; r < local.rows(); ++r) m.vertices.row(r) = c.placement.Act(local.row(r).transpose()).transpose();
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace arena
