// IPC distance kernels: every piece's gradient and Hessian against central differences on
// random configurations, the piecewise distances against independent references (Ericson's
// closest point on a triangle; a long-double minimisation over the segment parameter square),
// and the degenerate configurations IPC meets: parallel and nearly parallel edges, a point over
// an edge, a point exactly over a triangle vertex, coincident vertices, zero-length edges and
// zero-area triangles. ARENA_SOAK=<n> multiplies the sample counts.
#include "models/ipc/distance.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "core/geometry/primitives.h"
#include "tests/models/ipc/ipc_test_util.h"

namespace arena::ipc {
namespace distance_test {

using ipc_testing::CheckDerivatives;
using ipc_testing::DerivativeErrors;
using ipc_testing::Differentiable;
using ipc_testing::Point;
using ipc_testing::RandomPoint;
using ipc_testing::RandomUnit;
using ipc_testing::SoakFactor;
using ipc_testing::Stack;

// Central differences at step 1e-6 on O(1) coordinates: truncation ~1e-12 and round-off
// ~1e-10 relative to the largest entry, so 1e-6 leaves a wide margin for curvature.
constexpr double kFdTolerance = 1e-6;

// ---- Adapters to the dynamic-size form the derivative checker takes.

template <int N, class F>
Differentiable Wrap(F f) {
  return [f](const VecX& x, VecX* g, MatX* h) {
    Eigen::Matrix<double, N, 1> gn;
    Eigen::Matrix<double, N, N> hn;
    const double v = f(x, g ? &gn : nullptr, h ? &hn : nullptr);
    if (g != nullptr) *g = gn;
    if (h != nullptr) *h = hn;
    return v;
  };
}

Differentiable PointTriangleFixed(PointTriangleType type) {
  return Wrap<12>([type](const VecX& x, Vec12* g, Mat12* h) {
    return PointTriangleSquaredDistance(Point(x, 0), Point(x, 1), Point(x, 2), Point(x, 3), type, g,
                                        h);
  });
}
Differentiable PointTriangleClassified() {
  return Wrap<12>([](const VecX& x, Vec12* g, Mat12* h) {
    return PointTriangleSquaredDistance(Point(x, 0), Point(x, 1), Point(x, 2), Point(x, 3), g, h);
  });
}
Differentiable EdgeEdgeFixed(EdgeEdgeType type) {
  return Wrap<12>([type](const VecX& x, Vec12* g, Mat12* h) {
    return EdgeEdgeSquaredDistance(Point(x, 0), Point(x, 1), Point(x, 2), Point(x, 3), type, g, h);
  });
}
Differentiable EdgeEdgeClassified() {
  return Wrap<12>([](const VecX& x, Vec12* g, Mat12* h) {
    return EdgeEdgeSquaredDistance(Point(x, 0), Point(x, 1), Point(x, 2), Point(x, 3), g, h);
  });
}

// ---- Independent references.

// Segment-segment squared distance in long double: the minimum of |r + s a - t b|^2 over the
// unit square, from the interior critical point and the four clamped edge minimisers.
double SegmentReference(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1) {
  using L = long double;
  using V = Eigen::Matrix<L, 3, 1>;
  const V r = p0.cast<L>() - q0.cast<L>(), a = p1.cast<L>() - p0.cast<L>(),
          b = q1.cast<L>() - q0.cast<L>();
  const auto f = [&](L s, L t) { return (r + s * a - t * b).squaredNorm(); };
  const auto clamp01 = [](L v) { return std::clamp(v, L(0), L(1)); };
  const L A = a.dot(a), B = a.dot(b), C = b.dot(b), D = r.dot(a), E = r.dot(b);
  L best = std::numeric_limits<L>::infinity();
  for (L s : {L(0), L(1)})
    best = std::min(best, f(s, C > 0 ? clamp01((r + s * a).dot(b) / C) : L(0)));
  for (L t : {L(0), L(1)})
    best = std::min(best, f(A > 0 ? clamp01((t * b - r).dot(a) / A) : L(0), t));
  const L det = A * C - B * B;
  if (det > 0) {
    const L s = (B * E - D * C) / det, t = (A * E - B * D) / det;
    if (s > 0 && s < 1 && t > 0 && t < 1) best = std::min(best, f(s, t));
  }
  return static_cast<double>(best);
}

double PointTriangleReference(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2) {
  return (ClosestPointOnTriangle(p, t0, t1, t2).point - p).squaredNorm();
}

// |d - reference| relative to max(reference, scale^2): relative for far pairs, absolute (in
// units of the configuration's size squared) for close ones.
double ExactnessError(double d, double reference, double scale2) {
  return std::abs(d - reference) / std::max(reference, scale2);
}

// ---- The smooth pieces.

TEST(IpcDistance, PiecesMatchFiniteDifferences) {
  Rng rng(101);
  const int n = 100 * SoakFactor();
  std::map<std::string, DerivativeErrors> worst;
  const auto record = [&](const std::string& name, const DerivativeErrors& e) {
    worst[name].gradient = std::max(worst[name].gradient, e.gradient);
    worst[name].hessian = std::max(worst[name].hessian, e.hessian);
  };
  const Differentiable point_point = Wrap<6>([](const VecX& y, Vec6* g, Mat6* h) {
    return PointPointSquaredDistance(Point(y, 0), Point(y, 1), g, h);
  });
  const Differentiable point_line = Wrap<9>([](const VecX& y, Vec9* g, Mat9* h) {
    return PointLineSquaredDistance(Point(y, 0), Point(y, 1), Point(y, 2), g, h);
  });
  const Differentiable point_plane = Wrap<12>([](const VecX& y, Vec12* g, Mat12* h) {
    return PointPlaneSquaredDistance(Point(y, 0), Point(y, 1), Point(y, 2), Point(y, 3), g, h);
  });
  const Differentiable line_line = Wrap<12>([](const VecX& y, Vec12* g, Mat12* h) {
    return LineLineSquaredDistance(Point(y, 0), Point(y, 1), Point(y, 2), Point(y, 3), g, h);
  });
  const Differentiable cross_norm = Wrap<12>([](const VecX& y, Vec12* g, Mat12* h) {
    return EdgeEdgeCrossSquaredNorm(Point(y, 0), Point(y, 1), Point(y, 2), Point(y, 3), g, h);
  });
  for (int i = 0; i < n; ++i) {
    const VecX x =
        Stack(RandomPoint(rng, 1), RandomPoint(rng, 1), RandomPoint(rng, 1), RandomPoint(rng, 1));
    record("point_point", CheckDerivatives(point_point, x.head(6)));
    record("point_line", CheckDerivatives(point_line, x.head(9)));
    record("point_plane", CheckDerivatives(point_plane, x));
    record("line_line", CheckDerivatives(line_line, x));
    record("cross_norm", CheckDerivatives(cross_norm, x));
  }
  for (const auto& [name, e] : worst) {
    std::printf("[ipc distance] %-12s %d samples: gradient error %.2e, Hessian error %.2e\n",
                name.c_str(), n, e.gradient, e.hessian);
    RecordProperty(name + "_gradient_error", std::to_string(e.gradient));
    RecordProperty(name + "_hessian_error", std::to_string(e.hessian));
    EXPECT_LT(e.gradient, kFdTolerance) << name;
    EXPECT_LT(e.hessian, kFdTolerance) << name;
  }
}

TEST(IpcDistance, PieceValuesMatchTheirDefinitions) {
  const Vec3 p(0.3, -0.2, 0.7), e0(-1, 0, 0), e1(2, 0, 0);
  EXPECT_NEAR(PointLineSquaredDistance(p, e0, e1), 0.2 * 0.2 + 0.7 * 0.7, 1e-15);
  EXPECT_NEAR(PointPlaneSquaredDistance(p, Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)), 0.49,
              1e-15);
  // Skew lines along x at z = 0 and along y at z = 0.25.
  EXPECT_NEAR(
      LineLineSquaredDistance(Vec3(-1, 0, 0), Vec3(1, 0, 0), Vec3(0, -1, 0.25), Vec3(0, 1, 0.25)),
      0.0625, 1e-15);
  EXPECT_NEAR(EdgeEdgeCrossSquaredNorm(Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(0, 0, 0), Vec3(0, 3, 0)),
              36.0, 1e-12);
  EXPECT_EQ(PointPointSquaredDistance(Vec3(1, 2, 3), Vec3(1, 2, 5)), 4.0);
}

// ---- Piecewise distances on random configurations.

TEST(IpcDistance, PointTriangleIsExactAndItsDerivativesMatchFiniteDifferences) {
  Rng rng(102);
  const int n = 1500 * SoakFactor();
  std::map<PointTriangleType, int> seen;
  double exact = 0.0, grad = 0.0, hess = 0.0, grad_full = 0.0;
  for (int i = 0; i < n; ++i) {
    // A triangle in [-1, 1]^3 and a point in a box three times as wide, so every region occurs.
    const Vec3 t0 = RandomPoint(rng, 1), t1 = RandomPoint(rng, 1), t2 = RandomPoint(rng, 1);
    const Vec3 p = RandomPoint(rng, 3);
    const PointTriangleType type = ClassifyPointTriangle(p, t0, t1, t2);
    ++seen[type];
    const double d = PointTriangleSquaredDistance(p, t0, t1, t2);
    exact = std::max(exact, ExactnessError(d, PointTriangleReference(p, t0, t1, t2), 1.0));
    if (i % 5 != 0) continue;  // derivatives on a fifth of the samples (FD Hessians cost)
    const VecX x = Stack(p, t0, t1, t2);
    const DerivativeErrors e = CheckDerivatives(PointTriangleFixed(type), x);
    grad = std::max(grad, e.gradient);
    hess = std::max(hess, e.hessian);
    // The squared distance to a convex set is C1: the classified function's gradient matches
    // differences of the classified function itself, across type boundaries too.
    grad_full = std::max(grad_full, CheckDerivatives(PointTriangleClassified(), x).gradient);
  }
  std::printf(
      "[ipc distance] point-triangle %d samples: exactness %.2e, gradient %.2e, Hessian "
      "%.2e, classified gradient %.2e\n",
      n, exact, grad, hess, grad_full);
  RecordProperty("exactness_error", std::to_string(exact));
  EXPECT_EQ(seen.size(), 7u) << "every closest-feature type occurs";
  EXPECT_LT(exact, 1e-13);
  EXPECT_LT(grad, kFdTolerance);
  EXPECT_LT(hess, kFdTolerance);
  EXPECT_LT(grad_full, kFdTolerance);
}

TEST(IpcDistance, EdgeEdgeIsExactAndItsDerivativesMatchFiniteDifferences) {
  Rng rng(103);
  const int n = 3000 * SoakFactor();
  std::map<EdgeEdgeType, int> seen;
  double exact = 0.0, grad = 0.0, hess = 0.0, grad_full = 0.0;
  for (int i = 0; i < n; ++i) {
    // Short edges scattered in a wider box so that vertex-vertex closest pairs occur too.
    const Vec3 ea0 = RandomPoint(rng, 1), eb0 = RandomPoint(rng, 1);
    const Vec3 ea1 = ea0 + RandomPoint(rng, 1), eb1 = eb0 + RandomPoint(rng, 1);
    const EdgeEdgeType type = ClassifyEdgeEdge(ea0, ea1, eb0, eb1);
    ++seen[type];
    const double d = EdgeEdgeSquaredDistance(ea0, ea1, eb0, eb1);
    exact = std::max(exact, ExactnessError(d, SegmentReference(ea0, ea1, eb0, eb1), 1.0));
    if (i % 10 != 0) continue;
    const VecX x = Stack(ea0, ea1, eb0, eb1);
    const DerivativeErrors e = CheckDerivatives(EdgeEdgeFixed(type), x);
    grad = std::max(grad, e.gradient);
    hess = std::max(hess, e.hessian);
    grad_full = std::max(grad_full, CheckDerivatives(EdgeEdgeClassified(), x).gradient);
  }
  std::printf(
      "[ipc distance] edge-edge %d samples: exactness %.2e, gradient %.2e, Hessian %.2e, "
      "classified gradient %.2e\n",
      n, exact, grad, hess, grad_full);
  RecordProperty("exactness_error", std::to_string(exact));
  EXPECT_EQ(seen.size(), 9u) << "every closest-feature type occurs";
  EXPECT_LT(exact, 1e-13);
  EXPECT_LT(grad, kFdTolerance);
  EXPECT_LT(hess, kFdTolerance);
  EXPECT_LT(grad_full, kFdTolerance);
}

TEST(IpcDistance, ClosestWeightsReproduceTheDistanceVector) {
  Rng rng(104);
  for (int i = 0; i < 300 * SoakFactor(); ++i) {
    const Vec3 t0 = RandomPoint(rng, 1), t1 = RandomPoint(rng, 1), t2 = RandomPoint(rng, 1);
    const Vec3 p = RandomPoint(rng, 2);
    const Vec4 w = PointTriangleClosestWeights(p, t0, t1, t2, ClassifyPointTriangle(p, t0, t1, t2));
    const Vec3 v = w[0] * p + w[1] * t0 + w[2] * t1 + w[3] * t2;
    EXPECT_NEAR(w.sum(), 0.0, 1e-14);
    EXPECT_NEAR(v.squaredNorm(), PointTriangleSquaredDistance(p, t0, t1, t2), 1e-12);
    EXPECT_TRUE(v.isApprox(p - ClosestPointOnTriangle(p, t0, t1, t2).point, 1e-9) ||
                v.norm() < 1e-12);

    const Vec3 ea0 = RandomPoint(rng, 1), ea1 = RandomPoint(rng, 1), eb0 = RandomPoint(rng, 1),
               eb1 = RandomPoint(rng, 1);
    const Vec4 u = EdgeEdgeClosestWeights(ea0, ea1, eb0, eb1, ClassifyEdgeEdge(ea0, ea1, eb0, eb1));
    const Vec3 c = u[0] * ea0 + u[1] * ea1 + u[2] * eb0 + u[3] * eb1;
    EXPECT_NEAR(u[0] + u[1], 1.0, 1e-14);
    EXPECT_NEAR(u[2] + u[3], -1.0, 1e-14);
    EXPECT_NEAR(c.squaredNorm(), EdgeEdgeSquaredDistance(ea0, ea1, eb0, eb1), 1e-12);
  }
}

// ---- Degenerate configurations.

TEST(IpcDistance, ParallelEdgesUseTheVertexEdgePieces) {
  // Overlapping parallel and anti-parallel edges 0.5 apart, and collinear disjoint ones.
  const Vec3 ea0(0, 0, 0), ea1(1, 0, 0);
  const Vec3 eb0(0.3, 0.5, 0), eb1(1.7, 0.5, 0);
  for (const bool flip : {false, true}) {
    const Vec3& b0 = flip ? eb1 : eb0;
    const Vec3& b1 = flip ? eb0 : eb1;
    const EdgeEdgeType type = ClassifyEdgeEdge(ea0, ea1, b0, b1);
    EXPECT_NE(type, EdgeEdgeType::kEdgeEdge) << ToString(type);
    EXPECT_DOUBLE_EQ(EdgeEdgeSquaredDistance(ea0, ea1, b0, b1), 0.25);
    const DerivativeErrors e = CheckDerivatives(EdgeEdgeFixed(type), Stack(ea0, ea1, b0, b1));
    EXPECT_LT(e.gradient, kFdTolerance);
    EXPECT_LT(e.hessian, kFdTolerance);
  }
  EXPECT_DOUBLE_EQ(EdgeEdgeSquaredDistance(ea0, ea1, Vec3(3, 0, 0), Vec3(5, 0, 0)), 4.0);
  EXPECT_EQ(ClassifyEdgeEdge(ea0, ea1, Vec3(3, 0, 0), Vec3(5, 0, 0)), EdgeEdgeType::kA1B0);
}

TEST(IpcDistance, NearlyParallelEdgesStayExactAndFinite) {
  // Two unit edges whose projections on the xy-plane cross inside both, at angle theta, 0.01
  // apart along z: the segment distance is 0.01 for every theta (closed form). The same
  // configuration is also checked after a rigid motion (generic coordinates).
  Rng rng(106);
  double worst_exact = 0.0, worst_grad = 0.0, worst_hess = 0.0;
  for (int posed = 0; posed < 2; ++posed) {
    const Mat3 r =
        posed ? Eigen::AngleAxisd(1.1, RandomUnit(rng)).toRotationMatrix() : Mat3::Identity();
    const Vec3 shift = posed ? RandomPoint(rng, 2.0) : Vec3::Zero();
    for (double theta = 1e-1; theta >= 1e-13; theta /= 10.0) {
      const Vec3 dir(std::cos(theta), std::sin(theta), 0.0);
      const Vec3 c(0.1, 0.0, 0.01);
      const Vec3 ea0 = r * Vec3(-0.5, 0, 0) + shift, ea1 = r * Vec3(0.5, 0, 0) + shift;
      const Vec3 eb0 = r * (c - 0.5 * dir) + shift, eb1 = r * (c + 0.5 * dir) + shift;
      const EdgeEdgeType type = ClassifyEdgeEdge(ea0, ea1, eb0, eb1);
      Vec12 g;
      Mat12 h;
      const double d = EdgeEdgeSquaredDistance(ea0, ea1, eb0, eb1, type, &g, &h);
      EXPECT_TRUE(std::isfinite(d) && g.allFinite() && h.allFinite()) << theta;
      worst_exact = std::max(worst_exact, std::abs(d - 1e-4) / 1e-4);
      // The line-line derivatives grow like powers of 1/theta, so central differences of O(1)
      // coordinates lose their digits below theta = 1e-3 (truncation ~ h^2 / theta^3);
      // exactness and finiteness are still checked above.
      if (theta >= 1e-3) {
        const DerivativeErrors e =
            CheckDerivatives(EdgeEdgeFixed(type), Stack(ea0, ea1, eb0, eb1), 1e-7);
        worst_grad = std::max(worst_grad, e.gradient);
        worst_hess = std::max(worst_hess, e.hessian);
      }
    }
  }
  std::printf(
      "[ipc distance] nearly parallel edges, theta 1e-1 .. 1e-13: relative error of the "
      "squared distance %.2e, gradient %.2e, Hessian %.2e (theta >= 1e-3)\n",
      worst_exact, worst_grad, worst_hess);
  EXPECT_LT(worst_exact, 1e-12);
  EXPECT_LT(worst_grad, 1e-6);
  EXPECT_LT(worst_hess, 1e-6);
}

TEST(IpcDistance, PointOverAnEdgeIsOnTheFaceEdgeBoundary) {
  const Vec3 t0(0, 0, 0), t1(1, 0, 0), t2(0, 1, 0);
  const Vec3 p(0.4, 0.0, 0.3);  // exactly above the interior of edge t0 t1
  EXPECT_EQ(ClassifyPointTriangle(p, t0, t1, t2), PointTriangleType::kEdge01);
  EXPECT_DOUBLE_EQ(PointTriangleSquaredDistance(p, t0, t1, t2), 0.09);
  // Both pieces meeting there agree in value and gradient (C1 across the boundary).
  Vec12 g_edge, g_face;
  const double d_edge =
      PointTriangleSquaredDistance(p, t0, t1, t2, PointTriangleType::kEdge01, &g_edge);
  const double d_face =
      PointTriangleSquaredDistance(p, t0, t1, t2, PointTriangleType::kFace, &g_face);
  EXPECT_NEAR(d_edge, d_face, 1e-15);
  EXPECT_LT((g_edge - g_face).norm(), 1e-14);
  const VecX x = Stack(p, t0, t1, t2);
  for (PointTriangleType type : {PointTriangleType::kEdge01, PointTriangleType::kFace}) {
    const DerivativeErrors e = CheckDerivatives(PointTriangleFixed(type), x);
    EXPECT_LT(e.gradient, kFdTolerance) << ToString(type);
    EXPECT_LT(e.hessian, kFdTolerance) << ToString(type);
  }
  // Across the boundary the central difference has an O(step) error (see below).
  EXPECT_LT(CheckDerivatives(PointTriangleClassified(), x, 1e-8).gradient, kFdTolerance);
  // Point above an edge's interior against the edge alone (point-edge), and over its end.
  EXPECT_EQ(ClassifyPointEdge(p, t0, t1), PointEdgeType::kInterior);
  EXPECT_EQ(ClassifyPointEdge(Vec3(1.0, 0.0, 0.3), t0, t1), PointEdgeType::kVertex1);
}

TEST(IpcDistance, PointExactlyOverATriangleVertex) {
  Rng rng(105);
  for (int i = 0; i < 20; ++i) {
    const Vec3 t0 = RandomPoint(rng, 1), t1 = RandomPoint(rng, 1), t2 = RandomPoint(rng, 1);
    const Vec3 n = (t1 - t0).cross(t2 - t0).normalized();
    const Vec3 p = t0 + 0.3 * n;  // projects exactly (up to round-off) onto t0
    const PointTriangleType type = ClassifyPointTriangle(p, t0, t1, t2);
    EXPECT_NE(type, PointTriangleType::kVertex1);
    EXPECT_NE(type, PointTriangleType::kVertex2);
    EXPECT_NEAR(PointTriangleSquaredDistance(p, t0, t1, t2), 0.09, 1e-14);
    // Vertex, edge and face pieces all agree there (value and gradient).
    Vec12 g_vertex, g_face, g_edge;
    PointTriangleSquaredDistance(p, t0, t1, t2, PointTriangleType::kVertex0, &g_vertex);
    PointTriangleSquaredDistance(p, t0, t1, t2, PointTriangleType::kFace, &g_face);
    PointTriangleSquaredDistance(p, t0, t1, t2, PointTriangleType::kEdge01, &g_edge);
    EXPECT_LT((g_vertex - g_face).norm(), 1e-12);
    EXPECT_LT((g_vertex - g_edge).norm(), 1e-12);
    const VecX x = Stack(p, t0, t1, t2);
    const DerivativeErrors e = CheckDerivatives(PointTriangleFixed(type), x);
    EXPECT_LT(e.gradient, kFdTolerance);
    EXPECT_LT(e.hessian, kFdTolerance);
    // The central difference straddles pieces whose second derivatives differ, so its error is
    // O(step): a smaller step keeps it below the tolerance.
    EXPECT_LT(CheckDerivatives(PointTriangleClassified(), x, 1e-8).gradient, kFdTolerance);
  }
}

TEST(IpcDistance, CoincidentVerticesAndDegeneratePrimitivesGiveFiniteResults) {
  const Vec3 t0(0, 0, 0), t1(1, 0, 0), t2(0, 1, 0);
  Vec12 g;
  Mat12 h;
  // Point on a triangle vertex: distance 0, zero gradient, the point-point Hessian.
  EXPECT_EQ(PointTriangleSquaredDistance(t1, t0, t1, t2, &g, &h), 0.0);
  EXPECT_TRUE(g.isZero() && h.allFinite());
  // Point in the triangle's plane and inside it: distance 0 through the plane piece.
  EXPECT_EQ(PointTriangleSquaredDistance(Vec3(0.2, 0.2, 0), t0, t1, t2, &g, &h), 0.0);
  EXPECT_TRUE(g.isZero() && h.allFinite());
  // Edges sharing a vertex.
  EXPECT_EQ(EdgeEdgeSquaredDistance(t0, t1, t0, t2, &g, &h), 0.0);
  EXPECT_TRUE(g.allFinite() && h.allFinite());
  // Zero-length edges: vertex pieces only.
  const EdgeEdgeType zero = ClassifyEdgeEdge(t2, t2, t0, t1);
  EXPECT_TRUE(zero == EdgeEdgeType::kA0EdgeB || zero == EdgeEdgeType::kA0B0) << ToString(zero);
  EXPECT_DOUBLE_EQ(EdgeEdgeSquaredDistance(t2, t2, t0, t1, &g, &h), 1.0);
  EXPECT_TRUE(g.allFinite() && h.allFinite());
  EXPECT_DOUBLE_EQ(EdgeEdgeSquaredDistance(t2, t2, t1, t1, &g, &h), 2.0);
  EXPECT_TRUE(g.allFinite() && h.allFinite());
  EXPECT_EQ(ClassifyPointEdge(t2, t0, t0), PointEdgeType::kVertex0);
  // Zero-area triangles have no face region: the nearest edge decides.
  const Vec3 c(2, 0, 0);  // t0, t1, c collinear
  for (const Vec3& p : {Vec3(0.5, 0.3, 0.2), Vec3(0.5, 0.0, 0.0), Vec3(3, 0, 0)}) {
    const PointTriangleType type = ClassifyPointTriangle(p, t0, t1, c);
    EXPECT_NE(type, PointTriangleType::kFace);
    const double d = PointTriangleSquaredDistance(p, t0, t1, c, &g, &h);
    EXPECT_NEAR(d, PointTriangleReference(p, t0, t1, c), 1e-15);
    EXPECT_TRUE(g.allFinite() && h.allFinite());
  }
  // A triangle collapsed to a point.
  EXPECT_DOUBLE_EQ(PointTriangleSquaredDistance(Vec3(0, 0, 2), t0, t0, t0, &g, &h), 4.0);
  EXPECT_TRUE(g.allFinite() && h.allFinite());
}

TEST(IpcDistance, TypeNames) {
  EXPECT_EQ(ToString(PointEdgeType::kInterior), "interior");
  EXPECT_EQ(ToString(PointTriangleType::kEdge20), "edge20");
  EXPECT_EQ(ToString(PointTriangleType::kFace), "face");
  EXPECT_EQ(ToString(EdgeEdgeType::kB1EdgeA), "b1_edge_a");
  EXPECT_EQ(ToString(EdgeEdgeType::kEdgeEdge), "edge_edge");
}

}  // namespace distance_test
}  // namespace arena::ipc
