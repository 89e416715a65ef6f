// IPC broad phase against brute force on seeded random meshes (closed hulls and triangle
// soups): the BVH candidates equal the brute-force set of inflated-box overlaps and contain
// every pair closer than dhat; the conservative step bound holds along straight-line and rigid
// motions, checked by brute-force distances over all pairs. ARENA_SOAK=<n> multiplies samples.
#include "models/ipc/candidates.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>
#include <vector>

#include "core/common/error.h"
#include "core/geometry/convex_hull.h"
#include "core/math/so3.h"
#include "models/ipc/distance.h"
#include "tests/models/ipc/ipc_test_util.h"

namespace arena::ipc {
namespace candidates_test {

using ipc_testing::RandomPoint;
using ipc_testing::RandomUnit;
using ipc_testing::SoakFactor;

struct Mesh {
  PointsX3 vertices;
  SurfaceTopology topology;
};


// The hull of n random points on a sphere of radius r about `center`.
Mesh RandomHull(Rng& rng, int n, double r, const Vec3& center) {
  PointsX3 points(n, 3);
  for (int i = 0; i < n; ++i) points.row(i) = (center + r * RandomUnit(rng)).transpose();
  const ConvexHull hull = MakeConvexHull(points);
  TrianglesX3 tris(static_cast<int>(hull.data->triangles.size()), 3);
  for (int t = 0; t < tris.rows(); ++t) tris.row(t) = hull.data->triangles[t].transpose();
  Mesh m;
  m.vertices = hull.data->vertices;
  m.topology = MakeSurfaceTopology(tris, static_cast<int>(m.vertices.rows()));
  return m;
}

// n independent small triangles in a box of half width h about `center`.
Mesh RandomSoup(Rng& rng, int n, double h, const Vec3& center) {
  Mesh m;
  m.vertices.resize(3 * n, 3);
  TrianglesX3 tris(n, 3);
  for (int t = 0; t < n; ++t) {
    const Vec3 c = center + RandomPoint(rng, h);
    for (int k = 0; k < 3; ++k)
      m.vertices.row(3 * t + k) = (c + RandomPoint(rng, 0.15)).transpose();
    tris.row(t) << 3 * t, 3 * t + 1, 3 * t + 2;
  }
  m.topology = MakeSurfaceTopology(tris, 3 * n);
  return m;
}

Aabb TriangleBox(const Mesh& m, int t) {
  Aabb b;
  for (int k = 0; k < 3; ++k) b.Extend(PointAt(m.vertices, m.topology.triangles(t, k)));
  return b;
}
Aabb EdgeBox(const Mesh& m, int e) {
  Aabb b;
  b.Extend(PointAt(m.vertices, m.topology.edges(e, 0)));
  b.Extend(PointAt(m.vertices, m.topology.edges(e, 1)));
  return b;
}

double PointTriangleDistance(const Mesh& pm, int v, const Mesh& tm, int t) {
  const auto tri = tm.topology.triangles.row(t);
  return std::sqrt(PointTriangleSquaredDistance(PointAt(pm.vertices, v), PointAt(tm.vertices, tri[0]),
                                                PointAt(tm.vertices, tri[1]),
                                                PointAt(tm.vertices, tri[2])));
}
double EdgeEdgeDistance(const Mesh& a, int e, const Mesh& b, int f) {
  return std::sqrt(EdgeEdgeSquaredDistance(
      PointAt(a.vertices, a.topology.edges(e, 0)), PointAt(a.vertices, a.topology.edges(e, 1)),
      PointAt(b.vertices, b.topology.edges(f, 0)), PointAt(b.vertices, b.topology.edges(f, 1))));
}

// Brute force: every pair whose inflated first box overlaps the second.
Candidates BruteForce(const Mesh& a, const Mesh& b, double dhat) {
  Candidates out;
  for (int v = 0; v < a.vertices.rows(); ++v) {
    for (int t = 0; t < b.topology.triangles.rows(); ++t) {
      if (Aabb::FromPoint(PointAt(a.vertices, v)).Inflated(dhat).Overlaps(TriangleBox(b, t))) {
        out.point_a_triangle_b.push_back({v, t});
      }
    }
  }
  for (int v = 0; v < b.vertices.rows(); ++v) {
    for (int t = 0; t < a.topology.triangles.rows(); ++t) {
      if (Aabb::FromPoint(PointAt(b.vertices, v)).Inflated(dhat).Overlaps(TriangleBox(a, t))) {
        out.point_b_triangle_a.push_back({v, t});
      }
    }
  }
  for (int e = 0; e < a.topology.edges.rows(); ++e) {
    for (int f = 0; f < b.topology.edges.rows(); ++f) {
      if (EdgeBox(a, e).Inflated(dhat).Overlaps(EdgeBox(b, f))) out.edge_edge.push_back({e, f});
    }
  }
  return out;
}

bool SamePointTriangle(const std::vector<PointTriangleCandidate>& x,
                       const std::vector<PointTriangleCandidate>& y) {
  return x.size() == y.size() &&
         std::equal(x.begin(), x.end(), y.begin(), [](const auto& p, const auto& q) {
           return p.vertex == q.vertex && p.triangle == q.triangle;
         });
}
bool SameEdgeEdge(const std::vector<EdgeEdgeCandidate>& x,
                  const std::vector<EdgeEdgeCandidate>& y) {
  return x.size() == y.size() &&
         std::equal(x.begin(), x.end(), y.begin(), [](const auto& p, const auto& q) {
           return p.edge_a == q.edge_a && p.edge_b == q.edge_b;
         });
}

// Exact minimum distance over all inter-mesh point-triangle and edge-edge pairs.
double AllPairsDistance(const Mesh& a, const Mesh& b) {
  double best = std::numeric_limits<double>::infinity();
  for (int v = 0; v < a.vertices.rows(); ++v) {
    for (int t = 0; t < b.topology.triangles.rows(); ++t)
      best = std::min(best, PointTriangleDistance(a, v, b, t));
  }
  for (int v = 0; v < b.vertices.rows(); ++v) {
    for (int t = 0; t < a.topology.triangles.rows(); ++t)
      best = std::min(best, PointTriangleDistance(b, v, a, t));
  }
  for (int e = 0; e < a.topology.edges.rows(); ++e) {
    for (int f = 0; f < b.topology.edges.rows(); ++f)
      best = std::min(best, EdgeEdgeDistance(a, e, b, f));
  }
  return best;
}

TEST(IpcCandidates, TopologyListsUniqueEdges) {
  Rng rng(501);
  const Mesh hull = RandomHull(rng, 40, 1.0, Vec3::Zero());
  // A closed triangulated surface has E = 3T/2 edges, each with i < j, ascending.
  EXPECT_EQ(2 * hull.topology.edges.rows(), 3 * hull.topology.triangles.rows());
  for (int e = 0; e < hull.topology.edges.rows(); ++e) {
    EXPECT_LT(hull.topology.edges(e, 0), hull.topology.edges(e, 1));
    if (e > 0) {
      EXPECT_TRUE(std::make_pair(hull.topology.edges(e - 1, 0), hull.topology.edges(e - 1, 1)) <
                  std::make_pair(hull.topology.edges(e, 0), hull.topology.edges(e, 1)));
    }
  }
  TrianglesX3 bad(1, 3);
  bad << 0, 1, 5;
  EXPECT_THROW(MakeSurfaceTopology(bad, 5), InvalidArgument);
  bad << 0, 1, 1;
  EXPECT_THROW(MakeSurfaceTopology(bad, 5), InvalidArgument);
}

TEST(IpcCandidates, MatchBruteForceAndContainEveryClosePair) {
  Rng rng(502);
  int total = 0, close_pairs = 0;
  for (int trial = 0; trial < 12 * SoakFactor(); ++trial) {
    const double dhat = Uniform(rng, 0.02, 0.2);
    Mesh a, b;
    if (trial % 2 == 0) {
      // Two hulls of radius 1 whose centres are 2 + gap apart, gap in (-0.05, dhat).
      a = RandomHull(rng, 30 + 10 * (trial % 3), 1.0, Vec3::Zero());
      b = RandomHull(rng, 30, 1.0, (2.0 + Uniform(rng, -0.05, dhat)) * RandomUnit(rng));
    } else {
      a = RandomSoup(rng, 60, 1.0, Vec3::Zero());
      b = RandomSoup(rng, 60, 1.0, RandomPoint(rng, 0.5));
    }
    const Candidates got = FindCandidates(a.vertices, a.topology, b.vertices, b.topology, dhat);
    const Candidates want = BruteForce(a, b, dhat);
    EXPECT_TRUE(SamePointTriangle(got.point_a_triangle_b, want.point_a_triangle_b)) << trial;
    EXPECT_TRUE(SamePointTriangle(got.point_b_triangle_a, want.point_b_triangle_a)) << trial;
    EXPECT_TRUE(SameEdgeEdge(got.edge_edge, want.edge_edge)) << trial;
    // Swapping the meshes mirrors the set: the point lists trade places, edge pairs transpose.
    const Candidates swapped = FindCandidates(b.vertices, b.topology, a.vertices, a.topology, dhat);
    EXPECT_TRUE(SamePointTriangle(swapped.point_a_triangle_b, got.point_b_triangle_a));
    EXPECT_TRUE(SamePointTriangle(swapped.point_b_triangle_a, got.point_a_triangle_b));
    std::vector<EdgeEdgeCandidate> transposed;
    for (const auto& c : got.edge_edge) transposed.push_back({c.edge_b, c.edge_a});
    std::sort(transposed.begin(), transposed.end(), [](const auto& p, const auto& q) {
      return std::tie(p.edge_a, p.edge_b) < std::tie(q.edge_a, q.edge_b);
    });
    EXPECT_TRUE(SameEdgeEdge(swapped.edge_edge, transposed));
    total += got.size();
    // Completeness against exact distances: every pair closer than dhat is a candidate.
    const std::vector<double> d =
        CandidateDistances(got, a.vertices, a.topology, b.vertices, b.topology);
    const int in_set =
        static_cast<int>(std::count_if(d.begin(), d.end(), [&](double x) { return x < dhat; }));
    int all = 0;
    for (int v = 0; v < a.vertices.rows(); ++v) {
      for (int t = 0; t < b.topology.triangles.rows(); ++t)
        all += PointTriangleDistance(a, v, b, t) < dhat;
    }
    for (int v = 0; v < b.vertices.rows(); ++v) {
      for (int t = 0; t < a.topology.triangles.rows(); ++t)
        all += PointTriangleDistance(b, v, a, t) < dhat;
    }
    for (int e = 0; e < a.topology.edges.rows(); ++e) {
      for (int f = 0; f < b.topology.edges.rows(); ++f) all += EdgeEdgeDistance(a, e, b, f) < dhat;
    }
    EXPECT_EQ(in_set, all) << trial;
    close_pairs += all;
  }
  std::printf("[ipc candidates] %d candidates, %d pairs closer than dhat, all found\n", total,
              close_pairs);
  EXPECT_GT(close_pairs, 0);
}

TEST(IpcCandidates, InfiniteDhatGivesEveryPair) {
  Rng rng(503);
  const Mesh a = RandomHull(rng, 12, 1.0, Vec3::Zero());
  const Mesh b = RandomHull(rng, 10, 1.0, Vec3(100, 0, 0));
  const Candidates c = FindCandidates(a.vertices, a.topology, b.vertices, b.topology,
                                      std::numeric_limits<double>::infinity());
  EXPECT_EQ(c.point_a_triangle_b.size(),
            static_cast<size_t>(a.vertices.rows() * b.topology.triangles.rows()));
  EXPECT_EQ(c.point_b_triangle_a.size(),
            static_cast<size_t>(b.vertices.rows() * a.topology.triangles.rows()));
  EXPECT_EQ(c.edge_edge.size(),
            static_cast<size_t>(a.topology.edges.rows() * b.topology.edges.rows()));
  EXPECT_THROW(FindCandidates(a.vertices, a.topology, b.vertices, b.topology, -1.0),
               InvalidArgument);
  EXPECT_THROW(FindCandidates(b.vertices, a.topology, b.vertices, b.topology, 0.1),
               InvalidArgument);
}

// Moves a mesh: straight lines x + alpha dx, or a rigid motion about `pivot`.
Mesh Moved(const Mesh& m, const PointsX3& dx, double alpha) {
  Mesh out = m;
  out.vertices += alpha * dx;
  return out;
}
Mesh Rotated(const Mesh& m, const Vec3& pivot, const Vec3& dtheta, const Vec3& dp, double alpha) {
  Mesh out = m;
  const Mat3 r = ExpSO3(alpha * dtheta);
  for (int i = 0; i < m.vertices.rows(); ++i) {
    out.vertices.row(i) = (pivot + r * (PointAt(m.vertices, i) - pivot) + alpha * dp).transpose();
  }
  return out;
}

TEST(IpcCandidates, StepBoundIsSound) {
  Rng rng(504);
  const double dhat = 0.1, eta = 0.1;
  int limited = 0;
  double tightest = std::numeric_limits<double>::infinity();
  for (int trial = 0; trial < 10 * SoakFactor(); ++trial) {
    const Mesh a = RandomHull(rng, 24, 1.0, Vec3::Zero());
    const Vec3 dir = RandomUnit(rng);
    Mesh b = RandomHull(rng, 24, 1.0, 2.5 * dir);
    // Slide B towards A until the gap is near a target inside dhat (a translation by s changes
    // the distance by at most s, so the gap never drops below the target).
    const double target = Uniform(rng, 0.01, 0.08);
    double now = AllPairsDistance(a, b);
    for (int k = 0; k < 4; ++k) {
      b = Rotated(b, Vec3::Zero(), Vec3::Zero(), -(now - target) * dir, 1.0);
      now = AllPairsDistance(a, b);
    }
    ASSERT_GE(now, target - 1e-12);
    const Candidates c = FindCandidates(a.vertices, a.topology, b.vertices, b.topology, dhat);
    const bool rigid = trial % 2 == 1;
    // Steps that push the bodies together: straight lines per vertex, or a rigid motion of B.
    PointsX3 dx_a(a.vertices.rows(), 3), dx_b(b.vertices.rows(), 3);
    for (int i = 0; i < dx_a.rows(); ++i)
      dx_a.row(i) = (0.2 * dir + RandomPoint(rng, 0.05)).transpose();
    for (int i = 0; i < dx_b.rows(); ++i)
      dx_b.row(i) = (-0.2 * dir + RandomPoint(rng, 0.05)).transpose();
    const Vec3 dtheta = RandomPoint(rng, 0.3), dp = -0.3 * dir;
    const Vec3 pivot = b.vertices.colwise().mean().transpose();
    VecX delta_a = dx_a.rowwise().norm();
    VecX delta_b(b.vertices.rows());
    for (int i = 0; i < delta_b.size(); ++i) {
      delta_b[i] = rigid ? dp.norm() + dtheta.norm() * (PointAt(b.vertices, i) - pivot).norm()
                         : dx_b.row(i).norm();
    }
    if (rigid) delta_a.setZero();
    const StepBound bound = ConservativeStepBound(c, a.vertices, a.topology, b.vertices, b.topology,
                                                  delta_a, delta_b, dhat, eta);
    if (now < dhat) {
      EXPECT_NEAR(bound.min_distance, now, 1e-12);
    } else {
      EXPECT_GE(bound.min_distance, now);
    }
    EXPECT_GT(bound.alpha, 0.0);
    EXPECT_LE(bound.alpha, 1.0);
    limited += bound.alpha < 1.0;
    EXPECT_GT(bound.distance_lower_bound, 0.0);
    // The true distance stays above the bound over the whole step [0, alpha].
    for (double s : {0.25, 0.5, 0.75, 1.0}) {
      const double alpha = s * bound.alpha;
      const Mesh a_t = rigid ? a : Moved(a, dx_a, alpha);
      const Mesh b_t = rigid ? Rotated(b, pivot, dtheta, dp, alpha) : Moved(b, dx_b, alpha);
      const double d = AllPairsDistance(a_t, b_t);
      EXPECT_GE(d, bound.distance_lower_bound - 1e-12) << trial << " " << s;
      EXPECT_GE(d, eta * std::min(now, dhat) - 1e-12);
      if (s == 1.0) tightest = std::min(tightest, d / bound.distance_lower_bound);
    }
  }
  std::printf(
      "[ipc candidates] step bound: %d of %d steps limited; true / bounded distance at "
      "alpha >= %.2f\n",
      limited, 10 * SoakFactor(), tightest);
  EXPECT_GT(limited, 0);
}

TEST(IpcCandidates, StepBoundInputsAreChecked) {
  Rng rng(505);
  const Mesh a = RandomHull(rng, 10, 1.0, Vec3::Zero());
  const Mesh b = RandomHull(rng, 10, 1.0, Vec3(2.05, 0, 0));
  const Candidates c = FindCandidates(a.vertices, a.topology, b.vertices, b.topology, 0.1);
  const VecX da = VecX::Zero(a.vertices.rows()), db = VecX::Zero(b.vertices.rows());
  const StepBound still =
      ConservativeStepBound(c, a.vertices, a.topology, b.vertices, b.topology, da, db, 0.1);
  EXPECT_EQ(still.alpha, 1.0);  // nothing moves
  EXPECT_THROW(ConservativeStepBound(c, a.vertices, a.topology, b.vertices, b.topology,
                                     VecX::Zero(3), db, 0.1),
               InvalidArgument);
  EXPECT_THROW(ConservativeStepBound(c, a.vertices, a.topology, b.vertices, b.topology,
                                     -VecX::Ones(a.vertices.rows()), db, 0.1),
               InvalidArgument);
  EXPECT_THROW(
      ConservativeStepBound(c, a.vertices, a.topology, b.vertices, b.topology, da, db, 0.1, 1.0),
      InvalidArgument);
}

}  // namespace candidates_test
}  // namespace arena::ipc
