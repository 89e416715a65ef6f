#include "core/geometry/signed_distance.h"

#include <gtest/gtest.h>

#include <vector>

#include "core/common/error.h"
#include "core/geometry/convex_hull.h"
#include "core/geometry/mesh.h"
#include "core/geometry/point_cloud.h"
#include "core/geometry/support.h"
#include "tests/core/geometry/geometry_test_util.h"

namespace arena {
namespace signed_distance_test {

using testing_geometry::Rng;
using testing_geometry::SoakFactor;

void ExpectConsistent(const SignedDistanceResult& r, double tol = 1e-9) {
  ASSERT_TRUE(std::isfinite(r.distance));
  ASSERT_TRUE(r.p_WA.allFinite() && r.p_WB.allFinite() && r.normal_W.allFinite());
  EXPECT_NEAR(r.normal_W.norm(), 1.0, 1e-12);
  EXPECT_LT((r.p_WB - r.p_WA - r.distance * r.normal_W).norm(), tol);
}

TriangleMesh BoxMesh(const Vec3& h) {
  PointsX3 V(8, 3);
  for (int i = 0; i < 8; ++i)
    V.row(i) << (i & 1 ? h.x() : -h.x()), (i & 2 ? h.y() : -h.y()), (i & 4 ? h.z() : -h.z());
  TrianglesX3 T(12, 3);
  T << 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1,
      3, 7, 1, 7, 5;
  return MakeTriangleMesh(V, T);
}

TEST(SignedDistance, BoxOnHalfSpaceClosedForm) {
  // Box of half extents h rotated by theta about x, centre at height z: lowest point at
  // z - (h_y |sin| + h_z |cos|).
  const Vec3 h(0.3, 0.2, 0.1);
  for (double theta : {0.0, 0.3, 1.0, M_PI / 2}) {
    for (double z : {0.5, 0.15, 0.0, -0.05}) {
      const SE3 X(ExpSO3(Vec3(theta, 0, 0)), Vec3(0.7, -0.2, z));
      const double expected =
          z - (h.y() * std::abs(std::sin(theta)) + h.z() * std::abs(std::cos(theta)));
      const SignedDistanceResult r = SignedDistance(HalfSpace{}, SE3::Identity(), Box{h}, X);
      EXPECT_NEAR(r.distance, expected, 1e-15);
      EXPECT_TRUE(r.normal_W.isApprox(Vec3::UnitZ()));
      EXPECT_NEAR(r.p_WA.z(), 0.0, 1e-15);
      EXPECT_EQ(r.status, DistanceStatus::kClosedForm);
      ExpectConsistent(r, 1e-15);
      // Swapped order: normal from the box to the half-space.
      const SignedDistanceResult s = SignedDistance(Box{h}, X, HalfSpace{}, SE3::Identity());
      EXPECT_NEAR(s.distance, expected, 1e-15);
      EXPECT_TRUE(s.normal_W.isApprox(-Vec3::UnitZ()));
      ExpectConsistent(s, 1e-15);
      // The same box as a mesh: through its vertices.
      EXPECT_NEAR(SignedDistance(HalfSpace{}, SE3::Identity(), BoxMesh(h), X).distance, expected,
                  1e-15);
    }
  }
}

TEST(SignedDistance, CylinderOnTiltedHalfSpaceClosedForm) {
  // Cylinder (r, hl) with axis tilted by alpha from the plane normal: lowest point at
  // c.n - (hl |cos alpha| + r sin alpha).
  const double r = 0.2, hl = 0.5;
  Rng rng(61);
  for (int k = 0; k < 100; ++k) {
    const SE3 XH = rng.Pose(1.0), XC = rng.Pose(1.0);
    const Vec3 n = XH.rotation().col(2), axis = XC.rotation().col(2);
    const double cos_a = std::abs(n.dot(axis)), sin_a = std::sqrt(std::max(0.0, 1 - cos_a * cos_a));
    const double expected = n.dot(XC.translation() - XH.translation()) - (hl * cos_a + r * sin_a);
    const SignedDistanceResult res = SignedDistance(HalfSpace{}, XH, Cylinder{r, hl}, XC);
    EXPECT_NEAR(res.distance, expected, 1e-12);
    ExpectConsistent(res, 1e-12);
  }
}

TEST(SignedDistance, PolygonOnHalfPlaneAndDisks) {
  Eigen::Matrix<double, Eigen::Dynamic, 2> V(4, 2);
  V << -0.5, -0.25, 0.5, -0.25, 0.5, 0.25, -0.5, 0.25;  // 1 x 0.5 rectangle
  const Polygon2 rect = MakePolygon2FromVertices(V);
  for (double theta : {0.0, 0.4, M_PI / 2, 2.0}) {
    const SE3 X(ExpSO3(Vec3(0, 0, theta)), Vec3(0.3, 0.4, 0));
    const double lowest =
        0.4 - (0.5 * std::abs(std::sin(theta)) + 0.25 * std::abs(std::cos(theta)));
    const SignedDistanceResult r = SignedDistance(HalfPlane2{}, SE3::Identity(), rect, X);
    EXPECT_NEAR(r.distance, lowest, 1e-15);
    EXPECT_TRUE(r.normal_W.isApprox(Vec3::UnitY()));
    EXPECT_EQ(r.p_WA.z(), 0.0);
    ExpectConsistent(r, 1e-15);
  }
  // Disk-disk closed form, both orders.
  const SignedDistanceResult dd =
      SignedDistance(Disk2{0.3}, SE3::FromTranslation(Vec3(1, 1, 0)), Disk2{0.2},
                     SE3::FromTranslation(Vec3(1.3, 1.4, 0)));
  EXPECT_NEAR(dd.distance, 0.5 - 0.5, 1e-15);
  const SignedDistanceResult d2 = SignedDistance(Disk2{0.3}, SE3::Identity(), Disk2{0.2},
                                                 SE3::FromTranslation(Vec3(0.4, 0, 0)));
  EXPECT_NEAR(d2.distance, -0.1, 1e-15);
  EXPECT_TRUE(d2.normal_W.isApprox(Vec3::UnitX()));
  ExpectConsistent(d2, 1e-15);
  // Disk vs rectangle, inside and outside.
  const SignedDistanceResult dr =
      SignedDistance(Disk2{0.1}, SE3::FromTranslation(Vec3(0, 0.45, 0)), rect, SE3::Identity());
  EXPECT_NEAR(dr.distance, 0.1, 1e-15);
  EXPECT_TRUE(dr.normal_W.isApprox(-Vec3::UnitY()));
  const SignedDistanceResult di =
      SignedDistance(rect, SE3::Identity(), Disk2{0.1}, SE3::FromTranslation(Vec3(0.4, 0.1, 0)));
  EXPECT_NEAR(di.distance, -0.2, 1e-15);
  EXPECT_TRUE(di.normal_W.isApprox(Vec3::UnitX()));
  ExpectConsistent(di, 1e-15);
  // Capsule2 on the half-plane.
  const SignedDistanceResult ch =
      SignedDistance(Capsule2{0.1, 0.5}, SE3(ExpSO3(Vec3(0, 0, M_PI / 2)), Vec3(0, 0.55, 0)),
                     HalfPlane2{}, SE3::Identity());
  EXPECT_NEAR(ch.distance, -0.05, 1e-15);
}

TEST(SignedDistance, PaddedSquareOnHalfPlaneIsTheLowestVertexMinusTheRadius) {
  // Square of half side h padded by r, turned by theta at height y over a half-plane turned by
  // alpha: the lowest core vertex sits at y - h (|cos theta| + |sin theta|) above the boundary
  // line, the padded square r lower.
  const double h = 0.25, r = 0.1;
  const Polygon2 sq = testing_geometry::PaddedSquare(h, r);
  for (double alpha : {0.0, 0.7, -2.0}) {
    const SE3 XH(ExpSO3(Vec3(0, 0, alpha)), Vec3(0.2, -0.1, 0));
    const Vec3 n = XH.rotation().col(1);
    for (double theta : {0.0, 0.3, M_PI / 4, 1.2, 2.5}) {
      for (double y : {0.8, 0.45, 0.36, 0.3, 0.1}) {
        const SE3 XB = XH * SE3(ExpSO3(Vec3(0, 0, theta)), Vec3(0.7, y, 0));
        const double lowest = y - h * (std::abs(std::cos(theta)) + std::abs(std::sin(theta)));
        const SignedDistanceResult res = SignedDistance(HalfPlane2{}, XH, sq, XB);
        EXPECT_NEAR(res.distance, lowest - r, 1e-14);
        EXPECT_TRUE(res.normal_W.isApprox(n, 1e-14));
        EXPECT_EQ(res.status, DistanceStatus::kClosedForm);
        // The witness on the square is its padded lowest point, on the boundary line for A.
        EXPECT_NEAR(n.dot(res.p_WB - XH.translation()), lowest - r, 1e-14);
        EXPECT_NEAR(n.dot(res.p_WA - XH.translation()), 0.0, 1e-14);
        ExpectConsistent(res, 1e-14);
        const SignedDistanceResult swapped = SignedDistance(sq, XB, HalfPlane2{}, XH);
        EXPECT_NEAR(swapped.distance, lowest - r, 1e-14);
        EXPECT_TRUE(swapped.normal_W.isApprox(-n, 1e-14));
      }
    }
  }
}

// A padded hull (silico's padded polytope) is its hull's offset surface: every distance is the
// plain hull's minus the radius, against the half-space in closed form and against a sphere
// through GJK, and for points inside and outside.
TEST(SignedDistance, PaddedHullIsThePlainHullMinusTheRadius) {
  const Vec3 h(0.25, 0.3, 0.2);
  PointsX3 P(8, 3);
  for (int i = 0; i < 8; ++i) P.row(i) << (i & 1 ? h.x() : -h.x()), (i & 2 ? h.y() : -h.y()), (i & 4 ? h.z() : -h.z());
  const ConvexHull plain = MakeConvexHull(P);
  ConvexHull padded = plain;
  padded.radius = 0.1;
  const SE3 X(ExpSO3(Vec3(0.3, -0.5, 0.8)), Vec3(0.1, -0.2, 0.9));
  const Mat3& R = X.rotation();
  const double lowest = 0.9 - (h.x() * std::abs(R(2, 0)) + h.y() * std::abs(R(2, 1)) + h.z() * std::abs(R(2, 2)));
  const SignedDistanceResult floor = SignedDistance(HalfSpace{}, SE3(), padded, X);
  EXPECT_NEAR(floor.distance, lowest - 0.1, 1e-12);
  ExpectConsistent(floor);
  const SE3 XS = SE3::FromTranslation(Vec3(0.9, 0.4, 1.1));
  const double d_plain = SignedDistance(Sphere{0.2}, XS, plain, X).distance;
  const SignedDistanceResult d_padded = SignedDistance(Sphere{0.2}, XS, padded, X);
  EXPECT_NEAR(d_padded.distance, d_plain - 0.1, 1e-9);
  ExpectConsistent(d_padded);
  for (const Vec3& p : {Vec3(0.6, 0.1, 0.0), Vec3(0.05, 0.0, 0.1), Vec3(0.4, 0.5, 0.4)}) {
    EXPECT_NEAR(PointDistance(padded, p).distance, PointDistance(plain, p).distance - 0.1, 1e-14);
  }
}

TEST(PointDistance2, PaddedSquareNearAnEdgeAndNearACorner) {
  const double h = 0.25, r = 0.1;
  const Polygon2 sq = testing_geometry::PaddedSquare(h, r);
  // Beside the face x = h (and inside the core, nearest to it): the flat part of the padding.
  for (double x : {0.5, 0.36, 0.35, 0.3, 0.25, 0.2}) {
    for (double y : {-0.15, 0.0, 0.15}) {
      const PointSignedDistance pd = PointDistance2(sq, Vec2(x, y));
      EXPECT_NEAR(pd.distance, x - h - r, 1e-15) << x << " " << y;
      EXPECT_TRUE(pd.point.isApprox(Vec3(h + r, y, 0), 1e-15));
      EXPECT_TRUE(pd.normal.isApprox(Vec3::UnitX()));
    }
  }
  // Diagonally off the corner (h, h): the round part, |p - corner| - r.
  const Vec2 corner(h, h);
  for (const Vec2& off : {Vec2(0.05, 0.02), Vec2(0.2, 0.3), Vec2(0.06, 0.08), Vec2(0.01, 0.01)}) {
    const PointSignedDistance pd = PointDistance2(sq, corner + off);
    const Vec2 u = off.normalized();
    EXPECT_NEAR(pd.distance, off.norm() - r, 1e-15);
    EXPECT_TRUE(pd.point.head<2>().isApprox(corner + r * u, 1e-15));
    EXPECT_TRUE(pd.normal.head<2>().isApprox(u, 1e-15));
    EXPECT_EQ(pd.point.z(), 0.0);
  }
  // A disk against the padded square: the closed form through the point distance.
  const Vec2 dir = Vec2(3, 4).normalized();
  const SignedDistanceResult dr = SignedDistance(
      Disk2{0.05}, SE3::FromTranslation(Vec3(h + 0.09 * dir.x(), h + 0.09 * dir.y(), 0)), sq,
      SE3::Identity());
  EXPECT_NEAR(dr.distance, 0.09 - r - 0.05, 1e-15);
  EXPECT_TRUE(dr.normal_W.head<2>().isApprox(-dir, 1e-14));
  ExpectConsistent(dr, 1e-15);
}

TEST(PointDistance2, PaddedPolygonMatchesDenseBoundarySampling) {
  Eigen::Matrix<double, Eigen::Dynamic, 2> V(5, 2);
  V << 0.5, 0, 0.15, 0.45, -0.4, 0.25, -0.35, -0.3, 0.2, -0.45;
  const Polygon2 core = MakePolygon2FromVertices(V);
  const Polygon2 padded = MakePaddedPolygon2(core.A, core.b, 0.12);
  const std::vector<Vec2> boundary = testing_geometry::PaddedBoundary(padded, 2000, 500);
  Rng rng(67);
  for (int k = 0; k < 200 * SoakFactor(); ++k) {
    const Vec2 p(rng.Uniform(-0.8, 0.8), rng.Uniform(-0.8, 0.8));
    const PointSignedDistance pd = PointDistance2(padded, p);
    double brute = 1e300;
    for (const Vec2& b : boundary) brute = std::min(brute, (b - p).norm());
    EXPECT_LE(std::abs(pd.distance), brute + 1e-12);
    EXPECT_GE(std::abs(pd.distance), brute - 1e-3);  // sampling resolution
    // Inside exactly when the core is within r.
    EXPECT_EQ(pd.distance < 0.0, PointDistance2(core, p).distance < 0.12);
    EXPECT_NEAR((pd.point.head<2>() - p).norm(), std::abs(pd.distance), 1e-12);
    EXPECT_NEAR(PointDistance2(padded, pd.point.head<2>()).distance, 0.0, 1e-12);
  }
}

TEST(SignedDistance, SphereAgainstEveryShapeMatchesGjk) {
  // The closed form (point distance minus radius) against GJK/EPA on the same pair.
  Rng rng(62);
  PointsX3 P(30, 3);
  for (int i = 0; i < P.rows(); ++i) P.row(i) = rng.InBox(0.4).transpose();
  const std::vector<Shape> shapes = {
      Box{Vec3(0.3, 0.2, 0.1)},        Capsule{0.1, 0.3}, Cylinder{0.2, 0.25},
      Ellipsoid{Vec3(0.3, 0.2, 0.15)}, Cone{0.25, 0.6},   MakeConvexHull(P),
      BoxMesh(Vec3(0.2, 0.3, 0.25))};
  for (const Shape& shape : shapes) {
    SCOPED_TRACE(std::string(ToString(TypeOf(shape))));
    for (int k = 0; k < 100 * SoakFactor(); ++k) {
      const SE3 XS = SE3::FromTranslation(rng.InBox(0.6)), XO = rng.Pose(0.2);
      const double r = rng.Uniform(0.02, 0.3);
      const SignedDistanceResult exact = SignedDistance(Sphere{r}, XS, shape, XO);
      EXPECT_EQ(exact.status, DistanceStatus::kClosedForm);
      ExpectConsistent(exact, 1e-12);
      const SignedDistanceResult gjk = ConvexSignedDistance(Sphere{r}, XS, shape, XO);
      // GJK is exact on polytopes; on curved shapes it is within its tolerance, EPA on curved
      // shapes within its (looser) one. Either way its certified bracket holds.
      EXPECT_NEAR(gjk.distance, exact.distance, exact.distance > 0 ? 1e-9 : 1e-6);
      EXPECT_LE(std::abs(gjk.distance - exact.distance), gjk.error_bound + 1e-12)
          << ToString(gjk.status);
      EXPECT_EQ(exact.error_bound, 0.0);
      const SignedDistanceResult swapped = SignedDistance(shape, XO, Sphere{r}, XS);
      EXPECT_EQ(swapped.distance, exact.distance);
      EXPECT_TRUE(swapped.normal_W.isApprox(-exact.normal_W));
    }
  }
}

TEST(PointDistance, EllipsoidMatchesDenseSurfaceSampling) {
  Rng rng(63);
  const Ellipsoid e{Vec3(0.5, 0.3, 0.2)};
  const OrientedPointCloud cloud = SamplePointCloud(e, 200000, 1);
  for (int k = 0; k < 100 * SoakFactor(); ++k) {
    const Vec3 p = rng.InBox(0.7);
    const PointSignedDistance pd = PointDistance(e, p);
    double brute = 1e300;
    for (int i = 0; i < cloud.points.rows(); ++i)
      brute = std::min(brute, (cloud.points.row(i).transpose() - p).norm());
    EXPECT_LE(std::abs(pd.distance), brute + 1e-12);
    EXPECT_GE(std::abs(pd.distance), brute - 5e-3);  // sampling resolution
    EXPECT_NEAR((pd.point - p).norm(), std::abs(pd.distance), 1e-12);
    EXPECT_NEAR((pd.point.cwiseQuotient(e.radii)).squaredNorm(), 1.0, 1e-12);  // on the surface
    const bool inside = p.cwiseQuotient(e.radii).squaredNorm() < 1;
    EXPECT_EQ(pd.distance < 0, inside);
    if (std::abs(pd.distance) > 1e-9) {
      // The normal is along the offset from the surface point.
      EXPECT_TRUE(pd.normal.isApprox((p - pd.point) / pd.distance, 1e-6));
    }
  }
  // Points on the symmetry planes inside: the nearest point can leave the plane.
  const PointSignedDistance c = PointDistance(e, Vec3::Zero());
  EXPECT_NEAR(c.distance, -0.2, 1e-15);
  const PointSignedDistance off = PointDistance(Ellipsoid{Vec3(1, 1, 0.5)}, Vec3(0.3, 0, 0));
  // Closed form for this case: x = y_x / (1 - 0.25) = 0.4, z = 0.5 sqrt(1 - 0.16).
  EXPECT_NEAR(off.point.x(), 0.4, 1e-12);
  EXPECT_NEAR(std::abs(off.point.z()), 0.5 * std::sqrt(0.84), 1e-12);
}

TEST(PointDistance, ConeCylinderAndBoxAgreeWithSampling) {
  Rng rng(64);
  const std::vector<Shape> shapes = {Cone{0.3, 0.8}, Cylinder{0.3, 0.2}, Box{Vec3(0.3, 0.2, 0.1)},
                                     Capsule{0.2, 0.3}};
  for (const Shape& shape : shapes) {
    SCOPED_TRACE(std::string(ToString(TypeOf(shape))));
    const OrientedPointCloud cloud = SamplePointCloud(shape, 100000, 2);
    for (int k = 0; k < 60 * SoakFactor(); ++k) {
      const Vec3 p = rng.InBox(0.7);
      const PointSignedDistance pd = PointDistance(shape, p);
      double brute = 1e300;
      for (int i = 0; i < cloud.points.rows(); ++i)
        brute = std::min(brute, (cloud.points.row(i).transpose() - p).norm());
      EXPECT_LE(std::abs(pd.distance), brute + 1e-12);
      EXPECT_GE(std::abs(pd.distance), brute - 1e-2);
      EXPECT_NEAR((pd.point - p).norm(), std::abs(pd.distance), 1e-12);
      EXPECT_NEAR(PointDistance(shape, pd.point).distance, 0.0, 1e-12);
    }
  }
}

TEST(SignedDistance, CapsuleCapsuleClosedFormCrossingAxes) {
  const SE3 Xi(ExpSO3(Vec3(0, M_PI / 2, 0)), Vec3(0, 0, 0.3));
  const SignedDistanceResult r =
      SignedDistance(Capsule{0.2, 1.0}, SE3::Identity(), Capsule{0.1, 1.0}, Xi);
  EXPECT_NEAR(r.distance, -0.3, 1e-15);
  EXPECT_EQ(r.status, DistanceStatus::kClosedForm);
  EXPECT_NEAR(std::abs(r.normal_W.y()), 1.0, 1e-12);
  ExpectConsistent(r, 1e-12);
}

TEST(SignedDistance, GeneralPairsGoThroughGjkAndMatchSymmetry) {
  Rng rng(65);
  const std::vector<Shape> shapes = {Box{Vec3(0.3, 0.2, 0.1)}, Cylinder{0.2, 0.25}, Cone{0.25, 0.6},
                                     Capsule{0.1, 0.3}, BoxMesh(Vec3(0.2, 0.2, 0.2))};
  for (const Shape& a : shapes) {
    for (const Shape& b : shapes) {
      if (TypeOf(a) == ShapeType::kMesh && TypeOf(b) == ShapeType::kMesh) continue;
      for (int k = 0; k < 10; ++k) {
        const SE3 XA = rng.Pose(0.5), XB = rng.Pose(0.5);
        const SignedDistanceResult ab = SignedDistance(a, XA, b, XB);
        const SignedDistanceResult ba = SignedDistance(b, XB, a, XA);
        // Curved pairs: witnesses to about the square root of the EPA tolerance.
        ExpectConsistent(ab, 1e-6);
        // Action = reaction: the same distance, opposite normal (up to EPA's tolerance).
        EXPECT_NEAR(ab.distance, ba.distance, 1e-6);
        if (ab.distance > 1e-6) {
          EXPECT_GT(ab.normal_W.dot(-ba.normal_W), 1 - 1e-6);
        }
      }
    }
  }
}

TEST(SignedDistance, FiniteOnAlignedAndTouchingConfigurations) {
  // Poses drawn from a lattice (quarter turns, half-unit offsets) produce touching faces,
  // parallel edges, coincident vertices and shared axes on purpose.
  Rng rng(66);
  PointsX3 cube(8, 3);
  for (int i = 0; i < 8; ++i)
    cube.row(i) << (i & 1 ? 0.5 : -0.5), (i & 2 ? 0.5 : -0.5), (i & 4 ? 0.5 : -0.5);
  const std::vector<Shape> shapes = {Sphere{0.5},
                                     Box{Vec3(0.5, 0.5, 0.5)},
                                     Capsule{0.25, 0.25},
                                     Cylinder{0.5, 0.5},
                                     Ellipsoid{Vec3(0.5, 0.5, 0.25)},
                                     Cone{0.5, 1.0},
                                     MakeConvexHull(cube),
                                     BoxMesh(Vec3(0.5, 0.25, 0.5)),
                                     HalfSpace{},
                                     Sphere{0.0},
                                     Capsule{0.0, 0.5},
                                     Box{Vec3(0.5, 0.5, 0.0)}};
  const auto lattice_pose = [&]() {
    const Vec3 axis = Vec3::Unit(rng.Int(3));
    const Vec3 t(0.5 * (rng.Int(5) - 2), 0.5 * (rng.Int(5) - 2), 0.5 * (rng.Int(5) - 2));
    return SE3(ExpSO3(axis * (M_PI / 2) * rng.Int(4)), t);
  };
  for (int k = 0; k < 3000 * SoakFactor(); ++k) {
    const Shape& a = shapes[rng.Int(static_cast<int>(shapes.size()))];
    const Shape& b = shapes[rng.Int(static_cast<int>(shapes.size()))];
    if (!SupportsSignedDistance(TypeOf(a), TypeOf(b))) continue;
    const SE3 XA = lattice_pose(), XB = lattice_pose();
    const SignedDistanceResult ab = SignedDistance(a, XA, b, XB);
    SCOPED_TRACE(std::string(ToString(TypeOf(a))) + " vs " + std::string(ToString(TypeOf(b))) +
                 " d " + std::to_string(ab.distance) + " " + std::string(ToString(ab.status)) +
                 " eb " + std::to_string(ab.error_bound) + " it " + std::to_string(ab.iterations));
    ExpectConsistent(ab, 1e-6);
    EXPECT_TRUE(std::isfinite(ab.error_bound));
    const SignedDistanceResult ba = SignedDistance(b, XB, a, XA);
    EXPECT_NEAR(ab.distance, ba.distance, 1e-6);
  }
}

TEST(SignedDistance, UnsupportedPairsThrow) {
  const TriangleMesh m = BoxMesh(Vec3::Ones());
  const SE3 I = SE3::Identity();
  EXPECT_THROW(SignedDistance(m, I, m, I), Unsupported);
  EXPECT_THROW(SignedDistance(HalfSpace{}, I, HalfSpace{}, I), Unsupported);
  EXPECT_THROW(SignedDistance(HalfPlane2{}, I, HalfPlane2{}, I), Unsupported);
  EXPECT_THROW(SignedDistance(Sphere{1}, I, Disk2{1}, I), Unsupported);
  EXPECT_FALSE(SupportsSignedDistance(ShapeType::kMesh, ShapeType::kMesh));
  EXPECT_TRUE(SupportsSignedDistance(ShapeType::kMesh, ShapeType::kHalfSpace));
  EXPECT_TRUE(SupportsSignedDistance(ShapeType::kCone, ShapeType::kEllipsoid));
  EXPECT_THROW(PointDistance(Disk2{1}, Vec3::Zero()), InvalidArgument);
  EXPECT_THROW(PointDistance2(Sphere{1}, Vec2::Zero()), InvalidArgument);
}

}  // namespace signed_distance_test
}  // namespace arena
