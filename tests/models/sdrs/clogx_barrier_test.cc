// The CLogx barrier of seed 003 Sec. IV-B: its closed-form derivatives against differences, its
// support, and the shape the separating-plane problem needs (positive, decreasing, convex).
#include "models/sdrs/clogx_barrier.h"

#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

namespace arena::sdrs {
namespace {

TEST(SdrsClogx, DerivativesMatchDifferences) {
  for (double x0 : {0.1, 1e-3, 1.0}) {
    for (double t : {1e-4, 1e-3, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99}) {
      const double x = t * x0;
      // Central differences, the step well inside (0, x0): error ~ (h / distance to an end)^2.
      const double h = 1e-5 * std::min(x, x0 - x);
      const ClogxValue f = ClogxDerivatives(x, x0);
      const ClogxValue fp = ClogxDerivatives(x + h, x0), fm = ClogxDerivatives(x - h, x0);
      EXPECT_NEAR(f.value, Clogx(x, x0), 1e-15 * std::abs(f.value));
      EXPECT_NEAR(f.slope, (fp.value - fm.value) / (2 * h), 1e-7 * std::abs(f.slope)) << x0 << " " << t;
      EXPECT_NEAR(f.curvature, (fp.slope - fm.slope) / (2 * h), 1e-7 * std::abs(f.curvature)) << x0 << " " << t;
      // The shape the plane problem's convexity relies on.
      EXPECT_GT(f.value, 0.0);
      EXPECT_LT(f.slope, 0.0);
      EXPECT_GT(f.curvature, 0.0);
    }
  }
}

TEST(SdrsClogx, SupportEndsC2) {
  const double x0 = 0.1;
  for (double x : {x0, 2 * x0, 1e3}) {
    const ClogxValue f = ClogxDerivatives(x, x0);
    EXPECT_EQ(f.value, 0.0);
    EXPECT_EQ(f.slope, 0.0);
    EXPECT_EQ(f.curvature, 0.0);
    EXPECT_EQ(Clogx(x, x0), 0.0);
  }
  // f, f', f'' tend to 0 at x0 from below: |f| ~ e^3, |f'| ~ e^2, |f''| ~ e for e = x0 - x.
  const ClogxValue near = ClogxDerivatives(x0 * (1 - 1e-4), x0);
  EXPECT_LT(std::abs(near.value), 1e-12);
  EXPECT_LT(std::abs(near.slope), 1e-7);
  EXPECT_LT(std::abs(near.curvature), 1e-2);
  EXPECT_TRUE(std::isinf(Clogx(0.0, x0)));
  EXPECT_TRUE(std::isinf(Clogx(-1.0, x0)));
  EXPECT_TRUE(std::isinf(Clogx(std::nan(""), x0)));
  EXPECT_TRUE(std::isinf(ClogxDerivatives(0.0, x0).value));
}

}  // namespace
}  // namespace arena::sdrs
