#include "core/geometry/support.h"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "core/common/error.h"
#include "core/geometry/convex_hull.h"
#include "core/geometry/mesh.h"
#include "core/geometry/point_cloud.h"
#include "core/geometry/signed_distance.h"
#include "tests/core/geometry/geometry_test_util.h"

namespace arena {
namespace support_test {

using testing_geometry::Rng;
using testing_geometry::SoakFactor;


std::vector<Shape> BoundedShapes3() {
  Rng rng(41);
  PointsX3 P(40, 3);
  for (int i = 0; i < P.rows(); ++i) P.row(i) = rng.InBox(0.5).transpose();
  PointsX3 V(8, 3);
  for (int i = 0; i < 8; ++i)
    V.row(i) << (i & 1 ? 0.3 : -0.3), (i & 2 ? 0.2 : -0.2), (i & 4 ? 0.1 : -0.1);
  TrianglesX3 T(12, 3);
  T << 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1,
      3, 7, 1, 7, 5;
  return {Sphere{0.3},         Box{Vec3(0.3, 0.2, 0.1)},       Capsule{0.1, 0.3},
          Cylinder{0.2, 0.25}, Ellipsoid{Vec3(0.3, 0.2, 0.1)}, Cone{0.2, 0.6},
          MakeConvexHull(P),   MakeTriangleMesh(V, T)};
}

TEST(Support, IsOnTheSurfaceAndMaximisesOverSurfaceSamples) {
  Rng rng(42);
  for (const Shape& shape : BoundedShapes3()) {
    SCOPED_TRACE(std::string(ToString(TypeOf(shape))));
    const OrientedPointCloud cloud = SamplePointCloud(shape, 3000, 7);
    for (int q = 0; q < 100 * SoakFactor(); ++q) {
      const Vec3 d = rng.UnitVector();
      const Vec3 s = Support(shape, d);
      EXPECT_NEAR(PointDistance(shape, s).distance, 0.0, 1e-12);
      EXPECT_GE(d.dot(s), (cloud.points * d).maxCoeff() - 1e-12);
      // Scale invariance in the direction.
      EXPECT_NEAR(d.dot(Support(shape, 7.5 * d)), d.dot(s), 1e-14);
    }
    EXPECT_TRUE(Support(shape, Vec3::Zero()).allFinite());
  }
}

TEST(Support, ConeClosedForm) {
  const Cone cone{1.0, 2.0};  // base at z = -0.5, apex at z = 1.5
  EXPECT_TRUE(Support(cone, Vec3::UnitZ()).isApprox(Vec3(0, 0, 1.5)));
  EXPECT_TRUE(Support(cone, Vec3(1, 0, 0)).isApprox(Vec3(1, 0, -0.5)));
  EXPECT_TRUE(Support(cone, Vec3(0, -1, -1)).isApprox(Vec3(0, -1, -0.5)));
  EXPECT_NEAR(Support(cone, -Vec3::UnitZ()).z(), -0.5, 0.0);
  // Directions above the lateral normal (h, r) = (2, 1) pick the apex, below it the rim.
  EXPECT_TRUE(Support(cone, Vec3(1.9, 0, 1)).isApprox(Vec3(0, 0, 1.5)));
  EXPECT_TRUE(Support(cone, Vec3(2.1, 0, 1)).isApprox(Vec3(1, 0, -0.5)));
  EXPECT_TRUE(Support(cone, Vec3(1.0, 0, 0.6)).isApprox(Vec3(0, 0, 1.5)));
  // Along the lateral normal both are maximisers.
  const Vec3 d(2, 0, 1);
  EXPECT_NEAR(d.dot(Support(cone, d)), d.dot(Vec3(0, 0, 1.5)), 1e-15);
}

TEST(Support, BoxAndCylinderAndCapsuleClosedForms) {
  EXPECT_TRUE(Support(Box{Vec3(1, 2, 3)}, Vec3(-1, 0.5, -2)).isApprox(Vec3(-1, 2, -3)));
  EXPECT_TRUE(Support(Cylinder{2, 1}, Vec3(0, 3, 1)).isApprox(Vec3(0, 2, 1)));
  EXPECT_TRUE(Support(Cylinder{2, 1}, Vec3(0, 0, -1)).isApprox(Vec3(0, 0, -1)));
  EXPECT_TRUE(Support(Capsule{0.5, 1}, Vec3(1, 0, 1))
                  .isApprox(Vec3(std::sqrt(0.125), 0, 1 + std::sqrt(0.125))));
  EXPECT_TRUE(Support(Ellipsoid{Vec3(1, 2, 3)}, Vec3(0, 1, 0)).isApprox(Vec3(0, 2, 0)));
}

TEST(Support2, PolygonDiskCapsuleMaximiseOverBoundarySamples) {
  Eigen::Matrix<double, Eigen::Dynamic, 2> V(5, 2);
  V << 1, 0, 0.3, 0.9, -0.8, 0.5, -0.7, -0.6, 0.4, -0.9;
  const std::vector<Shape> shapes = {MakePolygon2FromVertices(V), Disk2{0.4}, Capsule2{0.2, 0.5}};
  Rng rng(43);
  for (const Shape& shape : shapes) {
    SCOPED_TRACE(std::string(ToString(TypeOf(shape))));
    const OrientedPointCloud cloud = SamplePointCloud(shape, 3000, 3);
    for (int q = 0; q < 100; ++q) {
      const double th = rng.Uniform(-3.2, 3.2);
      const Vec2 d(std::cos(th), std::sin(th));
      const Vec2 s = Support2(shape, d);
      EXPECT_NEAR(PointDistance2(shape, s).distance, 0.0, 1e-12);
      EXPECT_GE(d.dot(s), (cloud.points.leftCols<2>() * d).maxCoeff() - 1e-12);
    }
  }
}

TEST(Support2, PaddedPolygonIsTheCoreSupportPlusTheRadius) {
  Eigen::Matrix<double, Eigen::Dynamic, 2> V(5, 2);
  V << 1, 0, 0.3, 0.9, -0.8, 0.5, -0.7, -0.6, 0.4, -0.9;
  const Polygon2 core = MakePolygon2FromVertices(V);
  const double r = 0.15;
  const Polygon2 padded = MakePaddedPolygon2(core.A, core.b, r);
  // Brute force from the definition of the Minkowski sum: core boundary points c (edges sampled
  // with their end points) plus r (cos a, sin a) over a fine grid of angles.
  std::vector<Vec2> cores;
  const int n = static_cast<int>(V.rows());
  for (int i = 0; i < n; ++i) {
    const Vec2 a = core.vertices.row(i).transpose(), b = core.vertices.row((i + 1) % n).transpose();
    for (int k = 0; k <= 200; ++k) cores.push_back(a + (b - a) * (k / 200.0));
  }
  std::vector<Vec2> disk;
  for (int k = 0; k < 720; ++k) {
    disk.push_back(r * Vec2(std::cos(k * M_PI / 360), std::sin(k * M_PI / 360)));
  }
  Rng rng(45);
  for (int q = 0; q < 100 * SoakFactor(); ++q) {
    const double th = rng.Uniform(-3.2, 3.2);
    const Vec2 d(std::cos(th), std::sin(th));
    double best_core = -kInf, best_disk = -kInf;  // max over a sum of sets is the sum of maxima
    for (const Vec2& c : cores) best_core = std::max(best_core, d.dot(c));
    for (const Vec2& e : disk) best_disk = std::max(best_disk, d.dot(e));
    const double brute = best_core + best_disk;
    const Vec2 s = Support2(padded, 3.0 * d);  // direction need not be unit
    EXPECT_GE(d.dot(s), brute - 1e-12);        // no point of the sum beats it
    EXPECT_LE(d.dot(s), brute + r * 1e-4);     // and it is attained (angular grid resolution)
    // Exactly the core's support value plus r, and on the padded boundary.
    EXPECT_NEAR(d.dot(s), d.dot(Support2(core, d)) + r, 1e-14);
    EXPECT_NEAR(PointDistance2(padded, s).distance, 0.0, 1e-12);
  }
  EXPECT_TRUE(Support2(padded, Vec2::Zero()).allFinite());
  // Zero padding is the plain polygon, bit for bit.
  const Polygon2 zero = MakePaddedPolygon2(core.A, core.b, 0.0);
  EXPECT_EQ(Support2(zero, Vec2(0.3, -0.7)), Support2(core, Vec2(0.3, -0.7)));
}

TEST(Support, RejectsUnboundedAndWrongDimension) {
  EXPECT_THROW(Support(HalfSpace{}, Vec3::UnitZ()), InvalidArgument);
  EXPECT_THROW(Support(Disk2{1}, Vec3::UnitZ()), InvalidArgument);
  EXPECT_THROW(Support2(Sphere{1}, Vec2::UnitX()), InvalidArgument);
  EXPECT_THROW(Support2(HalfPlane2{}, Vec2::UnitX()), InvalidArgument);
}

TEST(ComputeAabb, ExactForPosedShapes) {
  Rng rng(44);
  for (const Shape& shape : BoundedShapes3()) {
    SCOPED_TRACE(std::string(ToString(TypeOf(shape))));
    const OrientedPointCloud cloud = SamplePointCloud(shape, 4000, 9);
    for (int q = 0; q < 20; ++q) {
      const SE3 X = rng.Pose(2.0);
      const Aabb box = ComputeAabb(shape, X);
      Aabb samples;
      for (int i = 0; i < cloud.points.rows(); ++i) {
        const Vec3 p = X.Act(cloud.points.row(i).transpose());
        EXPECT_TRUE(box.Inflated(1e-12).Contains(p));
        samples.Extend(p);
      }
      // Tight: the sampled box is not much smaller (sampling resolution).
      EXPECT_LT((box.upper - samples.upper).maxCoeff(), 0.05);
      EXPECT_LT((samples.lower - box.lower).maxCoeff(), 0.05);
    }
  }
  // Closed forms.
  const SE3 X(Mat3::Identity(), Vec3(1, 2, 3));
  const Aabb s = ComputeAabb(Sphere{0.5}, X);
  EXPECT_TRUE(s.lower.isApprox(Vec3(0.5, 1.5, 2.5)) && s.upper.isApprox(Vec3(1.5, 2.5, 3.5)));
  const Aabb c = ComputeAabb(Cylinder{1, 2}, SE3(ExpSO3(Vec3(M_PI / 2, 0, 0)), Vec3::Zero()));
  EXPECT_TRUE(c.upper.isApprox(Vec3(1, 2, 1)));
}

TEST(ComputeAabb, HalfSpaceIsUnboundedInItsPlane) {
  const Aabb up = ComputeAabb(HalfSpace{}, SE3::FromTranslation(Vec3(0, 0, 0.25)));
  EXPECT_EQ(up.upper, Vec3(kInf, kInf, 0.25));
  EXPECT_EQ(up.lower, Vec3(-kInf, -kInf, -kInf));
  // Rotated half a turn about x: z >= 1 in the world.
  const Aabb down = ComputeAabb(HalfSpace{}, SE3(ExpSO3(Vec3(M_PI, 0, 0)), Vec3(0, 0, 1)));
  EXPECT_EQ(down.lower.z(), 1.0);
  EXPECT_EQ(down.upper.z(), kInf);
  // Tilted: unbounded everywhere.
  const Aabb tilted = ComputeAabb(HalfSpace{}, SE3(ExpSO3(Vec3(0.1, 0, 0)), Vec3::Zero()));
  EXPECT_FALSE(tilted.lower.allFinite() || tilted.upper.allFinite());
  EXPECT_EQ(tilted.upper.x(), kInf);
  // Half-plane y <= 0 in the xy-plane: x and -y unbounded, y <= p_y, z flat.
  const Aabb hp = ComputeAabb(HalfPlane2{}, SE3::FromTranslation(Vec3(0, 0.5, 0)));
  EXPECT_EQ(hp.upper.y(), 0.5);
  EXPECT_EQ(hp.lower.y(), -kInf);
  EXPECT_EQ(hp.lower.z(), 0.0);
  EXPECT_EQ(hp.upper.z(), 0.0);
  EXPECT_EQ(hp.upper.x(), kInf);
}

TEST(ComputeAabb, PlanarShapesAreFlat) {
  const Aabb d = ComputeAabb(Disk2{0.5}, SE3(ExpSO3(Vec3(0, 0, 0.3)), Vec3(1, 1, 0)));
  EXPECT_TRUE(d.lower.isApprox(Vec3(0.5, 0.5, 0)));
  EXPECT_TRUE(d.upper.isApprox(Vec3(1.5, 1.5, 0)));
  const Aabb c = ComputeAabb(Capsule2{0.1, 1.0}, SE3(ExpSO3(Vec3(0, 0, M_PI / 2)), Vec3::Zero()));
  EXPECT_NEAR(c.upper.y(), 1.1, 1e-15);
  EXPECT_NEAR(c.upper.x(), 0.1, 1e-15);
  // Padded square (half side 0.3, radius 0.1) turned by 45 degrees: corner at 0.3 sqrt(2),
  // plus the padding.
  const Aabb p = ComputeAabb(testing_geometry::PaddedSquare(0.3, 0.1),
                             SE3(ExpSO3(Vec3(0, 0, M_PI / 4)), Vec3(1, 2, 0)));
  EXPECT_NEAR(p.upper.x(), 1 + 0.3 * std::sqrt(2.0) + 0.1, 1e-15);
  EXPECT_NEAR(p.lower.y(), 2 - 0.3 * std::sqrt(2.0) - 0.1, 1e-15);
  EXPECT_EQ(p.upper.z(), 0.0);
}

}  // namespace support_test
}  // namespace arena
