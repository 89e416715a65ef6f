#include "core/geometry/mass_properties.h"

#include <gtest/gtest.h>

#include <numbers>

#include "core/common/error.h"
#include "core/geometry/convex_hull.h"
#include "core/geometry/mesh.h"
#include "core/geometry/point_cloud.h"
#include "tests/core/geometry/geometry_test_util.h"
#include "tests/test_paths.h"

namespace arena {
namespace mass_properties_test {

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
  const TriangleMesh cube = LoadMesh(::arena::testing::TestDataDir() + "/geometry/cube.obj");
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

TEST(MassProperties, PaddedSquareClosedForm) {
  // Square of side s padded by r, split into the square, four s x r side strips and four quarter
  // disks at the corners. Polar moments about the centre:
  //   square                       s^4 / 6
  //   strip x in [s/2, s/2 + r]     int x^2 + y^2 = s ((s/2 + r)^3 - (s/2)^3) / 3 + r s^3 / 12
  //                                 = s^3 r / 3 + s^2 r^2 / 2 + s r^3 / 3
  //   quarter disk at c = (s/2, s/2): |c|^2 (pi r^2 / 4) + 2 c . (r^3 / 3, r^3 / 3) + pi r^4 / 8
  //                                 = pi r^2 s^2 / 8 + 2 s r^3 / 3 + pi r^4 / 8
  const double rho = 7.0;
  for (double s : {0.5, 1.0, 0.2}) {
    for (double r : {0.0, 0.05, 0.3, 1.0}) {
      const double area = s * s + 4 * s * r + kPi * r * r;
      const double polar = std::pow(s, 4) / 6 +
                           4 * (s * s * s * r / 3 + s * s * r * r / 2 + s * r * r * r / 3) +
                           4 * (kPi * r * r * s * s / 8 + 2 * s * r * r * r / 3 +
                                kPi * std::pow(r, 4) / 8);
      // Off-centre core, so the centroid and the parallel-axis shift are exercised too.
      const Vec2 centre(0.1 * s, -0.2 * s);
      const Polygon2 sq = testing_geometry::PaddedSquare(0.5 * s, r, centre);
      EXPECT_NEAR(Volume(sq), area, 1e-14 * area);
      const SpatialInertia m = MassProperties(sq, rho);
      EXPECT_NEAR(m.mass(), rho * area, 1e-13 * rho * area);
      EXPECT_LT((m.com() - Vec3(centre.x(), centre.y(), 0)).norm(), 1e-14);
      EXPECT_NEAR(m.inertia_com()(2, 2), rho * polar, 1e-13 * rho * polar);
      EXPECT_EQ(m.inertia_com()(0, 0), 0.0);
    }
  }
}

TEST(MassProperties, PaddedPolygonMatchesFinePolygonAndCapsuleLimit) {
  // An irregular padded pentagon against the polygon through many points of its boundary
  // (inscribed: area deficit ~ r^2 sum theta dtheta^2 / 12, about 1e-6 relative here).
  Eigen::Matrix<double, Eigen::Dynamic, 2> V(5, 2);
  V << 0.6, 0.1, 0.1, 0.5, -0.5, 0.3, -0.3, -0.4, 0.4, -0.5;
  const Polygon2 core = MakePolygon2FromVertices(V);
  const double r = 0.2;
  const Polygon2 padded = MakePaddedPolygon2(core.A, core.b, r);
  const std::vector<Vec2> boundary = testing_geometry::PaddedBoundary(padded, 0, 80);
  Eigen::Matrix<double, Eigen::Dynamic, 2> P(static_cast<int>(boundary.size()), 2);
  for (size_t i = 0; i < boundary.size(); ++i) P.row(static_cast<int>(i)) = boundary[i].transpose();
  const SpatialInertia fine = MassProperties(MakePolygon2FromVertices(P), 2.0);
  const SpatialInertia exact = MassProperties(padded, 2.0);
  EXPECT_NEAR(exact.mass(), fine.mass(), 1e-5 * fine.mass());
  EXPECT_LT((exact.com() - fine.com()).norm(), 1e-5);
  EXPECT_NEAR(exact.inertia_com()(2, 2), fine.inertia_com()(2, 2), 1e-5 * fine.inertia_com()(2, 2));
  // Area = core area + perimeter r + pi r^2.
  double perimeter = 0.0;
  for (int i = 0; i < core.vertices.rows(); ++i)
    perimeter += (core.vertices.row((i + 1) % core.vertices.rows()) - core.vertices.row(i)).norm();
  EXPECT_NEAR(Volume(padded), Volume(core) + perimeter * r + kPi * r * r, 1e-14);
  // A thin padded rectangle (2 hl x 2 eps) tends to the capsule of the same radius.
  const double hl = 0.5, eps = 1e-8;
  Eigen::Matrix<double, Eigen::Dynamic, 2> A(4, 2);
  A << 1, 0, -1, 0, 0, 1, 0, -1;
  VecX b(4);
  b << hl, hl, eps, eps;
  const SpatialInertia thin = MassProperties(MakePaddedPolygon2(A, b, 0.2), 3.0);
  const SpatialInertia cap = MassProperties(Capsule2{0.2, hl}, 3.0);
  EXPECT_NEAR(thin.mass(), cap.mass(), 1e-7 * cap.mass());
  EXPECT_LT(thin.com().norm(), 1e-12);
  EXPECT_NEAR(thin.inertia_com()(2, 2), cap.inertia_com()(2, 2), 1e-7 * cap.inertia_com()(2, 2));
}

}  // namespace mass_properties_test
}  // namespace arena
