#include "core/geometry/convex_hull.h"

#include <gtest/gtest.h>

#include <set>

#include "core/common/error.h"
#include "core/geometry/mesh.h"
#include "tests/core/geometry/geometry_test_util.h"

namespace arena {
namespace convex_hull_test {

using testing_geometry::Rng;
using testing_geometry::SoakFactor;

PointsX3 CubeCorners(double h) {
  PointsX3 P(8, 3);
  for (int i = 0; i < 8; ++i) {
    P.row(i) << (i & 1 ? h : -h), (i & 2 ? h : -h), (i & 4 ? h : -h);
  }
  return P;
}

// Every structural property a hull must have, whatever its input.
void ExpectValidHull(const ConvexHullData& h, const PointsX3& input) {
  const int nv = static_cast<int>(h.vertices.rows());
  const int nf = static_cast<int>(h.face_normals.rows());
  ASSERT_EQ(h.input_indices.size(), static_cast<size_t>(nv));
  ASSERT_EQ(h.triangle_faces.size(), h.triangles.size());
  const double scale = input.cwiseAbs().maxCoeff();
  for (int v = 0; v < nv; ++v) {
    // Each hull vertex is exactly an input point.
    EXPECT_EQ(h.vertices.row(v), input.row(h.input_indices[v]));
  }
  for (int f = 0; f < nf; ++f) {
    EXPECT_NEAR(h.face_normals.row(f).norm(), 1.0, 1e-12);
    // Every input point is inside every facet's half-space.
    for (int i = 0; i < input.rows(); ++i) {
      EXPECT_LE(h.face_normals.row(f).dot(input.row(i)), h.face_offsets[f] + 1e-10 * scale);
    }
  }
  // Triangles lie on their facet's plane and wind counter-clockwise seen from outside.
  double volume = 0.0;
  for (size_t t = 0; t < h.triangles.size(); ++t) {
    const Vec3 a = h.vertices.row(h.triangles[t][0]), b = h.vertices.row(h.triangles[t][1]),
               c = h.vertices.row(h.triangles[t][2]);
    const Vec3 n = h.face_normals.row(h.triangle_faces[t]);
    EXPECT_GT((b - a).cross(c - a).dot(n), 0.0);
    for (const Vec3& p : {a, b, c}) {
      EXPECT_NEAR(n.dot(p), h.face_offsets[h.triangle_faces[t]], 1e-9 * scale);
    }
    volume += a.dot(b.cross(c)) / 6.0;
  }
  EXPECT_GT(volume, 0.0);
  // Euler's formula for the facet complex of a convex polytope: V - E + F = 2.
  EXPECT_EQ(nv - static_cast<int>(h.edges.size()) + nf, 2);
  // Closed triangulated surface: E_tri = 3 T / 2 and V - E_tri + T = 2.
  EXPECT_EQ(
      nv - 3 * static_cast<int>(h.triangles.size()) / 2 + static_cast<int>(h.triangles.size()), 2);
  ASSERT_EQ(h.vertex_neighbors.size(), static_cast<size_t>(nv));
}

TEST(ConvexHull, CubeHasEightVerticesTwelveTrianglesSixFacesTwelveEdges) {
  const PointsX3 P = CubeCorners(0.5);
  const ConvexHull hull = MakeConvexHull(P);
  const ConvexHullData& h = *hull.data;
  EXPECT_EQ(h.vertices.rows(), 8);
  EXPECT_EQ(h.triangles.size(), 12u);
  EXPECT_EQ(h.face_normals.rows(), 6);
  EXPECT_EQ(h.edges.size(), 12u);
  for (int f = 0; f < 6; ++f) {
    EXPECT_NEAR(h.face_normals.row(f).cwiseAbs().maxCoeff(), 1.0, 1e-12);
    EXPECT_NEAR(h.face_offsets[f], 0.5, 1e-12);
  }
  ExpectValidHull(h, P);
}

TEST(ConvexHull, InteriorAndFacePointsAreNotVertices) {
  PointsX3 P(11, 3);
  P.topRows(8) = CubeCorners(1.0);
  P.row(8) << 0, 0, 0;      // centre
  P.row(9) << 1, 0.2, 0.3;  // on a face
  P.row(10) << 1, 1, 0;     // on an edge
  const ConvexHull hull = MakeConvexHull(P);
  EXPECT_EQ(hull.data->vertices.rows(), 8);
  ExpectValidHull(*hull.data, P);
}

TEST(ConvexHull, RandomPointsAreContainedAndVerticesAreInputPoints) {
  Rng rng(31);
  const int trials = 20 * SoakFactor();
  for (int k = 0; k < trials; ++k) {
    const int n = 4 + rng.Int(300);
    PointsX3 P(n, 3);
    for (int i = 0; i < n; ++i) P.row(i) = (rng.InBox(1.0) + Vec3(3, -2, 1)).transpose();
    const ConvexHull hull = MakeConvexHull(P);
    ExpectValidHull(*hull.data, P);
  }
}

TEST(ConvexHull, SupportVertexMatchesLinearScan) {
  Rng rng(32);
  PointsX3 P(2000, 3);
  for (int i = 0; i < P.rows(); ++i)
    P.row(i) = (rng.UnitVector() * rng.Uniform(0.9, 1.0)).transpose();
  const ConvexHull hull = MakeConvexHull(P);
  ASSERT_GT(hull.data->vertices.rows(), 32);  // exercises hill climbing
  for (int q = 0; q < 500 * SoakFactor(); ++q) {
    const Vec3 d = rng.UnitVector();
    const int v = HullSupportVertex(*hull.data, d);
    const double best = (hull.data->vertices * d).maxCoeff();
    EXPECT_DOUBLE_EQ(hull.data->vertices.row(v).dot(d), best);
  }
}

TEST(ConvexHull, ErrorsForTooFewOrCoplanarPointsAndQhullStaysQuiet) {
  EXPECT_THROW(MakeConvexHull(CubeCorners(1.0).topRows(3)), InvalidArgument);
  PointsX3 flat(5, 3);
  flat << 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0.5, 0.2, 0;
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  try {
    MakeConvexHull(flat);
    ADD_FAILURE() << "coplanar input accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("qhull"), std::string::npos) << e.what();
  }
  PointsX3 collinear(4, 3);
  collinear << 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3;
  EXPECT_THROW(MakeConvexHull(collinear), InvalidArgument);
  MakeConvexHull(CubeCorners(1.0));
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  PointsX3 bad = CubeCorners(1.0);
  bad(0, 0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(MakeConvexHull(bad), InvalidArgument);
}

TEST(ConvexHull, OfMeshUsesItsVertices) {
  PointsX3 V = CubeCorners(2.0);
  TrianglesX3 T(1, 3);
  T << 0, 1, 2;  // one triangle is enough: the hull is of the vertices
  const TriangleMesh mesh = MakeTriangleMesh(V, T);
  const ConvexHull hull = ConvexHullOfMesh(mesh);
  EXPECT_EQ(hull.data->vertices.rows(), 8);
  ASSERT_TRUE(mesh.data->hull);
  EXPECT_EQ(mesh.data->hull->vertices.rows(), 8);
}

}  // namespace convex_hull_test
}  // namespace arena
