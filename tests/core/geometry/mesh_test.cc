#include "core/geometry/mesh.h"

#include <gtest/gtest.h>

#include <string>

#include "core/common/error.h"
#include "core/geometry/mass_properties.h"
#include "tests/test_paths.h"

namespace arena {
namespace mesh_test {

const std::string kData = ::arena::testing::TestDataDir() + "/geometry/";
const std::string kAtlas = "/usr/share/doc/dart/data/sdf/atlas/";

// Expects LoadMesh(path) to throw a ParseError whose file is `path` and whose reason contains
// `reason_part`.
void ExpectParseError(const std::string& path, const std::string& reason_part) {
  try {
    LoadMesh(path);
    ADD_FAILURE() << path << " loaded";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(e.reason().find(reason_part), std::string::npos) << e.reason();
  }
}

TEST(LoadMesh, AtlasLeftFootBinaryStl) {
  const TriangleMesh mesh = LoadMesh(kAtlas + "l_foot.stl");
  const TriangleMeshData& m = *mesh.data;
  EXPECT_EQ(m.triangles.rows(), 248);  // the count in the binary STL header
  // Joined vertices: far fewer than 3 per triangle (a closed surface has about T/2 + 2).
  EXPECT_LT(m.vertices.rows(), 3 * 248 / 2);
  EXPECT_EQ(m.face_normals.rows(), 248);
  for (int t = 0; t < m.face_normals.rows(); ++t) {
    const double n = m.face_normals.row(t).norm();
    EXPECT_TRUE(n == 0.0 || std::abs(n - 1.0) < 1e-12);
  }
  EXPECT_TRUE(m.bounds.IsBounded());
  for (int v = 0; v < m.vertices.rows(); ++v)
    EXPECT_TRUE(m.bounds.Contains(m.vertices.row(v).transpose()));
  EXPECT_EQ(m.bvh.num_primitives(), 248);
  ASSERT_TRUE(m.hull);
  // A foot is a few decimetres long.
  EXPECT_GT((m.bounds.upper - m.bounds.lower).maxCoeff(), 0.1);
  EXPECT_LT((m.bounds.upper - m.bounds.lower).maxCoeff(), 0.5);
}

TEST(LoadMesh, ScaleIsPerAxisAndNegativeScaleKeepsOutwardWinding) {
  const TriangleMesh base = LoadMesh(kData + "cube.obj");
  const TriangleMesh scaled = LoadMesh(kData + "cube.obj", Vec3(2, 3, 4));
  EXPECT_TRUE(scaled.data->bounds.upper.isApprox(Vec3(2, 3, 4)));
  EXPECT_NEAR(Volume(TriangleMesh{scaled.data}), 8.0 * 24.0, 1e-12);
  const TriangleMesh mirrored = LoadMesh(kData + "tetra_ascii.stl", Vec3(-1, 1, 1));
  // Outward winding: positive signed volume.
  double volume = 0.0;
  const auto& m = *mirrored.data;
  for (int t = 0; t < m.triangles.rows(); ++t) {
    const Vec3 a = m.vertices.row(m.triangles(t, 0)), b = m.vertices.row(m.triangles(t, 1)),
               c = m.vertices.row(m.triangles(t, 2));
    volume += a.dot(b.cross(c)) / 6.0;
  }
  EXPECT_NEAR(volume, 1.0 / 6.0, 1e-15);
  EXPECT_THROW(LoadMesh(kData + "cube.obj", Vec3(1, 0, 1)), InvalidArgument);
  (void)base;
}

TEST(LoadMesh, AsciiStlAndObjJoinIdenticalVertices) {
  const TriangleMesh tetra = LoadMesh(kData + "tetra_ascii.stl");
  EXPECT_EQ(tetra.data->vertices.rows(), 4);
  EXPECT_EQ(tetra.data->triangles.rows(), 4);
  EXPECT_TRUE(IsClosed(*tetra.data));
  const TriangleMesh cube = LoadMesh(kData + "cube.obj");
  EXPECT_EQ(cube.data->vertices.rows(), 8);
  EXPECT_EQ(cube.data->triangles.rows(), 12);  // quads triangulated
  EXPECT_TRUE(IsClosed(*cube.data));
  EXPECT_NEAR(Volume(cube), 8.0, 1e-12);
}

TEST(LoadMesh, ErrorsNameTheFileAndTheReason) {
  ExpectParseError(kData + "does_not_exist.stl", "not found");
  ExpectParseError(kData + "malformed.stl", "assimp");
  ExpectParseError(kData + "garbage.stl", "assimp");
  ExpectParseError(kData + "no_triangles.stl", "");
  ExpectParseError(kData, "is a directory, not a mesh file");
}

TEST(MakeTriangleMesh, ValidatesInputAndComputesNormals) {
  PointsX3 V(4, 3);
  V << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1;
  TrianglesX3 T(2, 3);
  T << 0, 1, 2, 0, 0, 1;  // the second triangle is degenerate
  const TriangleMesh mesh = MakeTriangleMesh(V, T);
  EXPECT_TRUE(mesh.data->face_normals.row(0).transpose().isApprox(Vec3::UnitZ()));
  EXPECT_EQ(mesh.data->face_normals.row(1).norm(), 0.0);
  EXPECT_FALSE(IsClosed(*mesh.data));
  TrianglesX3 bad(1, 3);
  bad << 0, 1, 4;
  EXPECT_THROW(MakeTriangleMesh(V, bad), InvalidArgument);
  EXPECT_THROW(MakeTriangleMesh(V, TrianglesX3(0, 3)), InvalidArgument);
  PointsX3 nan = V;
  nan(0, 0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(MakeTriangleMesh(nan, T.topRows(1)), InvalidArgument);
  // Coplanar vertices: no hull, but still a valid mesh.
  PointsX3 flat(4, 3);
  flat << 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0;
  TrianglesX3 quad(2, 3);
  quad << 0, 1, 3, 0, 3, 2;
  EXPECT_FALSE(MakeTriangleMesh(flat, quad).data->hull);
}

}  // namespace mesh_test
}  // namespace arena
