#include "core/geometry/primitives.h"

#include <gtest/gtest.h>

#include "tests/core/geometry/geometry_test_util.h"

namespace arena {
namespace primitives_test {

using testing_geometry::Rng;
using testing_geometry::SoakFactor;

// Brute force: the nearest of a dense barycentric grid of the triangle, refined once.
double BruteTriangleDistance(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  constexpr int kN = 200;
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i <= kN; ++i) {
    for (int j = 0; i + j <= kN; ++j) {
      const double u = static_cast<double>(i) / kN, v = static_cast<double>(j) / kN;
      best = std::min(best, (a + u * (b - a) + v * (c - a) - p).norm());
    }
  }
  return best;
}

TEST(ClosestPointOnTriangle, MatchesDenseSamplingOnRandomTriangles) {
  Rng rng(11);
  const int n = 60 * SoakFactor();
  for (int k = 0; k < n; ++k) {
    const Vec3 a = rng.InBox(1), b = rng.InBox(1), c = rng.InBox(1), p = rng.InBox(2);
    const TrianglePoint tp = ClosestPointOnTriangle(p, a, b, c);
    const double exact = (tp.point - p).norm();
    const double brute = BruteTriangleDistance(p, a, b, c);
    // The grid spacing bounds how far the sampled minimum can be above the exact one.
    const double spacing = std::max({(b - a).norm(), (c - a).norm(), (c - b).norm()}) / 200;
    EXPECT_LE(exact, brute + 1e-12);
    EXPECT_GE(exact, brute - spacing);
    EXPECT_NEAR(tp.barycentric.sum(), 1.0, 1e-12);
    EXPECT_TRUE((tp.barycentric.array() >= -1e-12).all());
    const Vec3 rebuilt = tp.barycentric[0] * a + tp.barycentric[1] * b + tp.barycentric[2] * c;
    EXPECT_LT((rebuilt - tp.point).norm(), 1e-12);
  }
}

TEST(ClosestPointOnTriangle, DegenerateTrianglesFallBackToEdges) {
  const Vec3 a(0, 0, 0), b(1, 0, 0), c(2, 0, 0);  // collinear
  const TrianglePoint tp = ClosestPointOnTriangle(Vec3(1.5, 1, 0), a, b, c);
  EXPECT_NEAR((tp.point - Vec3(1.5, 0, 0)).norm(), 0.0, 1e-12);
  const TrianglePoint same = ClosestPointOnTriangle(Vec3(0, 0, 1), a, a, a);
  EXPECT_NEAR(same.point.norm(), 0.0, 0.0);
  EXPECT_TRUE(same.barycentric.allFinite());
}

TEST(ClosestPointsSegmentSegment, MatchesDenseSampling) {
  Rng rng(12);
  const int n = 200 * SoakFactor();
  for (int k = 0; k < n; ++k) {
    const Vec3 p0 = rng.InBox(1), p1 = rng.InBox(1), q0 = rng.InBox(1), q1 = rng.InBox(1);
    const SegmentPair sp = ClosestPointsSegmentSegment(p0, p1, q0, q1);
    double brute = std::numeric_limits<double>::infinity();
    constexpr int kN = 400;
    for (int i = 0; i <= kN; ++i) {
      const Vec3 p = p0 + (static_cast<double>(i) / kN) * (p1 - p0);
      brute = std::min(brute, (q0 + ClosestParameterOnSegment(p, q0, q1) * (q1 - q0) - p).norm());
    }
    EXPECT_LE(sp.distance, brute + 1e-12);
    EXPECT_GE(sp.distance, brute - (p1 - p0).norm() / kN);
    EXPECT_NEAR((sp.point_p - sp.point_q).norm(), sp.distance, 1e-14);
  }
}

TEST(ClosestPointsSegmentSegment, ParallelOverlapGivesMidpointWitness) {
  const SegmentPair sp =
      ClosestPointsSegmentSegment(Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(1, 1, 0), Vec3(3, 1, 0));
  EXPECT_NEAR(sp.distance, 1.0, 1e-15);
  EXPECT_NEAR(sp.point_p.x(), 1.5, 1e-15);  // middle of the overlap [1, 2]
  EXPECT_NEAR(sp.point_q.x(), 1.5, 1e-15);
  const SegmentPair points =
      ClosestPointsSegmentSegment(Vec3(1, 1, 1), Vec3(1, 1, 1), Vec3(1, 1, 1), Vec3(1, 1, 1));
  EXPECT_EQ(points.distance, 0.0);
}

TEST(Aabb, DistanceOverlapAndEmptiness) {
  Aabb box;
  EXPECT_TRUE(box.IsEmpty());
  box.Extend(Vec3(0, 0, 0));
  box.Extend(Vec3(1, 2, 3));
  EXPECT_FALSE(box.IsEmpty());
  EXPECT_DOUBLE_EQ(box.SquaredDistance(Vec3(2, 1, 1)), 1.0);
  EXPECT_DOUBLE_EQ(box.SquaredDistance(Vec3(0.5, 1, 1)), 0.0);
  EXPECT_TRUE(box.Overlaps(Aabb{Vec3(1, 2, 3), Vec3(4, 4, 4)}));  // touching counts
  EXPECT_FALSE(box.Overlaps(Aabb{Vec3(1.01, 0, 0), Vec3(4, 4, 4)}));
  EXPECT_TRUE(box.OverlapsSphere(Vec3(2, 1, 1), 1.0));
  EXPECT_FALSE(box.OverlapsSphere(Vec3(2, 1, 1), 0.99));
}

TEST(AnyOrthogonal, IsUnitAndOrthogonal) {
  Rng rng(13);
  for (int k = 0; k < 100; ++k) {
    const Vec3 n = rng.UnitVector();
    const Vec3 o = AnyOrthogonal(n);
    EXPECT_NEAR(o.norm(), 1.0, 1e-14);
    EXPECT_NEAR(o.dot(n), 0.0, 1e-14);
  }
  EXPECT_NEAR(AnyOrthogonal(Vec3::UnitZ()).dot(Vec3::UnitZ()), 0.0, 0.0);
}

}  // namespace primitives_test
}  // namespace arena
