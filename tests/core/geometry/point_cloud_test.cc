#include "core/geometry/point_cloud.h"

#include <gtest/gtest.h>

#include <vector>

#include "core/common/error.h"
#include "core/geometry/convex_hull.h"
#include "core/geometry/mesh.h"
#include "core/geometry/signed_distance.h"
#include "tests/core/geometry/geometry_test_util.h"
#include "tests/test_paths.h"

namespace arena {
namespace point_cloud_test {

using testing_geometry::Rng;

std::vector<Shape> AllBoundedShapes() {
  Rng rng(71);
  PointsX3 P(25, 3);
  for (int i = 0; i < P.rows(); ++i) P.row(i) = rng.InBox(0.4).transpose();
  Eigen::Matrix<double, Eigen::Dynamic, 2> V(5, 2);
  V << 1, 0, 0.3, 0.9, -0.8, 0.5, -0.7, -0.6, 0.4, -0.9;
  return {Sphere{0.3},
          Box{Vec3(0.3, 0.2, 0.1)},
          Capsule{0.1, 0.3},
          Cylinder{0.2, 0.25},
          Ellipsoid{Vec3(0.4, 0.2, 0.1)},
          Cone{0.2, 0.6},
          MakeConvexHull(P),
          LoadMesh(::arena::testing::TestDataDir() + "/geometry/cube.obj"),
          MakePolygon2FromVertices(V),
          testing_geometry::PaddedSquare(0.2, 0.1, Vec2(0.05, -0.02)),
          MakePaddedPolygon2(MakePolygon2FromVertices(V).A, MakePolygon2FromVertices(V).b, 0.25),
          Disk2{0.4},
          Capsule2{0.2, 0.5}};
}

TEST(SamplePointCloud, PointsOnSurfaceWithUnitOutwardNormals) {
  for (const Shape& shape : AllBoundedShapes()) {
    SCOPED_TRACE(std::string(ToString(TypeOf(shape))));
    const OrientedPointCloud c = SamplePointCloud(shape, 2000, 5);
    ASSERT_EQ(c.points.rows(), 2000);
    const bool planar = IsPlanar(TypeOf(shape));
    for (int i = 0; i < c.points.rows(); ++i) {
      const Vec3 p = c.points.row(i).transpose(), n = c.normals.row(i).transpose();
      EXPECT_NEAR(n.norm(), 1.0, 1e-12);
      if (planar) {
        EXPECT_EQ(p.z(), 0.0);
        EXPECT_EQ(n.z(), 0.0);
        EXPECT_NEAR(PointDistance2(shape, p.head<2>()).distance, 0.0, 1e-12);
        // Outward: a small step along the normal leaves the shape by that step.
        EXPECT_NEAR(PointDistance2(shape, (p + 1e-4 * n).head<2>()).distance, 1e-4, 1e-8);
        EXPECT_LE(PointDistance2(shape, (p - 1e-4 * n).head<2>()).distance, 1e-12);
      } else {
        EXPECT_NEAR(PointDistance(shape, p).distance, 0.0, 1e-12);
        EXPECT_NEAR(PointDistance(shape, p + 1e-4 * n).distance, 1e-4, 1e-8);
        // Inward steps can meet another face sooner (edges); never later.
        EXPECT_LE(PointDistance(shape, p - 1e-4 * n).distance, 1e-12);
      }
    }
  }
}

TEST(SamplePointCloud, DeterministicGivenTheSeed) {
  for (const Shape& shape : AllBoundedShapes()) {
    const OrientedPointCloud a = SamplePointCloud(shape, 300, 42),
                             b = SamplePointCloud(shape, 300, 42);
    const OrientedPointCloud c = SamplePointCloud(shape, 300, 43);
    EXPECT_EQ(a.points, b.points);
    EXPECT_EQ(a.normals, b.normals);
    EXPECT_NE(a.points, c.points);
  }
  // A fixed value pins the generator and the [0, 1) mapping across standard libraries.
  const OrientedPointCloud s = SamplePointCloud(Sphere{1.0}, 1, 1);
  EXPECT_NEAR(s.points.row(0).norm(), 1.0, 1e-15);
  const OrientedPointCloud again = SamplePointCloud(Sphere{1.0}, 1, 1);
  EXPECT_EQ(s.points, again.points);
}

TEST(SamplePointCloud, AreaUniform) {
  // Fraction of samples per part equals its area fraction (binomial tolerance, 5 sigma).
  const int n = 40000;
  const auto expect_fraction = [&](int hits, double p) {
    const double sigma = std::sqrt(p * (1 - p) / n);
    EXPECT_NEAR(static_cast<double>(hits) / n, p, 5 * sigma);
  };
  // Cylinder: caps 2 pi r^2 of 2 pi r^2 + 4 pi r hl.
  const Cylinder cyl{0.2, 0.5};
  const OrientedPointCloud c = SamplePointCloud(cyl, n, 1);
  int caps = 0;
  for (int i = 0; i < n; ++i) caps += std::abs(c.normals(i, 2)) > 0.5;
  expect_fraction(caps, 0.08 / (0.08 + 0.4));
  // Sphere: z is uniform (Archimedes), so the upper quarter band z > 0.5 holds 1/4.
  const OrientedPointCloud s = SamplePointCloud(Sphere{1}, n, 2);
  int band = 0;
  for (int i = 0; i < n; ++i) band += s.points(i, 2) > 0.5;
  expect_fraction(band, 0.25);
  // Ellipsoid (2, 1, 1): the two x-caps |x| > 1.8 by numerical area of the spheroid.
  // Prolate spheroid a = 2 along x, b = 1: dA = 2 pi y(x) sqrt(1 + y'(x)^2) dx.
  const auto area = [](double x0, double x1) {
    double s = 0.0;
    const int m = 200000;
    for (int i = 0; i < m; ++i) {
      const double x = x0 + (i + 0.5) * (x1 - x0) / m;
      const double y = std::sqrt(1 - x * x / 4);
      const double dy = -x / (4 * y);
      s += 2 * M_PI * y * std::sqrt(1 + dy * dy) * (x1 - x0) / m;
    }
    return s;
  };
  const double caps_area = 2 * area(1.8, 2.0), total = 2 * area(0.0, 2.0);
  const OrientedPointCloud e = SamplePointCloud(Ellipsoid{Vec3(2, 1, 1)}, n, 3);
  int in_caps = 0;
  for (int i = 0; i < n; ++i) in_caps += std::abs(e.points(i, 0)) > 1.8;
  expect_fraction(in_caps, caps_area / total);
  // Cone: base pi r^2 of pi r^2 + pi r L.
  const Cone cone{0.3, 0.4};
  const OrientedPointCloud k = SamplePointCloud(cone, n, 4);
  int base = 0;
  for (int i = 0; i < n; ++i) base += k.normals(i, 2) < -0.99;
  expect_fraction(base, 0.3 / (0.3 + 0.5));
}

TEST(SamplePointCloud, PaddedPolygonIsLengthUniformOverEdgesAndArcs) {
  // Padded square (side 2h, radius r): the four corner arcs are 2 pi r of 8 h + 2 pi r of the
  // boundary; an arc sample sits at distance r from its corner, along its normal.
  const int n = 40000;
  const double h = 0.2, r = 0.1;
  const OrientedPointCloud c = SamplePointCloud(testing_geometry::PaddedSquare(h, r), n, 6);
  int arcs = 0;
  for (int i = 0; i < n; ++i) {
    const Vec2 p = c.points.row(i).head<2>().transpose();
    const Vec2 nrm = c.normals.row(i).head<2>().transpose();
    if (std::abs(p.x()) > h && std::abs(p.y()) > h) {
      ++arcs;
      const Vec2 corner(p.x() > 0 ? h : -h, p.y() > 0 ? h : -h);
      EXPECT_NEAR((p - corner).norm(), r, 1e-15);
      EXPECT_TRUE(nrm.isApprox((p - corner) / r, 1e-12));
    } else {
      EXPECT_NEAR(std::max(std::abs(p.x()), std::abs(p.y())), h + r, 1e-15);
    }
  }
  const double p_arc = 2 * M_PI * r / (8 * h + 2 * M_PI * r);
  EXPECT_NEAR(static_cast<double>(arcs) / n, p_arc, 5 * std::sqrt(p_arc * (1 - p_arc) / n));
}

TEST(SamplePointCloud, Errors) {
  EXPECT_THROW(SamplePointCloud(HalfSpace{}, 10, 1), InvalidArgument);
  EXPECT_THROW(SamplePointCloud(HalfPlane2{}, 10, 1), InvalidArgument);
  EXPECT_THROW(SamplePointCloud(Sphere{1}, -1, 1), InvalidArgument);
  EXPECT_EQ(SamplePointCloud(Sphere{1}, 0, 1).points.rows(), 0);
}

}  // namespace point_cloud_test
}  // namespace arena
