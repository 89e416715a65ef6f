#include "core/geometry/mass_properties.h"

#include <gtest/gtest.h>

#include <numbers>

#include "core/common/error.h"
#include "core/geometry/convex_hull.h"
#include "core/geometry/mesh.h"
#include "core/geometry/point_cloud.h"

namespace arena {
namespace {

constexpr double kPi = std::numbers::pi;

TriangleMesh BoxMesh(const Vec3& h, const Vec3& offset = Vec3::Zero()) {
  PointsX3 V(8, 3);
  for (int i = 0; i < 8; ++i) {
    V.row(i) = (Vec3((i & 1 ? h.x() : -h.x()), (i & 2 ? h.y() : -h.y()), (i & 4 ? h.z() : -h.z())) +
                offset)
                   .transpose();
  }
  TrianglesX3 T(12, 3);
  T << 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1,
      3, 7, 1, 7, 5;
  return MakeTriangleMesh(V, T);
}

void ExpectInertiaNear(const SpatialInertia& a, const SpatialInertia& b, double rel) {
  EXPECT_NEAR(a.mass(), b.mass(), rel * b.mass());
  EXPECT_LT((a.com() - b.com()).norm(), rel);
  EXPECT_LT((a.inertia_com() - b.inertia_com()).norm(), rel * b.inertia_com().norm());
}

// Hull of many surface samples of a shape: converges to the shape's mass properties.
SpatialInertia SampledHull(const Shape& shape, int n) {
  return MassProperties(MakeConvexHull(SamplePointCloud(shape, n, 17).points), 1000.0);
}

TEST(MassProperties, PrimitivesMatchClosedForms) {
  const double rho = 1000.0;
  const SpatialInertia s = MassProperties(Sphere{0.5}, rho);
  EXPECT_NEAR(s.mass(), rho * 4.0 / 3.0 * kPi * 0.125, 1e-9);
  EXPECT_NEAR(s.inertia_com()(0, 0), 0.4 * s.mass() * 0.25, 1e-9);
  const SpatialInertia b = MassProperties(Box{Vec3(0.5, 1, 1.5)}, rho);
  EXPECT_NEAR(b.mass(), rho * 6.0, 1e-9);
  EXPECT_NEAR(b.inertia_com()(2, 2), b.mass() * (1 + 4) / 12.0, 1e-9);
  const SpatialInertia e = MassProperties(Ellipsoid{Vec3(1, 2, 3)}, rho);
  EXPECT_NEAR(e.mass(), rho * 4.0 / 3.0 * kPi * 6, 1e-6);
  EXPECT_NEAR(e.inertia_com()(0, 0), e.mass() * (4 + 9) / 5.0, 1e-6);
  EXPECT_NEAR(Volume(Cone{1, 3}), kPi, 1e-12);
  EXPECT_NEAR(Volume(Capsule{1, 1}), kPi * (2 + 4.0 / 3.0), 1e-12);
  EXPECT_NEAR(Volume(Cylinder{1, 1}), 2 * kPi, 1e-12);
  EXPECT_THROW(MassProperties(Sphere{1}, 0.0), InvalidArgument);
  EXPECT_THROW(MassProperties(HalfSpace{}, 1.0), InvalidArgument);
  EXPECT_THROW(Volume(HalfPlane2{}), InvalidArgument);
}

TEST(MassProperties, MeshOfABoxIsTheBox) {
  const Vec3 h(0.3, 0.2, 0.1), offset(1, -2, 0.5);
  const SpatialInertia m = MassProperties(BoxMesh(h, offset), 800.0);
  const SpatialInertia ref = MassProperties(Box{h}, 800.0);
  EXPECT_NEAR(m.mass(), ref.mass(), 1e-12 * ref.mass());
  EXPECT_LT((m.com() - offset).norm(), 1e-12);
  EXPECT_LT((m.inertia_com() - ref.inertia_com()).norm(), 1e-12 * ref.inertia_com().norm());
  // The same through the hull of the corners.
  const ConvexHull hull = ConvexHullOfMesh(BoxMesh(h, offset));
  ExpectInertiaNear(MassProperties(hull, 800.0),
                    SpatialInertia(ref.mass(), offset, ref.inertia_com()), 1e-12);
  // Loaded from file.
  const TriangleMesh cube = LoadMesh(std::string(ARENA_TEST_DATA_DIR) + "/geometry/cube.obj");
  ExpectInertiaNear(MassProperties(cube, 1.0), MassProperties(Box{Vec3::Ones()}, 1.0), 1e-12);
}

TEST(MassProperties, InsideOutMeshIsFlippedOpenMeshIsRejected) {
  const TriangleMesh box = BoxMesh(Vec3(1, 1, 1));
  TrianglesX3 T = box.data->triangles;
  T.col(1).swap(T.col(2));
  const TriangleMesh inverted = MakeTriangleMesh(box.data->vertices, T);
  EXPECT_NEAR(MassProperties(inverted, 1.0).mass(), 8.0, 1e-12);
  const TriangleMesh open = MakeTriangleMesh(box.data->vertices, box.data->triangles.topRows(10));
  EXPECT_THROW(MassProperties(open, 1.0), InvalidArgument);
}

TEST(MassProperties, HullsOfSampledSurfacesConvergeToCurvedShapes) {
  // Inscribed polytopes lose volume of order (spacing)^2: 20000 samples give ~0.1-1 %.
  ExpectInertiaNear(SampledHull(Sphere{0.5}, 20000), MassProperties(Sphere{0.5}, 1000.0), 5e-3);
  ExpectInertiaNear(SampledHull(Ellipsoid{Vec3(0.5, 0.3, 0.2)}, 20000),
                    MassProperties(Ellipsoid{Vec3(0.5, 0.3, 0.2)}, 1000.0), 5e-3);
  ExpectInertiaNear(SampledHull(Cylinder{0.3, 0.4}, 20000),
                    MassProperties(Cylinder{0.3, 0.4}, 1000.0), 1e-2);
  ExpectInertiaNear(SampledHull(Capsule{0.2, 0.3}, 20000),
                    MassProperties(Capsule{0.2, 0.3}, 1000.0), 1e-2);
  // The cone's frame origin is its centroid, so the sampled hull's COM is near zero.
  ExpectInertiaNear(SampledHull(Cone{0.3, 0.6}, 20000), MassProperties(Cone{0.3, 0.6}, 1000.0),
                    1e-2);
}

TEST(MassProperties, PlanarShapes) {
  Eigen::Matrix<double, Eigen::Dynamic, 2> V(4, 2);
  V << 0, 0, 2, 0, 2, 1, 0, 1;  // 2 x 1 rectangle centred at (1, 0.5)
  // MakePolygon2FromVertices needs the origin inside: shift by the centre, then compare COM.
  Eigen::Matrix<double, Eigen::Dynamic, 2> C = V.rowwise() - Eigen::RowVector2d(1.0, 0.4);
  const SpatialInertia r = MassProperties(MakePolygon2FromVertices(C), 10.0);
  EXPECT_NEAR(r.mass(), 20.0, 1e-12);
  EXPECT_LT((r.com() - Vec3(0, 0.1, 0)).norm(), 1e-12);
  EXPECT_NEAR(r.inertia_com()(2, 2), 20.0 * (4 + 1) / 12.0, 1e-12);
  EXPECT_EQ(r.inertia_com()(0, 0), 0.0);
  const SpatialInertia d = MassProperties(Disk2{0.5}, 4.0);
  EXPECT_NEAR(d.mass(), 4.0 * kPi * 0.25, 1e-12);
  EXPECT_NEAR(d.inertia_com()(2, 2), 0.5 * d.mass() * 0.25, 1e-12);
  // Capsule2 against a fine polygon of its boundary (area deficit ~ (2 pi / n)^2 / 6 of the
  // disk part; MakePolygon2 is cubic in n, so n stays moderate).
  const Capsule2 cap{0.2, 0.5};
  const int n = 400;
  Eigen::Matrix<double, Eigen::Dynamic, 2> P(n, 2);
  for (int i = 0; i < n; ++i) {
    const double th = 2 * kPi * i / n;
    P.row(i) << 0.2 * std::cos(th) + (std::cos(th) >= 0 ? 0.5 : -0.5), 0.2 * std::sin(th);
  }
  const SpatialInertia pc = MassProperties(MakePolygon2FromVertices(P), 3.0);
  const SpatialInertia cc = MassProperties(cap, 3.0);
  EXPECT_NEAR(pc.mass(), cc.mass(), 1e-4 * cc.mass());
  EXPECT_NEAR(pc.inertia_com()(2, 2), cc.inertia_com()(2, 2), 1e-4 * cc.inertia_com()(2, 2));
  EXPECT_NEAR(Volume(cap), 0.4 * 1.0 + kPi * 0.04, 1e-12);
}

}  // namespace
}  // namespace arena
