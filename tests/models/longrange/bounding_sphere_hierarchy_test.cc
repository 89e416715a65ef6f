// The bounding-sphere hierarchy of Def. 5.3 (Ye et al., arXiv 2509.20917): structure, vertex
// sets and centres (Sec. 5.1), layered radii that hold the children's spheres and every vertex,
// disconnected meshes, poses.
#include "models/longrange/bounding_sphere_hierarchy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <vector>

#include <gtest/gtest.h>

#include "core/common/error.h"
#include "tests/models/longrange/longrange_test_util.h"

namespace arena::longrange {
namespace bounding_sphere_hierarchy_test {

// Every structural and geometric property the potential relies on.
void CheckHierarchy(const BoundingSphereHierarchy& bsh) {
  const int m = bsh.num_triangles();
  ASSERT_EQ(bsh.num_nodes(), 2 * m - 1);
  EXPECT_EQ(bsh.node(bsh.root()).parent, -1);
  // Leaves are the triangles: node t holds triangle t and its three vertices.
  for (int t = 0; t < m; ++t) {
    const BshNode& leaf = bsh.node(t);
    ASSERT_TRUE(leaf.is_leaf());
    EXPECT_EQ(leaf.triangle, t);
    std::vector<int> tri = {bsh.triangles()(t, 0), bsh.triangles()(t, 1), bsh.triangles()(t, 2)};
    std::sort(tri.begin(), tri.end());
    const auto set = bsh.node_vertices(t);
    EXPECT_TRUE(std::equal(set.begin(), set.end(), tri.begin(), tri.end()));
  }
  // Every triangle is reached exactly once from the root.
  std::vector<int> reached(m, 0), stack = {bsh.root()};
  while (!stack.empty()) {
    const int i = stack.back();
    stack.pop_back();
    const BshNode& n = bsh.node(i);
    if (n.is_leaf()) {
      ++reached[n.triangle];
    } else {
      ASSERT_GE(n.right, 0);
      EXPECT_EQ(bsh.node(n.left).parent, i);
      EXPECT_EQ(bsh.node(n.right).parent, i);
      stack.push_back(n.left);
      stack.push_back(n.right);
    }
  }
  for (int t = 0; t < m; ++t) EXPECT_EQ(reached[t], 1) << "triangle " << t;

  double worst_enclosure = 0.0;
  for (int i = 0; i < bsh.num_nodes(); ++i) {
    const BshNode& n = bsh.node(i);
    const auto set = bsh.node_vertices(i);
    // Centre = mean of the node's vertex set (Sec. 5.1).
    Vec3 mean = Vec3::Zero();
    for (int v : set) mean += bsh.vertices().row(v).transpose();
    mean /= static_cast<double>(set.size());
    EXPECT_LT((mean - n.center).norm(), 1e-14 * (1.0 + mean.norm()));
    // Every vertex of the node is inside its sphere.
    for (int v : set) {
      const double d = (bsh.vertices().row(v).transpose() - n.center).norm();
      worst_enclosure = std::max(worst_enclosure, d - n.radius);
    }
    if (n.is_leaf()) {
      double r = 0.0;
      for (int v : set) r = std::max(r, (bsh.vertices().row(v).transpose() - n.center).norm());
      EXPECT_DOUBLE_EQ(n.radius, r);
      continue;
    }
    // I = I_l u I_r, and the layered radius holds both children's spheres, tightly.
    std::vector<int> uni;
    const auto l = bsh.node_vertices(n.left), r = bsh.node_vertices(n.right);
    std::set_union(l.begin(), l.end(), r.begin(), r.end(), std::back_inserter(uni));
    EXPECT_TRUE(std::equal(set.begin(), set.end(), uni.begin(), uni.end()));
    double need = 0.0;
    for (int c : {n.left, n.right}) {
      need = std::max(need, (n.center - bsh.node(c).center).norm() + bsh.node(c).radius);
    }
    EXPECT_DOUBLE_EQ(n.radius, need);
  }
  EXPECT_LE(worst_enclosure, 1e-14);
}

TEST(Bsh, TessellatedSpheres) {
  for (int n : {4, 18, 48, 196}) {
    const SphereMesh mesh = FibonacciSphere(n, 0.5);
    ASSERT_EQ(mesh.triangles.rows(), 2 * n - 4);
    const BoundingSphereHierarchy bsh(mesh.vertices, mesh.triangles);
    CheckHierarchy(bsh);
    std::printf(
        "[Bsh] sphere %d vertices, %d triangles: depth %d, root radius %.4f (mesh radius "
        "0.5), sum |I| %d\n",
        n, bsh.num_triangles(), bsh.depth(), bsh.node(bsh.root()).radius,
        bsh.total_node_vertices());
    // Greedy area merging keeps the tree shallow on a uniform mesh.
    EXPECT_LE(bsh.depth(), 2 * static_cast<int>(std::ceil(std::log2(bsh.num_triangles()))) + 2);
  }
}

TEST(Bsh, DisconnectedPiecesAndSingleTriangle) {
  // Two spheres and a lone triangle in one body: no edge joins the three components.
  const SphereMesh s = FibonacciSphere(12, 0.3);
  const int n = static_cast<int>(s.vertices.rows());
  PointsX3 v(2 * n + 3, 3);
  v.topRows(n) = s.vertices;
  v.middleRows(n, n) = s.vertices;
  v.middleRows(n, n).col(0).array() += 2.0;
  v.bottomRows(3) << 0, 3, 0, 1, 3, 0, 0, 4, 0;
  TrianglesX3 t(2 * s.triangles.rows() + 1, 3);
  t.topRows(s.triangles.rows()) = s.triangles;
  t.middleRows(s.triangles.rows(), s.triangles.rows()) = s.triangles.array() + n;
  t.bottomRows(1) << 2 * n, 2 * n + 1, 2 * n + 2;
  const BoundingSphereHierarchy bsh(v, t);
  CheckHierarchy(bsh);
  // Edge-adjacent merges come first: each sphere is one subtree before components are merged.
  for (int first : {0, n}) {
    bool found = false;
    for (int i = 0; i < bsh.num_nodes() && !found; ++i) {
      const auto set = bsh.node_vertices(i);
      found =
          static_cast<int>(set.size()) == n && set.front() == first && set.back() == first + n - 1;
    }
    EXPECT_TRUE(found) << "component starting at vertex " << first;
  }
  const BoundingSphereHierarchy single(v.bottomRows(3), TrianglesX3{{0, 1, 2}});
  CheckHierarchy(single);
  EXPECT_EQ(single.root(), 0);
  EXPECT_EQ(single.depth(), 0);
}

TEST(Bsh, RandomSoupsAreValid) {
  Rng rng(31);
  for (int s = 0; s < 5 * testing::SoakFactor(); ++s) {
    const int nv = 30, nt = 40;
    PointsX3 v(nv, 3);
    for (int i = 0; i < nv; ++i) v.row(i) = testing::RandomVector(rng, 1.0).transpose();
    TrianglesX3 t(nt, 3);
    for (int k = 0; k < nt; ++k) {
      int a = static_cast<int>(rng() % nv), b, c;
      do {
        b = static_cast<int>(rng() % nv);
      } while (b == a);
      do {
        c = static_cast<int>(rng() % nv);
      } while (c == a || c == b);
      t.row(k) << a, b, c;
    }
    CheckHierarchy(BoundingSphereHierarchy(v, t));
  }
}

TEST(Bsh, PosesAgree) {
  const SphereMesh mesh = FibonacciSphere(48, 0.5);
  const BoundingSphereHierarchy bsh(mesh.vertices, mesh.triangles);
  Rng rng(32);
  const Mat3 R = testing::RandomRotation(rng);
  const Vec3 p(3.0, -1.0, 0.5);
  BshPose rigid, general;
  PoseRigid(bsh, R, p, &rigid);
  PoseFromVertices(bsh, testing::Transform(mesh.vertices, R, p), &general);
  EXPECT_LT((rigid.vertices - general.vertices).cwiseAbs().maxCoeff(), 1e-14);
  double worst = 0.0;
  for (int i = 0; i < bsh.num_nodes(); ++i) {
    worst = std::max(worst, (rigid.centers[i] - general.centers[i]).norm());
  }
  EXPECT_LT(worst, 1e-14);
  EXPECT_THROW(PoseFromVertices(bsh, mesh.vertices.topRows(3), &general), InvalidArgument);
}

TEST(Bsh, RejectsBadMeshes) {
  const PointsX3 v = FibonacciSphere(6, 1.0).vertices;
  EXPECT_THROW(BoundingSphereHierarchy(v, TrianglesX3(0, 3)), InvalidArgument);
  EXPECT_THROW(BoundingSphereHierarchy(v, TrianglesX3{{0, 1, 6}}), InvalidArgument);
  EXPECT_THROW(BoundingSphereHierarchy(v, TrianglesX3{{0, 1, 1}}), InvalidArgument);
  PointsX3 bad = v;
  bad(0, 0) = std::nan("");
  EXPECT_THROW(BoundingSphereHierarchy(bad, TrianglesX3{{0, 1, 2}}), InvalidArgument);
}

}  // namespace bounding_sphere_hierarchy_test
}  // namespace arena::longrange
