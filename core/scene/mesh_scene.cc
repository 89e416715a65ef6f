// A mesh file as a scene: one free body of uniform density carrying the mesh collider.
#include <cmath>
#include <filesystem>

#include "core/common/error.h"
#include "core/geometry/mesh.h"
#include "core/scene/loader.h"
#include "core/scene/source_elements.h"

namespace arena {

namespace {

constexpr double kDensity = 1000.0;  // kg/m^3

// Mass properties of the solid bounded by a closed, outward-oriented triangle surface, from the
// signed tetrahedra (origin, a, b, c): volume a.(b x c)/6 and second moment
// int x x^T dV = V/20 (a a^T + b b^T + c c^T + s s^T), s = a + b + c.
SpatialInertia SolidFromSurface(const PointsX3& vertices, const TrianglesX3& triangles,
                                double density) {
  double volume = 0.0;
  Vec3 first = Vec3::Zero();   // int x dV
  Mat3 second = Mat3::Zero();  // int x x^T dV
  for (int t = 0; t < triangles.rows(); ++t) {
    const Vec3 a = vertices.row(triangles(t, 0)).transpose();
    const Vec3 b = vertices.row(triangles(t, 1)).transpose();
    const Vec3 c = vertices.row(triangles(t, 2)).transpose();
    const double v = a.dot(b.cross(c)) / 6.0;
    const Vec3 s = a + b + c;
    volume += v;
    first += v * s / 4.0;
    second += v / 20.0 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
  }
  if (volume < 0.0) {  // inward winding: the same solid with every sign flipped
    volume = -volume;
    first = -first;
    second = -second;
  }
  if (!(volume > 0.0)) return SpatialInertia();
  const double mass = density * volume;
  const Vec3 com = first / volume;
  const Mat3 C = density * second - mass * com * com.transpose();  // about the COM
  const Mat3 I = C.trace() * Mat3::Identity() - C;
  return SpatialInertia(mass, com, 0.5 * (I + I.transpose()));
}

}  // namespace

Scene LoadMeshScene(const std::string& path) {
  const TriangleMesh mesh = LoadMesh(path);  // ParseError naming the file when malformed
  const TriangleMeshData& data = *mesh.data;
  // A closed surface gives the solid's own inertia; an open one falls back to its hull.
  SpatialInertia inertia;
  if (IsClosed(data)) {
    inertia = SolidFromSurface(data.vertices, data.triangles, kDensity);
  } else if (data.hull) {
    const ConvexHullData& hull = *data.hull;
    TrianglesX3 tris(static_cast<int>(hull.triangles.size()), 3);
    for (size_t i = 0; i < hull.triangles.size(); ++i) {
      tris.row(static_cast<int>(i)) = hull.triangles[i].transpose();
    }
    inertia = SolidFromSurface(hull.vertices, tris, kDensity);
  }
  if (!(inertia.mass() > 0.0)) {
    throw ParseError(path, "",
                     "the mesh encloses no volume (flat or degenerate), so it has no mass; a mesh "
                     "scene needs a closed solid");
  }

  Scene scene;
  scene.name = std::filesystem::path(path).stem().string();
  scene.source = path;
  JointModel joint;
  joint.type = JointType::kFree;
  joint.name = scene.name;
  scene.model.AddBody(scene.name, kWorldBody, joint, inertia);
  Collider c;
  c.name = scene.name;
  c.body = 0;
  c.shape = mesh;
  scene.colliders.push_back(std::move(c));
  ValidateLoadedScene(scene, path, SourceElements{});
  return scene;
}

}  // namespace arena
