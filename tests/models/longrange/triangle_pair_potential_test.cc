// The exact triangle-pair potential P_ij = min_p L_ij (Ye et al., arXiv 2509.20917, Sec. 4):
// the 4D Newton solve, the envelope-theorem gradient and the IFT Hessian against finite
// differences, hard cases, warm starts and the barrier.
#include "models/longrange/triangle_pair_potential.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "tests/models/longrange/longrange_test_util.h"

namespace arena::longrange {
namespace triangle_pair_potential_test {

using testing::RandomTriangle;
using testing::RandomUnit;
using testing::SeparateAlong;
using testing::Stack;
using testing::Unstack;

TrianglePairResult Solve(const Triangle& a, const Triangle& b,
                         DerivativeOrder order = DerivativeOrder::kHessian, Vec4* warm = nullptr) {
  TrianglePairResult r;
  ComputeTrianglePairPotential(a, b, order, TrianglePairOptions{}, warm, &r);
  return r;
}

// Central (near contact: Ridders) differences of the value and of the analytic gradient.
struct FdCheck {
  double gradient_error = 0.0;
  double hessian_error = 0.0;
};
FdCheck CheckDerivatives(const Triangle& a, const Triangle& b, double gap) {
  const TrianglePairResult r = Solve(a, b);
  EXPECT_EQ(r.status, TrianglePairStatus::kConverged);
  const Vec18 x0 = Stack(a, b);
  auto at = [&](const VecX& dx, DerivativeOrder order) {
    Triangle pa, pb;
    Unstack(x0 + dx, &pa, &pb);
    return Solve(pa, pb, order);
  };
  FdOptions fd;
  fd.method = gap < 0.05 ? FdMethod::kRidders : FdMethod::kCentral;
  fd.step = 1e-6 * std::min(1.0, gap);
  fd.ridders_step = 0.05 * gap;
  const FdResult g = FiniteDifferenceJacobian(
      [&](const VecX& dx) { return VecX::Constant(1, at(dx, DerivativeOrder::kValue).value); }, 18,
      fd);
  const FdResult h = FiniteDifferenceJacobian(
      [&](const VecX& dx) { return VecX(at(dx, DerivativeOrder::kGradient).gradient); }, 18, fd);
  return {CorrectedRelativeError(r.gradient.transpose(), g.jacobian),
          CorrectedRelativeError(r.hessian, h.jacobian)};
}

TEST(TrianglePair, DerivativesMatchFiniteDifferences) {
  Rng rng(11);
  const int samples = 4 * testing::SoakFactor();
  for (double gap : {1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 1.0, 10.0}) {
    double worst_g = 0.0, worst_h = 0.0;
    for (int s = 0; s < samples; ++s) {
      const Triangle a = RandomTriangle(rng, Vec3::Zero(), 0.3);
      Triangle b = RandomTriangle(rng, Vec3::Zero(), 0.3);
      SeparateAlong(a, &b, RandomUnit(rng), gap);
      const FdCheck c = CheckDerivatives(a, b, gap);
      worst_g = std::max(worst_g, c.gradient_error);
      worst_h = std::max(worst_h, c.hessian_error);
    }
    std::printf("[TrianglePair] projected gap %g: max rel. error gradient %.2e, Hessian %.2e\n",
                gap, worst_g, worst_h);
    EXPECT_LT(worst_g, 1e-7) << "gap " << gap;
    EXPECT_LT(worst_h, 1e-6) << "gap " << gap;
  }
}

TEST(TrianglePair, MinimiserIsStationaryAndMinimal) {
  Rng rng(12);
  for (int s = 0; s < 20; ++s) {
    const Triangle a = RandomTriangle(rng, Vec3(2, -1, 3), 0.5);
    Triangle b = RandomTriangle(rng, Vec3(2, -1, 3), 0.5);
    SeparateAlong(a, &b, RandomUnit(rng), std::pow(10.0, Uniform(rng, -3, 1)));
    const TrianglePairResult r = Solve(a, b);
    ASSERT_EQ(r.status, TrianglePairStatus::kConverged);
    EXPECT_LE(r.stats.gradient_inf, std::max(1e-9, 4.0 * r.stats.gradient_roundoff));
    EXPECT_NEAR(PairLagrangian(r.plane, a, b), r.value, 1e-13 * r.value);
    for (int k = 0; k < 8; ++k) {
      const Vec4 delta = 1e-4 * Vec4::Random();
      EXPECT_GE(PairLagrangian(r.plane + delta, a, b), r.value);
    }
    // Non-prehensile (proof of Lemma 4.1): the force on a vertex of a points along +n.
    for (int m = 0; m < 3; ++m)
      EXPECT_GT(-r.gradient.segment<3>(3 * m).dot(r.plane.head<3>()), 0.0);
    for (int m = 3; m < 6; ++m)
      EXPECT_LT(-r.gradient.segment<3>(3 * m).dot(r.plane.head<3>()), 0.0);
  }
}

TEST(TrianglePair, ForcesAndTorquesBalance) {
  // P_ij depends on relative positions and is rotation invariant: sum_m dP/dx_m = 0 and
  // sum_m x_m x dP/dx_m = 0, up to the solve tolerance.
  Rng rng(13);
  for (int s = 0; s < 20; ++s) {
    const Triangle a = RandomTriangle(rng, Vec3(5, 5, 5), 0.5);
    Triangle b = RandomTriangle(rng, Vec3(5, 5, 5), 0.5);
    SeparateAlong(a, &b, RandomUnit(rng), 0.05);
    const TrianglePairResult r = Solve(a, b);
    const Vec18 x = Stack(a, b);
    Vec3 force = Vec3::Zero(), torque = Vec3::Zero();
    double scale = 0.0;
    for (int m = 0; m < 6; ++m) {
      force += r.gradient.segment<3>(3 * m);
      torque += x.segment<3>(3 * m).cross(r.gradient.segment<3>(3 * m));
      scale = std::max(scale, r.gradient.segment<3>(3 * m).norm());
    }
    EXPECT_LT(force.norm(), 1e-9 * scale);
    EXPECT_LT(torque.norm(), 1e-8 * scale * x.cwiseAbs().maxCoeff());
  }
}

TEST(TrianglePair, HardCasesConverge) {
  // Face to face, tilted by 1e-9 rad (nearly parallel), at three gaps; a tiny and a huge gap.
  const Triangle base = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
  struct Case {
    const char* name;
    Triangle a, b;
  };
  std::vector<Case> cases;
  for (double gap : {1e-6, 1e-2, 1e3}) {
    Triangle up = base;
    for (auto& v : up) v.z() += gap + 1e-9 * v.x();
    cases.push_back({"parallel faces", up, base});
  }
  {
    // Edge over a face, tiny gap 1e-6.
    Triangle a = {Vec3(0.2, 0.2, 1e-6), Vec3(0.6, 0.2, 1e-6), Vec3(0.4, 0.2, 0.7)};
    cases.push_back({"edge-face 1e-6", a, base});
    // Vertex over a face, gap 1e-6, and crossed edges, gap 1e3.
    Triangle v = {Vec3(0.3, 0.3, 1e-6), Vec3(0.8, 0.5, 0.6), Vec3(0.1, 0.9, 0.5)};
    cases.push_back({"vertex-face 1e-6", v, base});
    Triangle far = {Vec3(0.5, -0.5, 1e3), Vec3(0.5, 1.5, 1e3), Vec3(0.5, 0.5, 1e3 + 1)};
    cases.push_back({"edge-edge 1e3", far, base});
  }
  for (const Case& c : cases) {
    const TrianglePairResult r = Solve(c.a, c.b);
    std::printf(
        "[TrianglePair] %-16s gap %-6g: %s in %d trials, |dL/dp|_inf %.2e (its "
        "round-off %.2e), P %.10g\n",
        c.name, c.a[0].z() - c.b[0].z(), std::string(ToString(r.status)).c_str(),
        r.stats.iterations, r.stats.gradient_inf, r.stats.gradient_roundoff, r.value);
    EXPECT_EQ(r.status, TrianglePairStatus::kConverged) << c.name;
    // The authors' absolute 1e-9, or the round-off floor of dL/dp where 1/gap^2 terms cancel.
    EXPECT_LE(r.stats.gradient_inf, std::max(1e-9, 4.0 * r.stats.gradient_roundoff)) << c.name;
    if (c.a[0].z() - c.b[0].z() > 1e-3) {
      EXPECT_LE(r.stats.gradient_inf, 1e-9) << c.name;
    }
    EXPECT_TRUE(r.gradient.allFinite() && r.hessian.allFinite()) << c.name;
  }
}

TEST(TrianglePair, PointPairsMatchTheCentredClosedForm) {
  // Degenerate "triangles" collapsed to their centres: P = P_c(r) (Eq. 5), |n*| = 1/(1+sqrt r).
  for (double r : {1e-6, 1e-4, 1e-2, 0.5, 1.0, 7.0, 1e3}) {
    const Vec3 xi(0.3, -0.2, 0.1), u = Vec3(1, 2, -2) / 3.0;
    const Vec3 xj = xi - r * u;
    const TrianglePairResult res = Solve({xi, xi, xi}, {xj, xj, xj}, DerivativeOrder::kValue);
    const double pc = 12.0 * std::pow(1.0 + 1.0 / std::sqrt(r), 2);
    EXPECT_NEAR(res.value, pc, 1e-12 * pc) << "r " << r;
    EXPECT_NEAR(res.plane.head<3>().norm(), 1.0 / (1.0 + std::sqrt(r)), 1e-9) << "r " << r;
    EXPECT_NEAR(res.plane.head<3>().normalized().dot(u), 1.0, 1e-9) << "r " << r;
  }
}

// Derivatives for one triangle only (the other on a static body): its gradient entries,
// Hessian block and dplane_dx columns are those of the full solve; the rest are zero.
TEST(TrianglePair, DerivativesOfOneTriangleAreItsPartOfTheFullOnes) {
  Rng rng(15);
  const Triangle a = RandomTriangle(rng, Vec3::Zero(), 0.4);
  Triangle b = RandomTriangle(rng, Vec3::Zero(), 0.4);
  SeparateAlong(a, &b, RandomUnit(rng), 0.02);
  const TrianglePairResult full = Solve(a, b);
  for (int side = 0; side < 2; ++side) {
    TrianglePairResult part;
    const std::array<bool, 2> sides = {side == 0, side == 1};
    ComputeTrianglePairPotential(a, b, DerivativeOrder::kHessian, {}, nullptr, &part, sides);
    const int first = 9 * side, other = 9 - first;
    EXPECT_EQ(part.value, full.value);
    EXPECT_LT(CorrectedRelativeError(part.gradient.segment(first, 9), full.gradient.segment(first, 9)), 1e-14);
    EXPECT_EQ(part.gradient.segment(other, 9).norm(), 0.0);
    EXPECT_LT(CorrectedRelativeError(part.hessian.block(first, first, 9, 9), full.hessian.block(first, first, 9, 9)),
              1e-12);
    EXPECT_EQ(part.hessian.middleRows(other, 9).norm() + part.hessian.middleCols(other, 9).norm(), 0.0);
    EXPECT_LT(CorrectedRelativeError(part.dplane_dx.middleCols(first, 9), full.dplane_dx.middleCols(first, 9)), 1e-12);
    EXPECT_EQ(part.dplane_dx.middleCols(other, 9).norm(), 0.0);
  }
}

TEST(TrianglePair, WarmStartIsUsedWhenFeasible) {
  Rng rng(14);
  const Triangle a = RandomTriangle(rng, Vec3::Zero(), 0.4);
  Triangle b = RandomTriangle(rng, Vec3::Zero(), 0.4);
  SeparateAlong(a, &b, RandomUnit(rng), 0.05);
  Vec4 plane = Vec4::Constant(std::nan(""));
  const TrianglePairResult cold = Solve(a, b, DerivativeOrder::kHessian, &plane);
  EXPECT_FALSE(cold.stats.warm_started);
  EXPECT_EQ(plane, cold.plane);
  // Same geometry: the warm start is already optimal.
  const TrianglePairResult same = Solve(a, b, DerivativeOrder::kHessian, &plane);
  EXPECT_TRUE(same.stats.warm_started);
  EXPECT_EQ(same.stats.iterations, 0);
  EXPECT_NEAR(same.value, cold.value, 1e-12 * cold.value);
  // A small motion: warm start from the previous plane, same answer as a cold solve.
  Triangle moved = b;
  for (auto& v : moved) v += Vec3(1e-3, -2e-3, 1e-3);
  const TrianglePairResult warm = Solve(a, moved, DerivativeOrder::kHessian, &plane);
  const TrianglePairResult fresh = Solve(a, moved);
  EXPECT_TRUE(warm.stats.warm_started);
  EXPECT_NEAR(warm.value, fresh.value, 1e-12 * fresh.value);
  EXPECT_LT(CorrectedRelativeError(warm.hessian, fresh.hessian), 1e-8);
  std::printf("[TrianglePair] trials: cold %d, warm after a 2e-3 m motion %d\n",
              fresh.stats.iterations, warm.stats.iterations);
  // An infeasible warm start (plane through triangle a) falls back to the cold start.
  Vec4 bad(0, 0, 0.5, -0.5 * a[0].z());
  const TrianglePairResult fallback = Solve(a, moved, DerivativeOrder::kValue, &bad);
  EXPECT_NEAR(fallback.value, fresh.value, 1e-12 * fresh.value);
}

TEST(TrianglePair, IntersectingOrTouchingTrianglesAreInfinite) {
  const Triangle base = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
  const std::vector<std::pair<const char*, Triangle>> cases = {
      // An edge piercing the interior (no vertex or edge of either touches the other's edges).
      {"piercing", {Vec3(0.2, 0.2, -0.5), Vec3(0.3, 0.2, 0.5), Vec3(0.25, 0.6, 0.5)}},
      // Sharing a vertex, sharing an edge, a vertex on the face, coplanar overlap.
      {"shared vertex", {Vec3(0, 0, 0), Vec3(-1, 0, 0.3), Vec3(0, -1, 0.2)}},
      {"shared edge", {Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0.5)}},
      {"vertex on face", {Vec3(0.2, 0.2, 0), Vec3(0.5, 0.5, 1), Vec3(0.1, 0.6, 1)}},
      {"coplanar overlap", {Vec3(0.1, 0.1, 0), Vec3(2, 0.1, 0), Vec3(0.1, 2, 0)}},
  };
  for (const auto& [name, t] : cases) {
    for (bool swap : {false, true}) {
      const TrianglePairResult r = swap ? Solve(base, t) : Solve(t, base);
      EXPECT_EQ(r.status, TrianglePairStatus::kIntersecting) << name;
      EXPECT_EQ(r.value, std::numeric_limits<double>::infinity()) << name;
      EXPECT_TRUE(SeparateTriangles(t, base).intersecting) << name;
    }
  }
  // A 1e-12 gap is still finite.
  Triangle above = base;
  for (auto& v : above) v.z() += 1e-12;
  EXPECT_LT(Solve(above, base, DerivativeOrder::kValue).value,
            std::numeric_limits<double>::infinity());
}

TEST(TrianglePair, SeparationMatchesSampledDistance) {
  // The closest-point distance against dense barycentric sampling (an upper bound that the
  // exact distance must not exceed, and that it approaches).
  Rng rng(15);
  for (int s = 0; s < 10; ++s) {
    const Triangle a = RandomTriangle(rng, Vec3::Zero(), 0.5);
    Triangle b = RandomTriangle(rng, Vec3::Zero(), 0.5);
    SeparateAlong(a, &b, RandomUnit(rng), 0.1);
    const TriangleSeparation sep = SeparateTriangles(a, b);
    ASSERT_FALSE(sep.intersecting);
    EXPECT_NEAR((sep.point_a - sep.point_b).norm(), sep.distance, 1e-12);
    double sampled = 1e300;
    const int k = 24;
    for (int i = 0; i <= k; ++i) {
      for (int j = 0; i + j <= k; ++j) {
        const Vec3 pa = a[0] + (a[1] - a[0]) * i / k + (a[2] - a[0]) * j / k;
        for (int p = 0; p <= k; ++p) {
          for (int q = 0; p + q <= k; ++q) {
            const Vec3 pb = b[0] + (b[1] - b[0]) * p / k + (b[2] - b[0]) * q / k;
            sampled = std::min(sampled, (pa - pb).norm());
          }
        }
      }
    }
    EXPECT_LE(sep.distance, sampled + 1e-12);
    EXPECT_GT(sep.distance, sampled - 0.1);
  }
}

// The plane bound never exceeds the exact distance; for a triangle in front of a face (a
// ball's against the ground's top) it is the height of its lowest vertex.
TEST(TrianglePair, SeparationLowerBoundIsALowerBound) {
  Rng rng(16);
  int positive = 0;
  for (int s = 0; s < 200; ++s) {
    const Triangle a = RandomTriangle(rng, Vec3::Zero(), 0.5);
    Triangle b = RandomTriangle(rng, Vec3::Zero(), 0.5);
    SeparateAlong(a, &b, RandomUnit(rng), 0.01 + 0.5 * std::abs(RandomUnit(rng).x()));
    const double bound = SeparationLowerBound(a, b);
    EXPECT_GE(bound, 0.0);
    EXPECT_LE(bound, SeparateTriangles(a, b).distance + 1e-14);
    positive += bound > 0.0;
  }
  EXPECT_GT(positive, 20);
  const Triangle ground = {Vec3(-50, -50, 0), Vec3(50, -50, 0), Vec3(0, 50, 0)};
  const Triangle above = {Vec3(0.1, 0.2, 0.3), Vec3(0.4, 0.1, 0.05), Vec3(-0.2, 0.3, 0.5)};
  EXPECT_NEAR(SeparationLowerBound(ground, above), 0.05, 1e-15);
  EXPECT_NEAR(SeparationLowerBound(above, ground), 0.05, 1e-15);
}

TEST(TrianglePair, OptionsValidate) {
  EXPECT_EQ(TrianglePairOptions{}.Validate(), "");
  TrianglePairOptions o;
  o.max_iterations = 0;
  EXPECT_NE(o.Validate(), "");
  EXPECT_EQ(ToString(TrianglePairStatus::kIntersecting), "intersecting");
}

}  // namespace triangle_pair_potential_test
}  // namespace arena::longrange
