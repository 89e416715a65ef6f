// The hull-pair separating-plane potential of seed 003 Sec. IV-B: the damped Newton solve, the
// envelope-theorem gradient and the Schur-complement Hessian against Ridders differences,
// momentum balance, pruning, intersection and warm starts.
#include "models/sdrs/hull_pair_potential.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "core/geometry/convex_hull.h"
#include "core/geometry/gjk.h"
#include "solvers/finite_difference.h"
#include "tests/models/sdrs/sdrs_test_util.h"

namespace arena::sdrs {
namespace hull_pair_potential_test {

using testing::Cube;
using testing::PlaceAtDistance;
using testing::RandomPoints;
using testing::RandomRotation;
using testing::RandomUnit;

HullPairResult Solve(const PointsX3& a, const PointsX3& b, DerivativeOrder order = DerivativeOrder::kHessian,
                     Vec4* warm = nullptr, const HullPairOptions& options = {}) {
  HullPairResult r;
  ComputeHullPairPotential(a, b, order, options, warm, &r);
  return r;
}

VecX Stack(const PointsX3& a, const PointsX3& b) {
  VecX x(3 * (a.rows() + b.rows()));
  for (int k = 0; k < a.rows(); ++k) x.segment<3>(3 * k) = a.row(k).transpose();
  for (int k = 0; k < b.rows(); ++k) x.segment<3>(3 * (a.rows() + k)) = b.row(k).transpose();
  return x;
}

void Unstack(const VecX& x, PointsX3* a, PointsX3* b) {
  for (int k = 0; k < a->rows(); ++k) a->row(k) = x.segment<3>(3 * k).transpose();
  for (int k = 0; k < b->rows(); ++k) b->row(k) = x.segment<3>(3 * (a->rows() + k)).transpose();
}

struct FdCheck {
  double gradient_error = 0.0;
  double hessian_error = 0.0;
  double plane_error = 0.0;
};

// Ridders differences of the value (against the gradient), of the gradient (against the
// Hessian) and of the plane (against dp*/dx), every solve cold.
FdCheck CheckDerivatives(const PointsX3& a, const PointsX3& b, double gap, const HullPairOptions& options = {}) {
  const HullPairResult r = Solve(a, b, DerivativeOrder::kHessian, nullptr, options);
  EXPECT_EQ(r.status, HullPairStatus::kConverged) << ToString(r.status);
  const VecX x0 = Stack(a, b);
  const int n = static_cast<int>(x0.size());
  auto at = [&](const VecX& dx, DerivativeOrder order) {
    PointsX3 pa = a, pb = b;
    Unstack(x0 + dx, &pa, &pb);
    return Solve(pa, pb, order, nullptr, options);
  };
  FdOptions fd;
  fd.method = FdMethod::kRidders;
  // Small enough that few vertices cross s = x0 within it: f''' jumps there (f is C2), which
  // Ridders' extrapolation, built on a smooth expansion, reads as an O(h^2) error.
  fd.ridders_step = std::min(0.05 * gap, 2e-5);
  const FdResult g = FiniteDifferenceJacobian(
      [&](const VecX& dx) { return VecX::Constant(1, at(dx, DerivativeOrder::kValue).value); }, n, fd);
  const FdResult h = FiniteDifferenceJacobian([&](const VecX& dx) { return at(dx, DerivativeOrder::kGradient).gradient; }, n, fd);
  const FdResult p = FiniteDifferenceJacobian([&](const VecX& dx) { return VecX(at(dx, DerivativeOrder::kValue).plane); }, n, fd);
  return {CorrectedRelativeError(r.gradient.transpose(), g.jacobian),
          CorrectedRelativeError(DenseHullPairHessian(r, n / 3), h.jacobian),
          CorrectedRelativeError(r.dplane_dx, p.jacobian)};
}

TEST(HullPair, DerivativesMatchRiddersOnCubes) {
  Rng rng(31);
  for (double gap : {1e-3, 1e-2, 0.05, 0.15}) {
    double worst_g = 0.0, worst_h = 0.0, worst_p = 0.0;
    for (int s = 0; s < 2 * testing::SoakFactor(); ++s) {
      const PointsX3 a = Cube(Vec3(0.3, -0.2, 1.0), 0.25, RandomRotation(rng));
      PointsX3 b = Cube(Vec3(0.3, -0.2, 1.0), 0.2, RandomRotation(rng));
      PlaceAtDistance(a, &b, RandomUnit(rng), gap);
      const FdCheck c = CheckDerivatives(a, b, gap);
      worst_g = std::max(worst_g, c.gradient_error);
      worst_h = std::max(worst_h, c.hessian_error);
      worst_p = std::max(worst_p, c.plane_error);
    }
    std::printf("[HullPair] cubes, gap %g: max rel. error gradient %.2e, Hessian %.2e, plane %.2e\n", gap, worst_g,
                worst_h, worst_p);
    EXPECT_LT(worst_g, 1e-8) << "gap " << gap;
    EXPECT_LT(worst_h, 1e-8) << "gap " << gap;
    EXPECT_LT(worst_p, 1e-8) << "gap " << gap;
  }
}

TEST(HullPair, DerivativesMatchRiddersOnRandomPointSets) {
  Rng rng(32);
  for (double gap : {1e-3, 1e-2, 0.1}) {
    double worst_g = 0.0, worst_h = 0.0, worst_p = 0.0;
    for (int s = 0; s < 2 * testing::SoakFactor(); ++s) {
      const int na = 8 + static_cast<int>(rng() % 33), nb = 8 + static_cast<int>(rng() % 33);
      const PointsX3 a = RandomPoints(rng, na, Vec3(-1.0, 2.0, 0.5), 0.3);
      PointsX3 b = RandomPoints(rng, nb, Vec3(-1.0, 2.0, 0.5), 0.2);
      PlaceAtDistance(a, &b, RandomUnit(rng), gap);
      const FdCheck c = CheckDerivatives(a, b, gap);
      worst_g = std::max(worst_g, c.gradient_error);
      worst_h = std::max(worst_h, c.hessian_error);
      worst_p = std::max(worst_p, c.plane_error);
    }
    std::printf("[HullPair] point sets, gap %g: max rel. error gradient %.2e, Hessian %.2e, plane %.2e\n", gap,
                worst_g, worst_h, worst_p);
    EXPECT_LT(worst_g, 1e-8) << "gap " << gap;
    EXPECT_LT(worst_h, 1e-8) << "gap " << gap;
    EXPECT_LT(worst_p, 1e-8) << "gap " << gap;
  }
}

TEST(HullPair, SafetyGapAndNormWeightDerivatives) {
  // The options enter L (d0 shifts every s_v, w scales the norm barrier): check them too.
  HullPairOptions o;
  o.d0 = 0.01;
  o.norm_weight = 3.0;
  o.x0 = 0.05;
  o.kappa = 2.0;
  Rng rng(33);
  const PointsX3 a = RandomPoints(rng, 12, Vec3::Zero(), 0.3);
  PointsX3 b = RandomPoints(rng, 15, Vec3::Zero(), 0.3);
  PlaceAtDistance(a, &b, RandomUnit(rng), 0.02);
  const FdCheck c = CheckDerivatives(a, b, 0.02, o);
  std::printf("[HullPair] d0 0.01, w 3: rel. error gradient %.2e, Hessian %.2e, plane %.2e\n", c.gradient_error,
              c.hessian_error, c.plane_error);
  EXPECT_LT(c.gradient_error, 1e-8);
  EXPECT_LT(c.hessian_error, 1e-8);
  EXPECT_LT(c.plane_error, 1e-8);
}

TEST(HullPair, MinimiserIsStationaryAndMinimal) {
  Rng rng(34);
  const HullPairOptions o;
  for (int s = 0; s < 20; ++s) {
    const PointsX3 a = RandomPoints(rng, 20, Vec3(2, -1, 3), 0.4);
    PointsX3 b = RandomPoints(rng, 20, Vec3(2, -1, 3), 0.4);
    PlaceAtDistance(a, &b, RandomUnit(rng), std::pow(10.0, Uniform(rng, -4, -1)));
    const HullPairResult r = Solve(a, b);
    ASSERT_EQ(r.status, HullPairStatus::kConverged);
    EXPECT_LE(r.stats.gradient_inf, std::max(1e-12, 4.0 * r.stats.gradient_roundoff));
    const double L = r.value / o.kappa;
    // Evaluated in world coordinates instead of the solve's centred ones: s_v's round-off
    // (~eps |x| / s relative, s down to 1e-4 m) is all that differs.
    EXPECT_NEAR(HullPairLagrangian(r.plane, a, b, o), L, 1e-9 * L);
    for (int k = 0; k < 8; ++k) EXPECT_GE(HullPairLagrangian(r.plane + 1e-5 * Vec4::Random(), a, b, o), L);
    // The per-vertex force -kappa f'(s_v) n pushes A along +n and B along -n.
    for (size_t i = 0; i < r.active.size(); ++i) {
      const int m = r.active[i];
      const double along = -r.gradient.segment<3>(3 * m).dot(r.plane.head<3>());
      if (r.slope[i] < 0.0) {
        EXPECT_TRUE(m < a.rows() ? along > 0.0 : along < 0.0);
      }
    }
  }
}

TEST(HullPair, ForcesAndTorquesBalance) {
  // P depends on the relative placement only and is rotation invariant: sum dP/dx = 0 and
  // sum x x dP/dx = 0, up to the solve tolerance.
  Rng rng(35);
  for (int s = 0; s < 20; ++s) {
    const PointsX3 a = RandomPoints(rng, 25, Vec3(5, 5, 5), 0.5);
    PointsX3 b = RandomPoints(rng, 10, Vec3(5, 5, 5), 0.3);
    PlaceAtDistance(a, &b, RandomUnit(rng), 0.02);
    const HullPairResult r = Solve(a, b);
    const VecX x = Stack(a, b);
    Vec3 force = Vec3::Zero(), torque = Vec3::Zero();
    double scale = 0.0;
    for (int m = 0; m < x.size() / 3; ++m) {
      force += r.gradient.segment<3>(3 * m);
      torque += x.segment<3>(3 * m).cross(r.gradient.segment<3>(3 * m));
      scale = std::max(scale, r.gradient.segment<3>(3 * m).norm());
    }
    ASSERT_GT(scale, 0.0);
    EXPECT_LT(force.norm(), 1e-9 * scale);
    EXPECT_LT(torque.norm(), 1e-8 * scale * x.cwiseAbs().maxCoeff());
  }
}

TEST(HullPair, PrunedBeyondTheSupportAndPositiveWithin) {
  const HullPairOptions o;
  Rng rng(36);
  for (int s = 0; s < 10; ++s) {
    const PointsX3 a = RandomPoints(rng, 15, Vec3::Zero(), 0.5);
    PointsX3 b = RandomPoints(rng, 15, Vec3::Zero(), 0.5);
    const Vec3 u = RandomUnit(rng);
    PlaceAtDistance(a, &b, u, o.PruningDistance() * 1.0001);
    HullPairResult r = Solve(a, b);
    EXPECT_EQ(r.status, HullPairStatus::kPruned);
    EXPECT_EQ(r.value, 0.0);
    EXPECT_EQ(r.gradient.cwiseAbs().maxCoeff(), 0.0);
    // No plane with |n| < 1 keeps every vertex x0 away below 2 x0: P > 0.
    PlaceAtDistance(a, &b, u, 1.9 * o.x0);
    r = Solve(a, b);
    EXPECT_EQ(r.status, HullPairStatus::kConverged);
    EXPECT_GT(r.value, 0.0);
  }
}

TEST(HullPair, IntersectingIsInfiniteWithoutThrowing) {
  const PointsX3 a = Cube(Vec3::Zero(), 0.5);
  for (const Vec3& offset : {Vec3(0.3, 0.1, 0.2), Vec3(1.0, 0.0, 0.0), Vec3(0.0, 0.0, 0.0)}) {
    const PointsX3 b = Cube(offset, 0.5);  // overlapping, touching faces, coincident
    HullPairResult r;
    Vec4 warm = Vec4::Constant(std::nan(""));
    EXPECT_NO_THROW(ComputeHullPairPotential(a, b, DerivativeOrder::kHessian, {}, &warm, &r));
    EXPECT_EQ(r.status, HullPairStatus::kIntersecting) << offset.transpose();
    EXPECT_TRUE(std::isinf(r.value));
  }
  // Closer than the safety gap is infinite too.
  HullPairOptions o;
  o.d0 = 0.01;
  const HullPairResult r = Solve(a, Cube(Vec3(1.005, 0, 0), 0.5), DerivativeOrder::kValue, nullptr, o);
  EXPECT_EQ(r.status, HullPairStatus::kIntersecting);
  // A warm plane from a separated state is rejected once the hulls overlap.
  Vec4 warm = Vec4::Constant(std::nan(""));
  Solve(a, Cube(Vec3(1.01, 0, 0), 0.5), DerivativeOrder::kValue, &warm);
  EXPECT_TRUE(warm.allFinite());
  const HullPairResult overlap = Solve(a, Cube(Vec3(0.99, 0, 0), 0.5), DerivativeOrder::kValue, &warm);
  EXPECT_EQ(overlap.status, HullPairStatus::kIntersecting);
}

TEST(HullPair, WarmStartGivesTheSameValue) {
  Rng rng(37);
  for (int s = 0; s < 20; ++s) {
    const PointsX3 a = RandomPoints(rng, 20, Vec3(1, 1, 1), 0.4);
    PointsX3 b = RandomPoints(rng, 20, Vec3(1, 1, 1), 0.4);
    const Vec3 u = RandomUnit(rng);
    PlaceAtDistance(a, &b, u, 0.01);
    Vec4 warm = Vec4::Constant(std::nan(""));
    Solve(a, b, DerivativeOrder::kValue, &warm);
    // Move b a little: the old plane is still feasible and the start of the new solve.
    PointsX3 moved = b;
    moved.rowwise() += (-2e-3 * u + 1e-3 * RandomUnit(rng)).transpose();
    const HullPairResult cold = Solve(a, moved);
    const HullPairResult hot = Solve(a, moved, DerivativeOrder::kHessian, &warm);
    ASSERT_TRUE(hot.stats.warm_started);
    EXPECT_NEAR(hot.value, cold.value, 1e-12 * cold.value);
    EXPECT_LT((hot.gradient - cold.gradient).cwiseAbs().maxCoeff(), 1e-9 * cold.gradient.cwiseAbs().maxCoeff());
  }
}

TEST(HullPair, StaticSideIsSkipped) {
  Rng rng(38);
  const PointsX3 a = RandomPoints(rng, 10, Vec3::Zero(), 0.3);
  PointsX3 b = RandomPoints(rng, 12, Vec3::Zero(), 0.3);
  PlaceAtDistance(a, &b, RandomUnit(rng), 0.01);
  const HullPairResult both = Solve(a, b);
  HullPairResult only_a;
  ComputeHullPairPotential(a, b, DerivativeOrder::kHessian, {}, nullptr, &only_a, {true, false});
  EXPECT_EQ(only_a.value, both.value);
  const MatX full = DenseHullPairHessian(both, 22), part = DenseHullPairHessian(only_a, 22);
  EXPECT_EQ(part.topLeftCorner(30, 30), full.topLeftCorner(30, 30));
  EXPECT_EQ(part.bottomRows(36).cwiseAbs().maxCoeff(), 0.0);
  EXPECT_EQ(only_a.gradient.head(30), both.gradient.head(30));
  EXPECT_EQ(only_a.gradient.tail(36).cwiseAbs().maxCoeff(), 0.0);
}

TEST(HullPair, ClosestPointsMatchCoreGjk) {
  // The start's point-set GJK against the core GJK on qhull hulls (an independent oracle).
  Rng rng(39);
  for (int s = 0; s < 30; ++s) {
    const PointsX3 a = RandomPoints(rng, 8 + s, Vec3::Zero(), 0.5);
    PointsX3 b = RandomPoints(rng, 40 - s, Vec3(1.5, 0.2, -0.3), 0.5);
    if (s % 3 == 0) b.rowwise() -= Vec3(1.2, 0.0, 0.0).transpose();  // some overlap
    const PointSetSeparation mine = SeparatePointSets(a, b);
    const GjkResult core = GjkDistance(MakeConvexHull(a), SE3::Identity(), MakeConvexHull(b), SE3::Identity());
    EXPECT_EQ(mine.intersecting, core.intersecting) << s;
    if (!core.intersecting) {
      EXPECT_NEAR(mine.distance, core.distance, 1e-9) << s;
      EXPECT_NEAR((mine.point_a - mine.point_b).norm(), mine.distance, 1e-12);
    }
  }
}

TEST(HullPair, BadOptionsAreRejected) {
  HullPairOptions o;
  EXPECT_EQ(o.Validate(), "");
  o.x0 = 1.0;
  EXPECT_NE(o.Validate(), "");
  o = {};
  o.norm_weight = 0.0;
  EXPECT_NE(o.Validate(), "");
  o = {};
  o.kappa = -1.0;
  EXPECT_NE(o.Validate(), "");
  o = {};
  o.d0 = -1e-3;
  EXPECT_NE(o.Validate(), "");
  EXPECT_EQ(ToString(HullPairStatus::kDampingLimit), "damping_limit");
}

}  // namespace hull_pair_potential_test
}  // namespace arena::sdrs
