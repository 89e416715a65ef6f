// SCM's point-plane law (seed 001 eqs. 14-20): a stable softplus, the damping shape's smoothness
// (the paper's is C1 and not C2; the c2 option is C2), and the force's directions.
#include "models/scm/contact_law.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace arena::scm {
namespace {

TEST(ScmContactLaw, SoftplusIsStableAndMatchesItsDefinition) {
  for (double x : {-5e-3, -1e-3, 0.0, 2e-4, 3e-3}) {
    EXPECT_NEAR(Softplus(x, 1e-3), 1e-3 * std::log(1.0 + std::exp(x / 1e-3)), 1e-15) << x;
  }
  EXPECT_EQ(Softplus(-10.0, 1e-3), 0.0);  // exp(1e4) would overflow
  EXPECT_NEAR(Softplus(10.0, 1e-3), 10.0, 1e-15);
}

double Second(DampingShape shape, double s, double h) {
  return (DampingFactor(s + h, shape) - 2 * DampingFactor(s, shape) + DampingFactor(s - h, shape)) / (h * h);
}
double First(DampingShape shape, double s, double h) {
  return (DampingFactor(s + h, shape) - DampingFactor(s - h, shape)) / (2 * h);
}

TEST(ScmContactLaw, DampingShapesAreC1AndTheC2OptionIsC2) {
  const double h = 1e-5;
  for (DampingShape shape : {DampingShape::kC1, DampingShape::kC2}) {
    for (double s : {0.0, 2.0}) {
      EXPECT_NEAR(DampingFactor(s - 1e-9, shape), DampingFactor(s + 1e-9, shape), 1e-8);
      EXPECT_NEAR(First(shape, s - 10 * h, h), First(shape, s + 10 * h, h), 1e-3) << "slope continuous at " << s;
    }
    EXPECT_DOUBLE_EQ(DampingFactor(-1.0, shape), 2.0);
    EXPECT_EQ(DampingFactor(2.5, shape), 0.0);
    for (double s = 0.0; s < 2.0; s += 0.01) EXPECT_LE(First(shape, s + 0.005, 1e-6), 1e-9) << "non-increasing";
  }
  // Curvature on either side of s = 0 and s = 2: jumps 0 -> 1/2 -> 0 for the paper's shape.
  EXPECT_NEAR(Second(DampingShape::kC1, 1e-3, 1e-4) - Second(DampingShape::kC1, -1e-3, 1e-4), 0.5, 1e-6);
  EXPECT_NEAR(Second(DampingShape::kC1, 2 - 1e-3, 1e-4) - Second(DampingShape::kC1, 2 + 1e-3, 1e-4), 0.5, 1e-6);
  EXPECT_NEAR(Second(DampingShape::kC2, 1e-3, 1e-4) - Second(DampingShape::kC2, -1e-3, 1e-4), 0.0, 1e-2);
  EXPECT_NEAR(Second(DampingShape::kC2, 2 - 1e-3, 1e-4) - Second(DampingShape::kC2, 2 + 1e-3, 1e-4), 0.0, 1e-2);
}

TEST(ScmContactLaw, PlanePushesThePointOutAndFrictionOpposesSlip) {
  ContactLaw law{1e3, 1e-3, 0.1, 0.05, 0.5, DampingShape::kC1};
  const Vec3 n(0, 0, 1), p_i(0, 0, 0);
  // 2 mm deep, at rest: lambda_n = k s+(2 mm) ~ 2 N, no friction.
  Vec3 f = PointPlaneForce<double>(law, Vec3(0.3, 0.1, -2e-3), Vec3::Zero(), p_i, n);
  EXPECT_NEAR(f.z(), 1e3 * Softplus(2e-3, 1e-3), 1e-12);
  EXPECT_NEAR(f.head<2>().norm(), 0.0, 1e-15);
  // Approaching at 0.1 m/s doubles the normal force (d(-1) = 2); sliding along +x is resisted,
  // below mu lambda_n.
  f = PointPlaneForce<double>(law, Vec3(0, 0, -2e-3), Vec3(1.0, 0, -0.1), p_i, n);
  EXPECT_NEAR(f.z(), 2 * 1e3 * Softplus(2e-3, 1e-3), 1e-12);
  EXPECT_LT(f.x(), 0.0);
  EXPECT_LT(-f.x(), 0.5 * f.z());
  EXPECT_GT(-f.x(), 0.99 * 0.5 * f.z());  // 1 m/s is far above the stiction speed
  // Separating faster than 2 v_d: no force at all.
  f = PointPlaneForce<double>(law, Vec3(0, 0, -2e-3), Vec3(0, 0, 0.3), p_i, n);
  EXPECT_EQ(f.norm(), 0.0);
}

// Beyond SpringReach every force of the law, at any relative velocity up to the given speed, is
// below e^-cutoff of k eps3; just inside it, an approaching point's force is not.
TEST(ScmContactLaw, ForcesBeyondTheReachAreBelowTheCutoff) {
  const ContactLaw law{1e3, 1e-3, 0.1, 0.05, 0.5, DampingShape::kC1};
  const double speed = 0.3, cutoff = 36.0;
  const double reach = SpringReach(law, cutoff, speed);
  const double scale = law.stiffness * law.softplus_width * std::exp(-cutoff);
  const Vec3 n(0, 0, 1), p_i(0, 0, 0);
  double largest = 0.0;
  for (int k = 0; k < 64; ++k) {
    const double angle = 2.0 * M_PI * k / 64.0;
    const Vec3 v = speed * Vec3(std::sin(angle), 0.0, std::cos(angle));  // through head-on approach
    largest = std::max(largest, PointPlaneForce<double>(law, Vec3(0, 0, reach), v, p_i, n).norm());
    EXPECT_GT(PointPlaneForce<double>(law, Vec3(0, 0, reach - 5e-3), -speed * n, p_i, n).norm(), scale);
  }
  EXPECT_LE(largest, scale);  // (in doubles the softplus has rounded to 0 there: 1 + e^-38 == 1)
}

}  // namespace
}  // namespace arena::scm
