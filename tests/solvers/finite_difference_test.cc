// One-sided finite differences: first-order accurate on a smooth function, and they tell a kink
// apart (forward and backward slopes of |x| at 0 differ), which central differences hide.
#include "solvers/finite_difference.h"

#include <gtest/gtest.h>

#include <cmath>

namespace arena {
namespace finite_difference_test {

TEST(FiniteDifference, OneSidedAreFirstOrderOnSmoothFunctions) {
  const LocalFunction f = [](const VecX& dx) {
    VecX y(1);
    y[0] = std::sin(0.3 + dx[0]);
    return y;
  };
  FdOptions o;
  o.step = 1e-4;
  for (FdMethod m : {FdMethod::kForward, FdMethod::kBackward}) {
    o.method = m;
    const FdResult r = FiniteDifferenceJacobian(f, 1, o);
    const double error = r.jacobian(0, 0) - std::cos(0.3);
    // Truncation -+ h sin(0.3) / 2: forward below the slope, backward above it.
    EXPECT_NEAR(error, (m == FdMethod::kForward ? -1.0 : 1.0) * 0.5e-4 * std::sin(0.3), 1e-8) << ToString(m);
    EXPECT_EQ(r.evaluations, 2);
  }
}

TEST(FiniteDifference, OneSidedSlopesDifferAtAKink) {
  const LocalFunction f = [](const VecX& dx) {
    VecX y(1);
    y[0] = std::abs(dx[0]);
    return y;
  };
  FdOptions o;
  o.step = 1e-7;
  o.method = FdMethod::kForward;
  EXPECT_DOUBLE_EQ(FiniteDifferenceJacobian(f, 1, o).jacobian(0, 0), 1.0);
  o.method = FdMethod::kBackward;
  EXPECT_DOUBLE_EQ(FiniteDifferenceJacobian(f, 1, o).jacobian(0, 0), -1.0);
  o.method = FdMethod::kCentral;
  EXPECT_DOUBLE_EQ(FiniteDifferenceJacobian(f, 1, o).jacobian(0, 0), 0.0);
  FdMethod parsed;
  ASSERT_TRUE(FromString("backward", &parsed));
  EXPECT_EQ(parsed, FdMethod::kBackward);
}

}  // namespace finite_difference_test
}  // namespace arena
