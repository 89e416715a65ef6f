// MeshesIntersect (models/incremental_potential/mesh_intersection.h): crossing surfaces and nested closed meshes
// intersect, separated or touching-free ones do not, and an open ground face never contains.
#include "models/incremental_potential/mesh_intersection.h"

#include <gtest/gtest.h>

#include "core/geometry/mesh.h"
#include "core/geometry/sphere_mesh.h"

namespace arena {
namespace {

// Two meshes: a sphere of radius 0.1 at the origin and one of radius r at `centre`.
struct TwoSpheres {
  std::vector<ColliderMesh> meshes;
  ContactConfiguration x;
  TwoSpheres(double r, const Vec3& centre) {
    for (double radius : {0.1, r}) {
      const SphereMesh s = FibonacciSphere(60, radius);
      ColliderMesh m;
      m.vertices = s.vertices;
      m.triangles = s.triangles;
      meshes.push_back(m);
    }
    x.meshes = &meshes;
    x.pose = {SE3(), SE3::FromTranslation(centre)};
    x.world = {meshes[0].vertices, meshes[1].vertices};
    x.world[1].rowwise() += centre.transpose();
  }
};

TEST(MeshesIntersect, CrossingSurfacesAndNestedMeshes) {
  EXPECT_FALSE(MeshesIntersect(TwoSpheres(0.05, Vec3(0.0, 0.2, 0.0)).x, 0, 1)) << "apart";
  EXPECT_TRUE(MeshesIntersect(TwoSpheres(0.05, Vec3(0.1, 0.1, 0.0)).x, 0, 1)) << "surfaces cross";
  EXPECT_TRUE(MeshesIntersect(TwoSpheres(0.05, Vec3(0.0, 0.01, 0.0)).x, 0, 1)) << "inside";
  EXPECT_TRUE(MeshesIntersect(TwoSpheres(0.05, Vec3(0.0, 0.01, 0.0)).x, 1, 0)) << "either order";
  EXPECT_TRUE(MeshesIntersect(TwoSpheres(0.3, Vec3(0.0, 0.01, 0.0)).x, 0, 1)) << "contains";
}

TEST(MeshesIntersect, AnOpenGroundFaceNeverContains) {
  std::vector<ColliderMesh> meshes(2);
  meshes[0].vertices.resize(4, 3);
  meshes[0].vertices << -50, -50, 0, 50, -50, 0, 50, 50, 0, -50, 50, 0;
  meshes[0].triangles.resize(2, 3);
  meshes[0].triangles << 0, 1, 2, 0, 2, 3;
  const SphereMesh s = FibonacciSphere(30, 0.1);
  meshes[1].vertices = s.vertices;
  meshes[1].triangles = s.triangles;
  ContactConfiguration x;
  x.meshes = &meshes;
  x.pose = {SE3(), SE3()};
  x.world = {meshes[0].vertices, meshes[1].vertices};
  x.world[1].rowwise() += Vec3(0, 0, -0.5).transpose();  // below the face, not crossing it
  EXPECT_FALSE(MeshesIntersect(x, 0, 1));
  x.world[1].rowwise() += Vec3(0, 0, 0.45).transpose();  // now through it
  EXPECT_TRUE(MeshesIntersect(x, 0, 1));
}

}  // namespace
}  // namespace arena
