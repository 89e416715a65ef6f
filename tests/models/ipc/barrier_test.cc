// IPC barriers: scalar derivatives against differences, the clamped barrier's C2 continuity at
// dhat, the global 1/d barrier, the edge-edge mollifier's continuity, and the per-pair
// potentials' gradients and Hessians against differences on random and nearly parallel
// configurations, with PSD projected Hessians.
#include "models/ipc/barrier.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "models/ipc/psd_projection.h"
#include "tests/models/ipc/ipc_test_util.h"

namespace arena::ipc {
namespace barrier_test {

using ipc_testing::CheckDerivatives;
using ipc_testing::DerivativeErrors;
using ipc_testing::Differentiable;
using ipc_testing::Point;
using ipc_testing::RandomPoint;
using ipc_testing::RandomUnit;
using ipc_testing::SoakFactor;
using ipc_testing::Stack;

// Central difference of a scalar function with a step relative to x.
double Derivative(const std::function<double(double)>& f, double x, double rel_step = 1e-6) {
  const double h = rel_step * std::abs(x);
  return (f(x + h) - f(x - h)) / (2.0 * h);
}

double RelativeError(double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-300); }

TEST(IpcBarrier, ClampedLogDerivativesMatchDifferences) {
  const double dhat_sq = 1e-6;  // dhat = 1 mm
  double worst = 0.0;
  for (double frac : {1e-8, 1e-4, 0.01, 0.1, 0.5, 0.9, 0.999}) {
    const double d = frac * dhat_sq;
    const ScalarDerivatives b = ClampedLogBarrier(d, dhat_sq);
    const double fd1 = Derivative([&](double x) { return ClampedLogBarrier(x, dhat_sq).value; }, d);
    const double fd2 = Derivative([&](double x) { return ClampedLogBarrier(x, dhat_sq).first; }, d);
    worst = std::max({worst, RelativeError(b.first, fd1), RelativeError(b.second, fd2)});
    EXPECT_GT(b.value, 0.0);   // positive inside the activation distance,
    EXPECT_LT(b.first, 0.0);   // decreasing,
    EXPECT_GT(b.second, 0.0);  // and convex
  }
  std::printf("[ipc barrier] clamped log: derivative error %.2e (relative, step 1e-6 d)\n", worst);
  EXPECT_LT(worst, 1e-6);
  EXPECT_GT(ClampedLogBarrier(1e-30, 1e-6).value, ClampedLogBarrier(1e-20, 1e-6).value);
  const ScalarDerivatives zero = ClampedLogBarrier(0.0, 1e-6);
  EXPECT_TRUE(std::isinf(zero.value) && zero.value > 0.0);
}

TEST(IpcBarrier, ClampedLogIsC2AtDhat) {
  const double dhat_sq = 4e-6;
  const ScalarDerivatives at = ClampedLogBarrier(dhat_sq, dhat_sq);
  EXPECT_EQ(at.value, 0.0);
  EXPECT_EQ(at.first, 0.0);
  EXPECT_EQ(at.second, 0.0);
  const ScalarDerivatives beyond = ClampedLogBarrier(2 * dhat_sq, dhat_sq);
  EXPECT_EQ(beyond.value, 0.0);
  EXPECT_EQ(beyond.first, 0.0);
  EXPECT_EQ(beyond.second, 0.0);
  // From below, with d = dhat (1 - delta): b ~ delta^3 dhat^2, b' ~ -3 delta^2 dhat,
  // b'' ~ 6 delta, so value, slope and curvature all go to 0 (C2 continuity).
  for (double delta : {1e-2, 1e-3, 1e-4, 1e-5}) {
    const ScalarDerivatives b = ClampedLogBarrier(dhat_sq * (1.0 - delta), dhat_sq);
    EXPECT_NEAR(b.value / (delta * delta * delta * dhat_sq * dhat_sq), 1.0, 2 * delta);
    EXPECT_NEAR(b.first / (-3.0 * delta * delta * dhat_sq), 1.0, 2 * delta);
    EXPECT_NEAR(b.second / (6.0 * delta), 1.0, 2 * delta);
  }
}

TEST(IpcBarrier, InverseDistanceIsOneOverTheDistance) {
  EXPECT_DOUBLE_EQ(InverseDistanceBarrier(4.0).value, 0.5);
  EXPECT_DOUBLE_EQ(InverseDistanceBarrier(1e-6).value, 1e3);
  double worst = 0.0;
  const auto value = [](double x) { return InverseDistanceBarrier(x).value; };
  const auto slope = [](double x) { return InverseDistanceBarrier(x).first; };
  for (double d : {1e-12, 1e-6, 1e-2, 1.0, 1e4}) {
    const ScalarDerivatives b = InverseDistanceBarrier(d);
    worst = std::max({worst, RelativeError(b.first, Derivative(value, d)),
                      RelativeError(b.second, Derivative(slope, d))});
  }
  EXPECT_LT(worst, 1e-6);
  EXPECT_TRUE(std::isinf(InverseDistanceBarrier(0.0).value));
  // Globally supported: EvaluateBarrier never cuts it off.
  BarrierParameters global{BarrierKind::kInverseDistance, 1e-3};
  EXPECT_DOUBLE_EQ(EvaluateBarrier(global, 100.0).value, 0.1);
  EXPECT_TRUE(std::isinf(ActivationSquaredDistance(global)));
}

TEST(IpcBarrier, MollifierIsC1AtItsThreshold) {
  const double eps = 2e-3;
  EXPECT_EQ(EdgeEdgeMollifier(0.0, eps).value, 0.0);
  EXPECT_DOUBLE_EQ(EdgeEdgeMollifier(eps, eps).value, 1.0);
  EXPECT_EQ(EdgeEdgeMollifier(eps, eps).first, 0.0);
  EXPECT_EQ(EdgeEdgeMollifier(3 * eps, eps).value, 1.0);
  for (double delta : {1e-2, 1e-4, 1e-6}) {
    const ScalarDerivatives e = EdgeEdgeMollifier(eps * (1.0 - delta), eps);
    EXPECT_NEAR(e.value, 1.0 - delta * delta, 1e-15);  // value continuous,
    EXPECT_NEAR(e.first, 2.0 * delta / eps, 1e-12);    // slope continuous (-> 0),
    EXPECT_DOUBLE_EQ(e.second, -2.0 / (eps * eps));    // curvature jumps (C1, not C2)
  }
  double worst = 0.0;
  const auto mollifier = [eps](double y) { return EdgeEdgeMollifier(y, eps).value; };
  for (double x : {1e-7, 1e-4, 1e-3, 1.9e-3}) {
    const ScalarDerivatives e = EdgeEdgeMollifier(x, eps);
    worst = std::max(worst, RelativeError(e.first, Derivative(mollifier, x)));
    EXPECT_GE(e.first, 0.0);  // monotone from 0 to 1
  }
  EXPECT_LT(worst, 1e-8);
  EXPECT_DOUBLE_EQ(
      EdgeEdgeMollifierThreshold(Vec3::Zero(), Vec3(2, 0, 0), Vec3::Zero(), Vec3(0, 3, 0)),
      1e-3 * 4.0 * 9.0);
  EXPECT_EQ(EdgeEdgeMollifier(0.0, 0.0).value, 1.0);  // zero-length edge: not mollified
}

TEST(IpcBarrier, KindNamesAndValidation) {
  BarrierKind kind = BarrierKind::kClampedLog;
  EXPECT_TRUE(FromString("inverse_distance", &kind));
  EXPECT_EQ(kind, BarrierKind::kInverseDistance);
  EXPECT_FALSE(FromString("log", &kind));
  EXPECT_EQ(ToString(BarrierKind::kClampedLog), "clamped_log");
  EXPECT_EQ(EnumValues(BarrierKind{}), "clamped_log|inverse_distance");
  EXPECT_TRUE(BarrierParameters{}.Validate().empty());
  EXPECT_FALSE((BarrierParameters{BarrierKind::kClampedLog, 0.0}).Validate().empty());
  EXPECT_TRUE((BarrierParameters{BarrierKind::kInverseDistance, 0.0}).Validate().empty());
}

// ---- Per-pair potentials.

Differentiable PointTrianglePotential(const BarrierParameters& params) {
  return [params](const VecX& x, VecX* g, MatX* h) {
    Vec12 g12;
    Mat12 h12;
    const double v = PointTriangleBarrier(Point(x, 0), Point(x, 1), Point(x, 2), Point(x, 3),
                                          params, g ? &g12 : nullptr, h ? &h12 : nullptr);
    if (g != nullptr) *g = g12;
    if (h != nullptr) *h = h12;
    return v;
  };
}

Differentiable EdgeEdgePotential(double eps_x, const BarrierParameters& params) {
  return [eps_x, params](const VecX& x, VecX* g, MatX* h) {
    Vec12 g12;
    Mat12 h12;
    const double v = EdgeEdgeBarrier(Point(x, 0), Point(x, 1), Point(x, 2), Point(x, 3), eps_x,
                                     params, g ? &g12 : nullptr, h ? &h12 : nullptr);
    if (g != nullptr) *g = g12;
    if (h != nullptr) *h = h12;
    return v;
  };
}

// A random triangle in [-1, 1]^3 and a point at distance in (0.05, 0.9) dhat from a random
// point of it (so every closest-feature type occurs and the pair is active).
VecX ActivePointTriangle(Rng& rng, double dhat) {
  const Vec3 t0 = RandomPoint(rng, 1), t1 = RandomPoint(rng, 1), t2 = RandomPoint(rng, 1);
  double u = Uniform01(rng), v = Uniform01(rng);
  if (u + v > 1.0) {
    u = 1.0 - u;
    v = 1.0 - v;
  }
  const Vec3 q = t0 + u * (t1 - t0) + v * (t2 - t0);
  return Stack(q + Uniform(rng, 0.05, 0.9) * dhat * RandomUnit(rng), t0, t1, t2);
}

struct Worst {
  double gradient = 0.0, hessian = 0.0, psd = 0.0;
  void Add(const DerivativeErrors& e) {
    gradient = std::max(gradient, e.gradient);
    hessian = std::max(hessian, e.hessian);
  }
};

// A pair potential depends on relative positions only and is invariant under rotations, so its
// vertex forces sum to zero (action = reaction) and so do their moments.
void ExpectActionReaction(const VecX& x, const Vec12& g) {
  Vec3 force = Vec3::Zero(), moment = Vec3::Zero();
  for (int k = 0; k < 4; ++k) {
    force += g.segment<3>(3 * k);
    moment += Point(x, k).cross(g.segment<3>(3 * k));
  }
  EXPECT_LT(force.norm(), 1e-12 * g.norm());
  EXPECT_LT(moment.norm(), 1e-11 * g.norm() * x.norm());
}

// Differences of the barrier at step 1e-7 m against dhat = 0.5 m and distances above
// 0.025 m: the log's higher derivatives stay moderate, so 1e-5 is a wide bound.
constexpr double kFdTolerance = 1e-5;

TEST(IpcBarrier, PointTrianglePotentialMatchesFiniteDifferences) {
  Rng rng(301);
  const int n = 200 * SoakFactor();
  for (BarrierKind kind : {BarrierKind::kClampedLog, BarrierKind::kInverseDistance}) {
    const BarrierParameters params{kind, 0.5};
    Worst worst;
    int active = 0;
    for (int i = 0; i < n; ++i) {
      const VecX x = ActivePointTriangle(rng, params.dhat);
      Vec12 g;
      Mat12 h, hp;
      const double value =
          PointTriangleBarrier(Point(x, 0), Point(x, 1), Point(x, 2), Point(x, 3), params, &g, &h);
      PointTriangleBarrier(Point(x, 0), Point(x, 1), Point(x, 2), Point(x, 3), params, nullptr, &hp,
                           HessianMode::kProjected);
      ASSERT_TRUE(std::isfinite(value) && g.allFinite() && h.allFinite());
      active += value > 0.0;
      ExpectActionReaction(x, g);
      worst.Add(CheckDerivatives(PointTrianglePotential(params), x, 1e-7));
      worst.psd = std::min(worst.psd, MinEigenvalue<Eigen::Dynamic>(MatX(hp)) / std::max(1.0, h.norm()));
      if (MinEigenvalue<Eigen::Dynamic>(MatX(h)) >= 0.0) {
        EXPECT_EQ(hp, h);  // PSD already: unchanged
      }
    }
    std::printf(
        "[ipc barrier] point-triangle %s, %d samples (%d active): gradient %.2e, Hessian "
        "%.2e, projected min eigenvalue %.1e\n",
        std::string(ToString(kind)).c_str(), n, active, worst.gradient, worst.hessian, worst.psd);
    EXPECT_EQ(active, n);
    EXPECT_LT(worst.gradient, kFdTolerance);
    EXPECT_LT(worst.hessian, kFdTolerance);
    EXPECT_GE(worst.psd, -1e-14);
  }
}

TEST(IpcBarrier, EdgeEdgePotentialMatchesFiniteDifferencesIncludingTheMollifier) {
  Rng rng(302);
  const int n = 200 * SoakFactor();
  for (BarrierKind kind : {BarrierKind::kClampedLog, BarrierKind::kInverseDistance}) {
    const BarrierParameters params{kind, 0.5};
    Worst worst;
    int mollified = 0;
    for (int i = 0; i < n; ++i) {
      // Half the samples nearly parallel (sin^2 of the angle below the mollifier's 1e-3).
      const Vec3 ea0 = RandomPoint(rng, 1), ea1 = RandomPoint(rng, 1);
      const Vec3 a = ea1 - ea0;
      Vec3 dir = RandomUnit(rng);
      if (i % 2 == 0) {
        const Vec3 tilt = a.cross(RandomUnit(rng)).normalized();
        dir = (a.normalized() + Uniform(rng, 0.002, 0.03) * tilt).normalized();
      }
      const Vec3 mid = ea0 + Uniform(rng, 0.1, 0.9) * a;
      const Vec3 offset =
          a.cross(dir).norm() > 1e-9 ? Vec3(a.cross(dir).normalized()) : RandomUnit(rng);
      const Vec3 c = mid + Uniform(rng, 0.05, 0.9) * params.dhat * offset;
      const double len = Uniform(rng, 0.3, 1.5);
      const Vec3 eb0 = c - Uniform(rng, 0.2, 0.8) * len * dir, eb1 = eb0 + len * dir;
      const double eps_x = EdgeEdgeMollifierThreshold(ea0, ea1, eb0, eb1);
      mollified += EdgeEdgeCrossSquaredNorm(ea0, ea1, eb0, eb1) < eps_x;
      const VecX x = Stack(ea0, ea1, eb0, eb1);
      Vec12 g;
      Mat12 h, hp;
      const double value = EdgeEdgeBarrier(ea0, ea1, eb0, eb1, eps_x, params, &g, &h);
      EdgeEdgeBarrier(ea0, ea1, eb0, eb1, eps_x, params, nullptr, &hp, HessianMode::kProjected);
      ASSERT_TRUE(std::isfinite(value) && g.allFinite() && h.allFinite());
      ExpectActionReaction(x, g);
      worst.Add(CheckDerivatives(EdgeEdgePotential(eps_x, params), x, 1e-7));
      worst.psd = std::min(worst.psd, MinEigenvalue<Eigen::Dynamic>(MatX(hp)) / std::max(1.0, h.norm()));
    }
    std::printf(
        "[ipc barrier] edge-edge %s, %d samples (%d mollified): gradient %.2e, Hessian "
        "%.2e, projected min eigenvalue %.1e\n",
        std::string(ToString(kind)).c_str(), n, mollified, worst.gradient, worst.hessian,
        worst.psd);
    EXPECT_GE(mollified, n / 3);
    EXPECT_LT(worst.gradient, kFdTolerance);
    EXPECT_LT(worst.hessian, kFdTolerance);
    EXPECT_GE(worst.psd, -1e-14);
  }
}

TEST(IpcBarrier, MollifiedPotentialVanishesForParallelEdges) {
  const BarrierParameters params{BarrierKind::kClampedLog, 0.5};
  const Vec3 ea0(0, 0, 0), ea1(1, 0, 0), eb0(0.2, 0.1, 0), eb1(0.8, 0.1, 0);
  const double eps_x = EdgeEdgeMollifierThreshold(ea0, ea1, eb0, eb1);
  Vec12 g;
  Mat12 h;
  EXPECT_EQ(EdgeEdgeBarrier(ea0, ea1, eb0, eb1, eps_x, params, &g, &h), 0.0);
  EXPECT_TRUE(g.allFinite() && h.allFinite());
  // ... and grows continuously as the edges turn away from parallel.
  double previous = 0.0;
  for (double angle : {1e-6, 1e-4, 1e-2, 0.05}) {
    const Vec3 b1 = eb0 + 0.6 * Vec3(std::cos(angle), 0.0, std::sin(angle));
    const double v = EdgeEdgeBarrier(ea0, ea1, eb0, b1, eps_x, params);
    EXPECT_GT(v, previous);
    previous = v;
  }
}

TEST(IpcBarrier, InactiveAndTouchingPairs) {
  const BarrierParameters params{BarrierKind::kClampedLog, 0.1};
  const Vec3 t0(0, 0, 0), t1(1, 0, 0), t2(0, 1, 0);
  Vec12 g;
  Mat12 h;
  // Beyond dhat: exactly zero.
  EXPECT_EQ(PointTriangleBarrier(Vec3(0.2, 0.2, 0.1), t0, t1, t2, params, &g, &h), 0.0);
  EXPECT_TRUE(g.isZero() && h.isZero());
  EXPECT_GT(PointTriangleBarrier(Vec3(0.2, 0.2, 0.0999), t0, t1, t2, params), 0.0);
  // Touching: +inf with zero derivatives.
  EXPECT_TRUE(std::isinf(PointTriangleBarrier(Vec3(0.2, 0.2, 0.0), t0, t1, t2, params, &g, &h)));
  EXPECT_TRUE(g.isZero() && h.isZero());
  EXPECT_TRUE(
      std::isinf(EdgeEdgeBarrier(t0, t1, Vec3(0.5, -1, 0), Vec3(0.5, 1, 0), 1e-3, params, &g, &h)));
  // The global barrier has no cut-off.
  const BarrierParameters global{BarrierKind::kInverseDistance, 0.1};
  EXPECT_NEAR(PointTriangleBarrier(Vec3(0.2, 0.2, 10.0), t0, t1, t2, global), 0.1, 1e-15);
}

}  // namespace barrier_test
}  // namespace arena::ipc
