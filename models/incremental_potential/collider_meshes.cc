#include "models/incremental_potential/collider_meshes.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/common/enum_names.h"
#include "core/common/error.h"
#include "core/geometry/convex_hull.h"
#include "core/geometry/mesh.h"
#include "core/geometry/sphere_mesh.h"

namespace arena {

namespace {
constexpr EnumNameTable<GroundMesh, 2> kGroundMeshes = {{{GroundMesh::kBox, "box"}, {GroundMesh::kTop, "top"}}};
}  // namespace

std::string_view ToString(GroundMesh v) { return EnumName(v, kGroundMeshes); }
bool FromString(std::string_view text, GroundMesh* v) { return ParseEnum(text, kGroundMeshes, v); }
std::string EnumValues(GroundMesh) { return EnumList(kGroundMeshes); }

std::string ColliderMeshOptions::Validate() const {
  if (sphere_vertices < 12 || sphere_vertices > 100000) return "sphere_vertices must be in [12, 100000]";
  if (!(ground_half_size > 0.0) || !std::isfinite(ground_half_size)) return "ground_half_size must be > 0";
  if (!(ground_depth > 0.0) || !std::isfinite(ground_depth)) return "ground_depth must be > 0";
  if (!(box_max_edge >= 0.0) || !std::isfinite(box_max_edge)) return "box_max_edge must be >= 0 and finite";
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

// The box [-h, h] with every face a grid of cells at most `max_edge` long (n_a cells along axis
// a): the lattice points on the surface are shared by the faces, so the mesh stays closed.
void GridBoxMesh(const Vec3& h, double max_edge, PointsX3* v, TrianglesX3* t) {
  Eigen::Vector3i n;
  for (int a = 0; a < 3; ++a) n[a] = std::max(1, static_cast<int>(std::ceil(2.0 * h[a] / max_edge - 1e-9)));
  std::vector<int> id((n.x() + 1) * (n.y() + 1) * (n.z() + 1), -1);
  std::vector<Vec3> points;
  auto vertex = [&](const Eigen::Vector3i& i) {
    int& slot = id[(i.z() * (n.y() + 1) + i.y()) * (n.x() + 1) + i.x()];
    if (slot < 0) {
      slot = static_cast<int>(points.size());
      points.push_back(Vec3(-h.x() + 2.0 * h.x() * i.x() / n.x(), -h.y() + 2.0 * h.y() * i.y() / n.y(),
                            -h.z() + 2.0 * h.z() * i.z() / n.z()));
    }
    return slot;
  };
  std::vector<Eigen::Vector3i> tris;
  for (int a = 0; a < 3; ++a) {
    const int b = (a + 1) % 3, c = (a + 2) % 3;  // e_b x e_c = e_a
    for (int side = 0; side < 2; ++side) {
      for (int i = 0; i < n[b]; ++i) {
        for (int j = 0; j < n[c]; ++j) {
          Eigen::Vector3i k00 = Eigen::Vector3i::Zero();
          k00[a] = side * n[a], k00[b] = i, k00[c] = j;
          Eigen::Vector3i k10 = k00, k01 = k00, k11 = k00;
          k10[b] += 1, k01[c] += 1, k11[b] += 1, k11[c] += 1;
          const int p00 = vertex(k00), p10 = vertex(k10), p01 = vertex(k01), p11 = vertex(k11);
          if (side == 1) {  // outward +e_a
            tris.emplace_back(p00, p10, p11);
            tris.emplace_back(p00, p11, p01);
          } else {
            tris.emplace_back(p00, p11, p10);
            tris.emplace_back(p00, p01, p11);
          }
        }
      }
    }
  }
  v->resize(static_cast<Eigen::Index>(points.size()), 3);
  for (size_t i = 0; i < points.size(); ++i) v->row(i) = points[i].transpose();
  t->resize(static_cast<Eigen::Index>(tris.size()), 3);
  for (size_t i = 0; i < tris.size(); ++i) t->row(i) = tris[i].transpose();
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
      if (options.box_max_edge > 0.0) {
        GridBoxMesh(b->half_extents, options.box_max_edge, &local, &m.triangles);
      } else {
        BoxMesh(b->half_extents, Vec3::Zero(), &local, &m.triangles);
      }
    } else if (std::holds_alternative<HalfSpace>(c.shape)) {
      // The half-space z <= 0 of its frame as a box whose top face is the plane.
      const double h = options.ground_half_size, d = options.ground_depth;
      BoxMesh(Vec3(h, h, 0.5 * d), Vec3(0.0, 0.0, -0.5 * d), &local, &m.triangles);
      if (options.ground_mesh == GroundMesh::kTop) {
        const TrianglesX3 top = m.triangles.middleRows(2, 2);  // BoxMesh's z+ face
        m.triangles = top;
      }
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
  for (const auto& [a, b] : scene.CollisionPairs()) out[a].partners.push_back(b);
  return out;
}

}  // namespace arena
