// IPC lagged friction: the mollified Coulomb profile (C1 at eps_u), the lagged stencils (tangent
// basis, closest-point weights, normal force against differences of the barrier), and the
// friction potential's gradient and Hessian against differences, in the static (|u| < eps_u) and
// sliding regimes, with its Hessian PSD.
#include "models/ipc/friction.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "models/ipc/psd_projection.h"
#include "tests/models/ipc/ipc_test_util.h"

namespace arena::ipc {
namespace friction_test {

using ipc_testing::CheckDerivatives;
using ipc_testing::DerivativeErrors;
using ipc_testing::Point;
using ipc_testing::RandomPoint;
using ipc_testing::RandomUnit;
using ipc_testing::SoakFactor;
using ipc_testing::Stack;

TEST(IpcFriction, MollifierIsC1AtEpsU) {
  const double eps = 1e-3;
  const ScalarDerivatives at0 = FrictionMollifier(0.0, eps);
  EXPECT_DOUBLE_EQ(at0.value, eps / 3.0);
  EXPECT_EQ(at0.first, 0.0);
  EXPECT_DOUBLE_EQ(at0.second, 2.0 / eps);
  const ScalarDerivatives below = FrictionMollifier(eps * (1 - 1e-9), eps);
  const ScalarDerivatives above = FrictionMollifier(eps, eps);
  EXPECT_NEAR(below.value, above.value, 2e-12);  // f0 continuous (slope 1, gap 1e-12)
  EXPECT_NEAR(below.first, 1.0, 1e-15);          // f1 continuous (= 1 beyond)
  EXPECT_EQ(above.first, 1.0);
  EXPECT_EQ(above.second, 0.0);
  EXPECT_NEAR(below.second, 0.0, 1e-5);  // f1' -> 0: f0 is C2 at eps_u in fact
  double worst = 0.0;
  for (double y : {1e-6, 1e-4, 5e-4, 9e-4, 2e-3, 1.0}) {
    const double h = y < eps ? 1e-6 * eps : 1e-7 * y;  // f0 carries eps/3: keep h >= 1e-9
    const ScalarDerivatives f = FrictionMollifier(y, eps);
    const double d0 =
        (FrictionMollifier(y + h, eps).value - FrictionMollifier(y - h, eps).value) / (2 * h);
    const double d1 =
        (FrictionMollifier(y + h, eps).first - FrictionMollifier(y - h, eps).first) / (2 * h);
    worst = std::max({worst, std::abs(d0 - f.first) / std::max(1e-12, std::abs(f.first)),
                      std::abs(d1 - f.second) / std::max(1.0 / eps, std::abs(f.second))});
  }
  EXPECT_LT(worst, 1e-6);
}

// A lagged point-triangle pair at a distance in (0.05, 0.9) dhat from a random triangle point.
VecX LaggedPointTriangle(Rng& rng, double dhat) {
  const Vec3 t0 = RandomPoint(rng, 1), t1 = RandomPoint(rng, 1), t2 = RandomPoint(rng, 1);
  double u = Uniform01(rng), v = Uniform01(rng);
  if (u + v > 1.0) {
    u = 1.0 - u;
    v = 1.0 - v;
  }
  const Vec3 q = t0 + u * (t1 - t0) + v * (t2 - t0);
  return Stack(q + Uniform(rng, 0.05, 0.9) * dhat * RandomUnit(rng), t0, t1, t2);
}

VecX LaggedEdgeEdge(Rng& rng, double dhat) {
  const Vec3 ea0 = RandomPoint(rng, 1), ea1 = RandomPoint(rng, 1);
  const Vec3 a = ea1 - ea0, dir = RandomUnit(rng);
  const Vec3 c =
      ea0 + Uniform(rng, 0.0, 1.0) * a + Uniform(rng, 0.05, 0.9) * dhat * RandomUnit(rng);
  const Vec3 eb0 = c - Uniform(rng, 0.0, 1.0) * dir;
  return Stack(ea0, ea1, eb0, eb0 + dir);
}

void ExpectValidStencil(const FrictionStencil& s, const Vec3& distance_vector) {
  EXPECT_LT((s.basis.transpose() * s.basis - Mat2::Identity()).norm(), 1e-12);
  // The contact normal (basis col0 x col1) is along the lagged distance vector.
  const Vec3 n = s.basis.col(0).cross(s.basis.col(1));
  EXPECT_LT(n.cross(distance_vector).norm(), 1e-9 * distance_vector.norm());
  EXPECT_GT(s.normal_force, 0.0);
}

TEST(IpcFriction, StencilsCarryTheLaggedContactFrame) {
  Rng rng(401);
  const BarrierParameters barrier{BarrierKind::kClampedLog, 0.5};
  const double kappa = 3.0;
  double worst_lambda = 0.0;
  for (int i = 0; i < 100 * SoakFactor(); ++i) {
    const VecX x = LaggedPointTriangle(rng, barrier.dhat);
    const Vec3 p = Point(x, 0), t0 = Point(x, 1), t1 = Point(x, 2), t2 = Point(x, 3);
    const FrictionStencil s = PointTriangleFrictionStencil(p, t0, t1, t2, kappa, barrier);
    const Vec3 v = s.weights[0] * p + s.weights[1] * t0 + s.weights[2] * t1 + s.weights[3] * t2;
    EXPECT_NEAR(s.weights.sum(), 0.0, 1e-14);
    ExpectValidStencil(s, v);
    // lambda = kappa |dB/d dist|: move p along the distance direction (the same closest point).
    const Vec3 n = v.normalized();
    const double h = 1e-7;
    const double fd = kappa *
                      (PointTriangleBarrier(p + h * n, t0, t1, t2, barrier) -
                       PointTriangleBarrier(p - h * n, t0, t1, t2, barrier)) /
                      (2 * h);
    worst_lambda = std::max(worst_lambda, std::abs(s.normal_force + fd) / s.normal_force);

    const VecX y = LaggedEdgeEdge(rng, barrier.dhat);
    const double eps_x =
        EdgeEdgeMollifierThreshold(Point(y, 0), Point(y, 1), Point(y, 2), Point(y, 3));
    const FrictionStencil e = EdgeEdgeFrictionStencil(Point(y, 0), Point(y, 1), Point(y, 2),
                                                      Point(y, 3), eps_x, kappa, barrier);
    EXPECT_NEAR(e.weights[0] + e.weights[1], 1.0, 1e-14);
    EXPECT_NEAR(e.weights[2] + e.weights[3], -1.0, 1e-14);
    const Vec3 w = e.weights[0] * Point(y, 0) + e.weights[1] * Point(y, 1) +
                   e.weights[2] * Point(y, 2) + e.weights[3] * Point(y, 3);
    ExpectValidStencil(e, w);
  }
  std::printf("[ipc friction] normal force vs differences of the barrier: %.2e\n", worst_lambda);
  EXPECT_LT(worst_lambda, 1e-6);
  // Beyond dhat the pair is inactive: no friction.
  const FrictionStencil far = PointTriangleFrictionStencil(
      Vec3(0, 0, 1), Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), kappa, barrier);
  EXPECT_EQ(far.normal_force, 0.0);
  EXPECT_EQ(FrictionPotential(far, Vec12::Ones(), FrictionParameters{}), 0.0);
}

TEST(IpcFriction, PotentialMatchesFiniteDifferencesAndIsPsd) {
  Rng rng(402);
  const BarrierParameters barrier{BarrierKind::kClampedLog, 0.5};
  FrictionParameters params;
  params.mu = 0.4;
  params.eps_v = 0.1;  // m/s
  params.dt = 0.1;     // s: eps_u = 1e-2 m
  const double eps_u = params.eps_v * params.dt;
  double grad = 0.0, hess = 0.0, psd = 0.0, projected_gap = 0.0;
  int sticking = 0;
  const int n = 200 * SoakFactor();
  for (int i = 0; i < n; ++i) {
    const bool edge = i % 2 == 1;
    const VecX lag =
        edge ? LaggedEdgeEdge(rng, barrier.dhat) : LaggedPointTriangle(rng, barrier.dhat);
    const FrictionStencil s =
        edge ? EdgeEdgeFrictionStencil(Point(lag, 0), Point(lag, 1), Point(lag, 2), Point(lag, 3),
                                       EdgeEdgeMollifierThreshold(Point(lag, 0), Point(lag, 1),
                                                                  Point(lag, 2), Point(lag, 3)),
                                       2.0, barrier)
             : PointTriangleFrictionStencil(Point(lag, 0), Point(lag, 1), Point(lag, 2),
                                            Point(lag, 3), 2.0, barrier);
    // Displacements of either regime: |u| well below or well above eps_u.
    const double scale = (i % 4 < 2) ? 1e-3 : 5e-2;
    VecX dx(12);
    for (int k = 0; k < 12; ++k) dx[k] = Uniform(rng, -scale, scale);
    const Vec3 rel = s.weights[0] * Point(dx, 0) + s.weights[1] * Point(dx, 1) +
                     s.weights[2] * Point(dx, 2) + s.weights[3] * Point(dx, 3);
    const double y = (s.basis.transpose() * rel).norm();
    if (std::abs(y - eps_u) < 0.05 * eps_u) continue;  // keep differences on one side
    sticking += y < eps_u;
    const auto f = [&](const VecX& d, VecX* g, MatX* h) {
      Vec12 g12;
      Mat12 h12;
      const double v = FrictionPotential(s, d, params, g ? &g12 : nullptr, h ? &h12 : nullptr,
                                         HessianMode::kExact);
      if (g != nullptr) *g = g12;
      if (h != nullptr) *h = h12;
      return v;
    };
    const DerivativeErrors e = CheckDerivatives(f, dx, 1e-8, 1e-6);
    grad = std::max(grad, e.gradient);
    hess = std::max(hess, e.hessian);
    Vec12 g;
    Mat12 h, hp;
    FrictionPotential(s, dx, params, &g, &h, HessianMode::kExact);
    FrictionPotential(s, dx, params, nullptr, &hp, HessianMode::kProjected);
    psd = std::min(psd, MinEigenvalue<Eigen::Dynamic>(MatX(h)) / std::max(1e-300, h.norm()));
    projected_gap = std::max(projected_gap, (hp - h).norm() / std::max(1e-300, h.norm()));
    // Dissipative: the friction force -grad opposes the tangential relative displacement; and
    // the pair's forces cancel (action = reaction: the weights sum to zero).
    EXPECT_GE(g.dot(dx), -1e-15);
    const Vec3 net = g.segment<3>(0) + g.segment<3>(3) + g.segment<3>(6) + g.segment<3>(9);
    EXPECT_LT(net.norm(), 1e-12 * g.norm());
  }
  std::printf(
      "[ipc friction] %d samples (%d sticking): gradient %.2e, Hessian %.2e, exact Hessian "
      "min eigenvalue %.1e (relative), projected - exact %.1e\n",
      n, sticking, grad, hess, psd, projected_gap);
  EXPECT_GT(sticking, n / 5);
  EXPECT_LT(grad, 1e-6);
  EXPECT_LT(hess, 1e-6);
  EXPECT_GE(psd, -1e-14);
  EXPECT_LT(projected_gap, 1e-12);
}

TEST(IpcFriction, SlidingForceIsMuTimesTheNormalForce) {
  // A point sliding over a triangle's face by 10 eps_u: the tangential force magnitude on the
  // point is mu lambda, along -u.
  const BarrierParameters barrier{BarrierKind::kClampedLog, 0.1};
  const FrictionStencil s = PointTriangleFrictionStencil(
      Vec3(0.2, 0.2, 0.05), Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), 10.0, barrier);
  FrictionParameters params;
  params.mu = 0.3;
  Vec12 dx = Vec12::Zero();
  dx.segment<3>(0) = Vec3(10 * params.eps_v * params.dt, 0, 0);
  Vec12 g;
  FrictionPotential(s, dx, params, &g);
  EXPECT_NEAR(g.segment<3>(0).norm(), params.mu * s.normal_force, 1e-12 * s.normal_force);
  EXPECT_GT(g[0], 0.0);  // the force -g[0] points against the motion (+x)
  EXPECT_NEAR(g.segment<3>(0).z(), 0.0, 1e-15);
  // Static regime: at rest the force is zero and the stiffness is 2 mu lambda / eps_u.
  Mat12 h;
  FrictionPotential(s, Vec12::Zero(), params, &g, &h);
  EXPECT_TRUE(g.isZero());
  EXPECT_NEAR(h(0, 0), 2.0 * params.mu * s.normal_force / (params.eps_v * params.dt),
              1e-9 * h(0, 0));
}

TEST(IpcFriction, Validation) {
  EXPECT_TRUE(FrictionParameters{}.Validate().empty());
  FrictionParameters p;
  p.eps_v = 0.0;
  EXPECT_FALSE(p.Validate().empty());
  p = FrictionParameters{};
  p.mu = -1.0;
  EXPECT_FALSE(p.Validate().empty());
  p = FrictionParameters{};
  p.dt = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(p.Validate().empty());
}

}  // namespace friction_test
}  // namespace arena::ipc
