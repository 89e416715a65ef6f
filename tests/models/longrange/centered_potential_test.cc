// The centred potential P_c (Eq. 5, 7) and the quintic blend (Eq. 4) of Ye et al.,
// arXiv 2509.20917: derivatives against finite differences, the blend's C2 ends, and P_c as the
// minimum of L_ij with each triangle collapsed to its centre.
#include "models/longrange/centered_potential.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

#include <gtest/gtest.h>

#include "tests/models/longrange/longrange_test_util.h"

namespace arena::longrange {
namespace centered_potential_test {

// Scalar derivatives by Ridders: relative error of first and second derivative.
void ExpectScalarDerivatives(const std::function<Scalar2(double)>& f, double x, double step,
                             double tol, const char* what, double floor = 1e-12) {
  FdOptions fd;
  fd.method = FdMethod::kRidders;
  fd.ridders_step = step;
  const FdResult d1 = FiniteDifferenceJacobian(
      [&](const VecX& dx) { return VecX::Constant(1, f(x + dx(0)).value); }, 1, fd);
  const FdResult d2 = FiniteDifferenceJacobian(
      [&](const VecX& dx) { return VecX::Constant(1, f(x + dx(0)).first); }, 1, fd);
  const Scalar2 v = f(x);
  EXPECT_LT(CorrectedRelativeError(MatX::Constant(1, 1, v.first), d1.jacobian, floor), tol)
      << what << " at " << x;
  EXPECT_LT(CorrectedRelativeError(MatX::Constant(1, 1, v.second), d2.jacobian, floor), tol)
      << what << " at " << x;
}

TEST(Centered, ScalarDerivatives) {
  for (double r : {1e-3, 0.1, 1.0, 10.0, 1e3}) {
    ExpectScalarDerivatives(CenteredPotential, r, 0.1 * r, 1e-9, "P_c");
  }
  for (double s : {0.1, 0.3, 0.5, 0.77, 0.95}) {
    ExpectScalarDerivatives(QuinticStep, s, 0.02, 1e-9, "Phi", 1.0);  // Phi''(0.5) = 0
  }
  for (double r : {1.01, 1.05, 1.09}) {
    ExpectScalarDerivatives([](double x) { return BlendWeight(x, 1.0, 1.1); }, r, 0.002, 1e-8,
                            "phi", 1.0);
  }
  EXPECT_EQ(CenteredPotential(0.0).value, std::numeric_limits<double>::infinity());
  EXPECT_NEAR(CenteredPotential(1.0).value, 48.0, 1e-14);
}

TEST(Centered, QuinticStepIsC2AtItsEnds) {
  const Scalar2 lo = QuinticStep(0.0), hi = QuinticStep(1.0), mid = QuinticStep(0.5);
  EXPECT_EQ(lo.value, 0.0);
  EXPECT_EQ(hi.value, 1.0);
  EXPECT_DOUBLE_EQ(mid.value, 0.5);
  for (double e : {1e-4, 1e-6}) {
    EXPECT_LT(std::abs(QuinticStep(e).value), 11 * e * e * e);
    EXPECT_LT(std::abs(QuinticStep(e).first), 31 * e * e);
    EXPECT_LT(std::abs(QuinticStep(e).second), 61 * e);
    EXPECT_LT(std::abs(1.0 - QuinticStep(1.0 - e).value), 11 * e * e * e + 4e-15);  // round-off
    EXPECT_LT(std::abs(QuinticStep(1.0 - e).first), 31 * e * e);
    EXPECT_LT(std::abs(QuinticStep(1.0 - e).second), 61 * e);
  }
  EXPECT_EQ(QuinticStep(-1.0).value, 0.0);
  EXPECT_EQ(QuinticStep(2.0).value, 1.0);
  EXPECT_EQ(QuinticStep(2.0).second, 0.0);
}

TEST(Centered, PairGradientAndHessianMatchFiniteDifferences) {
  Rng rng(21);
  double worst_g = 0.0, worst_h = 0.0;
  for (int s = 0; s < 20 * testing::SoakFactor(); ++s) {
    const Vec3 xi = testing::RandomVector(rng, 1.0);
    const Vec3 xj = xi + std::pow(10.0, Uniform(rng, -2, 2)) * testing::RandomUnit(rng);
    Vec6 x0;
    x0 << xi, xj;
    const RadialDerivatives d = CenteredPairPotential(xi, xj);
    FdOptions fd;
    fd.method = FdMethod::kRidders;
    fd.ridders_step = 0.05 * (xi - xj).norm();
    const FdResult g = FiniteDifferenceJacobian(
        [&](const VecX& dx) {
          const Vec6 x = x0 + dx;
          return VecX::Constant(1, CenteredPairPotential(x.head<3>(), x.tail<3>()).value);
        },
        6, fd);
    const FdResult h = FiniteDifferenceJacobian(
        [&](const VecX& dx) {
          const Vec6 x = x0 + dx;
          return VecX(CenteredPairPotential(x.head<3>(), x.tail<3>()).gradient);
        },
        6, fd);
    worst_g = std::max(worst_g, CorrectedRelativeError(d.gradient.transpose(), g.jacobian));
    worst_h = std::max(worst_h, CorrectedRelativeError(d.hessian, h.jacobian));
    // Force on I: 12 (x_I - x_J) r^{-5/2} (1 + r^{-1/2}) (proof of Lemma A.3 with |I| = 1).
    const double r = (xi - xj).norm();
    const Vec3 force = 12.0 * (xi - xj) * std::pow(r, -2.5) * (1.0 + 1.0 / std::sqrt(r));
    EXPECT_LT((-d.gradient.head<3>() - force).norm(), 1e-12 * force.norm());
  }
  std::printf("[Centered] P_c: max rel. error gradient %.2e, Hessian %.2e\n", worst_g, worst_h);
  EXPECT_LT(worst_g, 1e-9);
  EXPECT_LT(worst_h, 1e-9);
}

TEST(Centered, EqualsTheMinimumWithCollapsedTriangles) {
  // Eq. 5: min_p L_ij with all three vertices of each triangle at its centre is P_c(r), solved
  // here numerically by the 4D Newton of Sec. 4.
  Rng rng(22);
  double worst = 0.0;
  for (int s = 0; s < 30; ++s) {
    const Vec3 xi = testing::RandomVector(rng, 3.0);
    const Vec3 xj = xi + std::pow(10.0, Uniform(rng, -4, 3)) * testing::RandomUnit(rng);
    TrianglePairResult res;
    ComputeTrianglePairPotential({xi, xi, xi}, {xj, xj, xj}, DerivativeOrder::kValue, {}, nullptr,
                                 &res);
    ASSERT_EQ(res.status, TrianglePairStatus::kConverged);
    const double pc = CenteredPotential((xi - xj).norm()).value;
    worst = std::max(worst, std::abs(res.value - pc) / pc);
  }
  std::printf("[Centered] min_p L (collapsed triangles) vs P_c: max rel. error %.2e\n", worst);
  EXPECT_LT(worst, 1e-13);
}

}  // namespace centered_potential_test
}  // namespace arena::longrange
