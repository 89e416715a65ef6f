// BVH queries against brute force on seeded random triangle soups and point sets
// (docs/conventions.md, "Oracles"; ARENA_SOAK=<n> multiplies the sample counts).
#include "core/geometry/bvh.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/common/error.h"
#include "core/geometry/mesh.h"
#include "tests/core/geometry/geometry_test_util.h"

namespace arena {
namespace bvh_test {

using testing_geometry::Rng;
using testing_geometry::SoakFactor;

// A soup of small random triangles scattered in [-1, 1]^3.
TriangleMesh RandomSoup(Rng& rng, int num_triangles) {
  PointsX3 V(3 * num_triangles, 3);
  TrianglesX3 T(num_triangles, 3);
  for (int t = 0; t < num_triangles; ++t) {
    const Vec3 c = rng.InBox(1.0);
    const double size = rng.Uniform(0.01, 0.3);
    for (int k = 0; k < 3; ++k) V.row(3 * t + k) = (c + rng.InBox(size)).transpose();
    T.row(t) << 3 * t, 3 * t + 1, 3 * t + 2;
  }
  return MakeTriangleMesh(V, T);
}

Vec3 Vertex(const TriangleMeshData& m, int t, int k) {
  return m.vertices.row(m.triangles(t, k)).transpose();
}

TEST(Bvh, StructureInvariants) {
  Rng rng(21);
  const TriangleMesh mesh = RandomSoup(rng, 500);
  const Bvh& bvh = mesh.data->bvh;
  ASSERT_FALSE(bvh.empty());
  EXPECT_EQ(bvh.num_primitives(), 500);
  std::vector<int> sorted = bvh.primitives();
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < 500; ++i) EXPECT_EQ(sorted[i], i);  // a permutation
  int leaf_total = 0;
  for (const Bvh::Node& node : bvh.nodes()) {
    if (node.IsLeaf()) {
      EXPECT_LE(node.count, Bvh::kDefaultLeafSize);
      leaf_total += node.count;
    } else {
      const Bvh::Node& l = bvh.nodes()[node.left];
      const Bvh::Node& r = bvh.nodes()[node.right];
      EXPECT_EQ(l.begin, node.begin);
      EXPECT_EQ(l.count + r.count, node.count);
      EXPECT_TRUE(node.box.Contains(l.box.lower) && node.box.Contains(l.box.upper));
      EXPECT_TRUE(node.box.Contains(r.box.lower) && node.box.Contains(r.box.upper));
      // Median split: balanced to within one primitive.
      EXPECT_LE(std::abs(l.count - r.count), 1);
    }
    // The node sphere and box enclose every vertex of every triangle in the subtree.
    for (int k = node.begin; k < node.begin + node.count; ++k) {
      const int t = bvh.primitives()[k];
      for (int j = 0; j < 3; ++j) {
        const Vec3 v = Vertex(*mesh.data, t, j);
        EXPECT_LE((v - node.sphere_center).norm(), node.sphere_radius * (1 + 1e-12));
        EXPECT_TRUE(node.box.Contains(v));
      }
    }
  }
  EXPECT_EQ(leaf_total, 500);
}

TEST(Bvh, AabbAndSphereQueriesMatchBruteForce) {
  Rng rng(22);
  const TriangleMesh mesh = RandomSoup(rng, 800);
  const Bvh& bvh = mesh.data->bvh;
  const int n = 200 * SoakFactor();
  std::vector<int> got;
  for (int q = 0; q < n; ++q) {
    const Vec3 c = rng.InBox(1.3);
    const Aabb box{c - Vec3::Constant(rng.Uniform(0, 0.4)), c + rng.InBox(0.4).cwiseAbs()};
    bvh.QueryAabb(box, &got);
    std::vector<int> want;
    for (int t = 0; t < bvh.num_primitives(); ++t) {
      if (bvh.primitive_box(t).Overlaps(box)) want.push_back(t);
    }
    EXPECT_EQ(got, want);

    const double r = rng.Uniform(0.0, 0.5);
    bvh.QuerySphere(c, r, &got);
    want.clear();
    for (int t = 0; t < bvh.num_primitives(); ++t) {
      if (bvh.primitive_box(t).OverlapsSphere(c, r)) want.push_back(t);
    }
    EXPECT_EQ(got, want);

    // Exact triangle-sphere test on top of the box filter.
    const std::vector<int> within = TrianglesWithinSphere(*mesh.data, c, r);
    want.clear();
    for (int t = 0; t < bvh.num_primitives(); ++t) {
      const Vec3 p = ClosestPointOnTriangle(c, Vertex(*mesh.data, t, 0), Vertex(*mesh.data, t, 1),
                                            Vertex(*mesh.data, t, 2))
                         .point;
      if ((p - c).norm() <= r) want.push_back(t);
    }
    EXPECT_EQ(within, want);
  }
}

TEST(Bvh, ClosestTriangleMatchesBruteForce) {
  Rng rng(23);
  const TriangleMesh mesh = RandomSoup(rng, 600);
  const int n = 300 * SoakFactor();
  for (int q = 0; q < n; ++q) {
    const Vec3 p = rng.InBox(2.0);
    const MeshClosestPoint got = ClosestPointOnMesh(*mesh.data, p);
    double best = std::numeric_limits<double>::infinity();
    for (int t = 0; t < mesh.data->triangles.rows(); ++t) {
      const Vec3 c = ClosestPointOnTriangle(p, Vertex(*mesh.data, t, 0), Vertex(*mesh.data, t, 1),
                                            Vertex(*mesh.data, t, 2))
                         .point;
      best = std::min(best, (c - p).norm());
    }
    ASSERT_GE(got.triangle, 0);
    EXPECT_DOUBLE_EQ(got.distance, best);
    EXPECT_NEAR((got.point - p).norm(), got.distance, 1e-15);
  }
}

TEST(Bvh, PointSetNearestAndRadiusQueries) {
  Rng rng(24);
  const int np = 1000;
  PointsX3 P(np, 3);
  for (int i = 0; i < np; ++i) P.row(i) = rng.InBox(1.0).transpose();
  const Bvh bvh = Bvh::FromPoints(P, 0.0, 2);
  const int n = 300 * SoakFactor();
  std::vector<int> got;
  for (int q = 0; q < n; ++q) {
    const Vec3 c = rng.InBox(1.5);
    const auto d2 = [&](int i) { return (P.row(i).transpose() - c).squaredNorm(); };
    const Bvh::Nearest nearest = bvh.FindNearest(c, d2);
    int want = 0;
    for (int i = 1; i < np; ++i) {
      if (d2(i) < d2(want)) want = i;
    }
    EXPECT_EQ(nearest.primitive, want);
    EXPECT_EQ(nearest.squared_distance, d2(want));
    const double r = rng.Uniform(0, 0.3);
    bvh.QuerySphere(c, r, &got);
    std::vector<int> in;
    for (int i = 0; i < np; ++i) {
      if (d2(i) <= r * r) in.push_back(i);
    }
    EXPECT_EQ(got, in);
  }
  // Nothing nearer than the bound: no primitive.
  const Bvh::Nearest none = bvh.FindNearest(
      Vec3(10, 10, 10),
      [&](int i) { return (P.row(i).transpose() - Vec3(10, 10, 10)).squaredNorm(); }, 1.0);
  EXPECT_EQ(none.primitive, -1);
}

TEST(Bvh, EmptyAndInvalidInput) {
  const Bvh empty = Bvh::FromBoxes({});
  EXPECT_TRUE(empty.empty());
  std::vector<int> out = {1, 2};
  empty.QueryAabb(Aabb{Vec3::Zero(), Vec3::Ones()}, &out);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(empty.FindNearest(Vec3::Zero(), [](int) { return 0.0; }).primitive, -1);
  EXPECT_THROW(Bvh::FromBoxes({Aabb{}}), InvalidArgument);  // empty box
  EXPECT_THROW(Bvh::FromBoxes({Aabb{Vec3::Zero(), Vec3::Ones()}}, 0), InvalidArgument);
}

TEST(Bvh, BuildIsDeterministic) {
  Rng rng1(25), rng2(25);
  const TriangleMesh a = RandomSoup(rng1, 300), b = RandomSoup(rng2, 300);
  EXPECT_EQ(a.data->bvh.primitives(), b.data->bvh.primitives());
  ASSERT_EQ(a.data->bvh.nodes().size(), b.data->bvh.nodes().size());
  for (size_t i = 0; i < a.data->bvh.nodes().size(); ++i) {
    EXPECT_EQ(a.data->bvh.nodes()[i].sphere_radius, b.data->bvh.nodes()[i].sphere_radius);
  }
}

}  // namespace bvh_test
}  // namespace arena
