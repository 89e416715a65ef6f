// A hull pair's Hessian carried to its bodies' twists in O(K) (models/sdrs/hull_pair_twist.h):
// equal to the vertex Hessian's B^T H B, and the derivative of the twist gradient B^T g under
// rigid motions of either hull (Ridders), with and without a static side.
#include "models/sdrs/hull_pair_twist.h"

#include <algorithm>
#include <cstdio>

#include <gtest/gtest.h>

#include "core/math/so3.h"
#include "models/incremental_potential/pose_derivatives.h"
#include "solvers/finite_difference.h"
#include "tests/models/sdrs/sdrs_test_util.h"

namespace arena::sdrs {
namespace hull_pair_twist_test {

using testing::PlaceAtDistance;
using testing::RandomPoints;
using testing::RandomUnit;

struct Pair {
  PointsX3 a, b;
};

// Two random point sets `gap` apart, away from the origin (the twists' lever arms count).
Pair RandomPair(Rng& rng, double gap) {
  Pair p;
  p.a = RandomPoints(rng, 8 + static_cast<int>(rng() % 40), Vec3(1.5, -2.0, 0.7), 0.3);
  p.b = RandomPoints(rng, 8 + static_cast<int>(rng() % 40), Vec3(1.5, -2.0, 0.7), 0.25);
  PlaceAtDistance(p.a, &p.b, RandomUnit(rng), gap);
  return p;
}

HullPairResult Solve(const Pair& p, bool dense, std::array<bool, 2> sides = {true, true}) {
  HullPairOptions o;
  o.dense_hessian = dense;
  HullPairResult r;
  ComputeHullPairPotential(p.a, p.b, DerivativeOrder::kHessian, o, nullptr, &r, sides);
  EXPECT_EQ(r.status, HullPairStatus::kConverged) << ToString(r.status);
  return r;
}

Vec3 Vertex(const Pair& p, int m) {
  const int na = static_cast<int>(p.a.rows());
  return m < na ? Vec3(p.a.row(m).transpose()) : Vec3(p.b.row(m - na).transpose());
}

// sum_vw B_v^T H_vw B_w from the dense vertex Hessian, into (xi_a, xi_b) blocks.
Mat12 FromVertexHessian(const Pair& p, const HullPairResult& r) {
  Mat12 H = Mat12::Zero();
  const int na = static_cast<int>(p.a.rows()), k = static_cast<int>(r.active.size());
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j < k; ++j) {
      const int mi = r.active[i], mj = r.active[j];
      H.block<6, 6>(mi < na ? 0 : 6, mj < na ? 0 : 6) +=
          PointPairTwistHessian(Vertex(p, mi), r.hessian.block<3, 3>(3 * i, 3 * j), Vertex(p, mj));
    }
  }
  return H;
}

TEST(HullPairTwist, EqualsTheVertexHessianCarriedToTheTwists) {
  Rng rng(71);
  for (double gap : {1e-3, 1e-2, 0.1}) {
    for (int s = 0; s < 3 * testing::SoakFactor(); ++s) {
      const Pair p = RandomPair(rng, gap);
      const HullPairResult dense = Solve(p, true), factored = Solve(p, false);
      ASSERT_FALSE(dense.active.empty());
      EXPECT_EQ(factored.hessian.size(), 0) << "dense_hessian = false forms no vertex Hessian";
      const Mat12 expected = FromVertexHessian(p, dense);
      const Mat12 twist = HullPairTwistHessian(factored, p.a, p.b, HullPairOptions{}.kappa);
      EXPECT_LT((twist - expected).cwiseAbs().maxCoeff(), 1e-10 * expected.cwiseAbs().maxCoeff()) << "gap " << gap;
      EXPECT_EQ((twist - twist.transpose()).cwiseAbs().maxCoeff(), 0.0);
    }
  }
}

// d/dxi [sum_v B_v(0)^T g_v(exp(xi^) x)] = B^T H B: each hull moved rigidly about the world
// origin, its gradient contracted with the unmoved Jacobians, differenced by Ridders.
TEST(HullPairTwist, MatchesRiddersOfTheTwistGradient) {
  Rng rng(72);
  double worst = 0.0;
  for (int s = 0; s < 4 * testing::SoakFactor(); ++s) {
    const double gap = s % 2 == 0 ? 5e-3 : 0.05;
    const Pair p = RandomPair(rng, gap);
    const int na = static_cast<int>(p.a.rows()), nv = na + static_cast<int>(p.b.rows());
    const Mat12 twist = HullPairTwistHessian(Solve(p, false), p.a, p.b, HullPairOptions{}.kappa);
    auto moved = [](const PointsX3& x, const Vec6& xi) {
      const Mat3 R = ExpSO3(xi.head<3>());
      PointsX3 out = x;
      for (int r = 0; r < x.rows(); ++r) out.row(r) = (R * x.row(r).transpose() + xi.tail<3>()).transpose();
      return out;
    };
    auto twist_gradient = [&](const VecX& xi) {
      const Pair q{moved(p.a, xi.head<6>()), moved(p.b, xi.tail<6>())};
      HullPairResult r;
      ComputeHullPairPotential(q.a, q.b, DerivativeOrder::kGradient, {}, nullptr, &r);
      VecX g = VecX::Zero(12);
      for (int m = 0; m < nv; ++m) {
        g.segment<6>(m < na ? 0 : 6) += PointTwistJacobian(Vertex(p, m)).transpose() * r.gradient.segment<3>(3 * m);
      }
      return g;
    };
    FdOptions fd;
    fd.method = FdMethod::kRidders;
    fd.ridders_step = std::min(0.05 * gap, 2e-5);
    const MatX numeric = FiniteDifferenceJacobian(twist_gradient, 12, fd).jacobian;
    // The exponential's rotation is not the linear map B uses beyond first order; at xi = 0 the
    // difference is second order in the step, below Ridders' extrapolated error.
    worst = std::max(worst, CorrectedRelativeError(MatX(twist), numeric));
  }
  std::printf("[HullPairTwist] twist Hessian vs Ridders: max rel. error %.2e\n", worst);
  EXPECT_LT(worst, 1e-7);
}

// A static side has no active vertices: its rows and columns are zero, the moving block equal to
// the one with both sides moving.
TEST(HullPairTwist, StaticSideHasNoBlock) {
  Rng rng(73);
  const Pair p = RandomPair(rng, 0.01);
  const Mat12 both = HullPairTwistHessian(Solve(p, false), p.a, p.b, 1e-2);
  const Mat12 only_a = HullPairTwistHessian(Solve(p, false, {true, false}), p.a, p.b, 1e-2);
  EXPECT_LT((only_a.topLeftCorner<6, 6>() - both.topLeftCorner<6, 6>()).cwiseAbs().maxCoeff(),
            1e-12 * both.cwiseAbs().maxCoeff());
  EXPECT_EQ(only_a.bottomRows<6>().cwiseAbs().maxCoeff(), 0.0);
  EXPECT_EQ(only_a.rightCols<6>().cwiseAbs().maxCoeff(), 0.0);
  HullPairResult far;
  PointsX3 b = p.b;
  b.rowwise() += Vec3(0, 0, 50.0).transpose();
  ComputeHullPairPotential(p.a, b, DerivativeOrder::kHessian, {}, nullptr, &far);
  EXPECT_EQ(HullPairTwistHessian(far, p.a, b, 1e-2), Mat12::Zero());
}

}  // namespace hull_pair_twist_test
}  // namespace arena::sdrs
