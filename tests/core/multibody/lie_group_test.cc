#include "core/multibody/lie_group.h"

#include <gtest/gtest.h>

#include <numbers>
#include <random>

#include "core/math/so3.h"
#include "tests/core/multibody/multibody_test_util.h"

namespace arena {
namespace lie_group_test {

using testing::RandomVec;
using testing::RiddersOptions;

SE3 Embed(const SE2& X) {
  Mat3 R = Mat3::Identity();
  R.topLeftCorner<2, 2>() = Eigen::Rotation2Dd(X.theta).toRotationMatrix();
  return SE3(R, Vec3(X.t.x(), X.t.y(), 0.0));
}

Motion Embed(const Vec3& t) {
  Motion xi;
  xi << 0, 0, t[0], t[1], t[2], 0;
  return xi;
}

std::vector<Motion> SampleTwists() {
  std::mt19937_64 rng(31);
  std::vector<Motion> xs = {Motion::Zero(), MakeMotion(Vec3(1e-9, -2e-9, 0), Vec3(1, 2, 3)),
                            MakeMotion(Vec3(0, 5e-3, 1e-3), Vec3(-1, 0.5, 0.2)),  // series branch
                            MakeMotion(Vec3(0.03, 0, 0), Vec3(0.1, 1, -1)),       // just above it
                            MakeMotion(Vec3(0, 0, 2.9), Vec3(0.3, -0.3, 1))};
  for (int i = 0; i < 15; ++i) {
    Motion x = RandomVec(rng, 6, 1.5);
    xs.push_back(x);
  }
  return xs;
}

TEST(LieGroup, RightJacobianSe3MatchesFiniteDifferences) {
  // Jr(xi) = d/d dxi Log(Exp(xi)^-1 Exp(xi + dxi)); Ridders on smooth maps: ~1e-10.
  for (const Motion& xi : SampleTwists()) {
    const SE3 X_inv = ExpSE3(xi).Inverse();
    const LocalFunction f = [&](const VecX& d) -> VecX {
      return LogSE3(X_inv * ExpSE3(xi + Motion(d)));
    };
    const MatX fd = FiniteDifferenceJacobian(f, 6, RiddersOptions()).jacobian;
    EXPECT_LT(CorrectedRelativeError(RightJacobianSE3(xi), fd), 1e-8) << xi.transpose();
  }
}

TEST(LieGroup, RightJacobianSe3SeriesIsContinuous) {
  // Both sides of the series threshold (2e-2) agree to round-off (the two angles differ by
  // 2e-15, which moves the exact Jacobian by ~1e-15).
  const Vec3 axis = Vec3(1, -2, 0.5).normalized(), v(0.7, -0.4, 1.1);
  const Mat6 below = RightJacobianSE3(MakeMotion(axis * (2e-2 - 1e-15), v));
  const Mat6 above = RightJacobianSE3(MakeMotion(axis * (2e-2 + 1e-15), v));
  EXPECT_LT((below - above).norm(), 1e-13);
}

TEST(LieGroup, Se2MatchesEmbeddedSe3) {
  std::mt19937_64 rng(32);
  for (int i = 0; i < 20; ++i) {
    Vec3 t = RandomVec(rng, 3, 2.0);
    if (i == 0) t[0] = 1e-9;  // series branch
    if (i == 1) t[0] = 0.0;
    const SE2 X = ExpSE2(t);
    const SE3 X3 = ExpSE3(Embed(t));
    EXPECT_LT((Embed(X).rotation() - X3.rotation()).norm(), 1e-14);
    EXPECT_LT((Embed(X).translation() - X3.translation()).norm(), 1e-14);
    // Log inverts Exp (the angle is not wrapped).
    EXPECT_LT((LogSE2(X) - t).norm(), 1e-13) << t.transpose();
    // The adjoint is the planar block of the SE(3) adjoint.
    EXPECT_LT((AdjointSE2(X) - X3.MotionMatrix().block<3, 3>(2, 2)).norm(), 1e-14);
  }
}

TEST(LieGroup, LogSe2OfLargeAngles) {
  // theta beyond pi is kept, so Exp(Log(X)) == X exactly, also for several turns.
  for (double theta : {3.5, -5.0, 8.0}) {
    SE2 X;
    X.theta = theta;
    X.t = Vec2(0.3, -1.2);
    const SE2 Y = ExpSE2(LogSE2(X));
    EXPECT_NEAR(Y.theta, theta, 1e-15);
    EXPECT_LT((Y.t - X.t).norm(), 1e-12);
  }
}

TEST(LieGroup, RightJacobianSe2MatchesFiniteDifferences) {
  std::mt19937_64 rng(33);
  for (int i = 0; i < 10; ++i) {
    const Vec3 t = RandomVec(rng, 3, 2.0);
    const SE2 X = ExpSE2(t);
    const LocalFunction f = [&](const VecX& d) -> VecX {
      const SE2 Y = ExpSE2(t + Vec3(d));
      // Log(X^-1 Y) on SE(2).
      SE2 rel;
      rel.theta = Y.theta - X.theta;
      rel.t = Eigen::Rotation2Dd(-X.theta).toRotationMatrix() * (Y.t - X.t);
      return LogSE2(rel);
    };
    const MatX fd = FiniteDifferenceJacobian(f, 3, RiddersOptions()).jacobian;
    EXPECT_LT(CorrectedRelativeError(RightJacobianSE2(t), fd), 1e-8) << t.transpose();
  }
}

}  // namespace lie_group_test
}  // namespace arena
