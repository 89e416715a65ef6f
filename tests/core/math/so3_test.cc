#include "core/math/so3.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "solvers/finite_difference.h"

namespace arena {
namespace so3_test {

constexpr double kPi = std::numbers::pi;

Vec3 RandomVec3(std::mt19937_64& rng, double half_width) {
  std::uniform_real_distribution<double> u(-half_width, half_width);
  return Vec3(u(rng), u(rng), u(rng));
}

// Rotation vectors covering the regimes of the closed forms: tiny (series branch), just above
// the series threshold, generic, and close to pi.
std::vector<Vec3> SampleRotationVectors() {
  std::mt19937_64 rng(7);
  std::vector<Vec3> ws = {Vec3::Zero(),
                          Vec3(1e-12, 0, 0),
                          Vec3(3e-9, -2e-9, 1e-9),
                          Vec3(0, 5e-5, 0),
                          Vec3(1e-4, 1e-4, 0),
                          Vec3(0.3, -0.2, 0.1),
                          Vec3(0, 0, kPi - 1e-3),
                          Vec3(1, 1, 1).normalized() * (kPi - 1e-7)};
  for (int i = 0; i < 20; ++i) {
    const Vec3 axis = RandomVec3(rng, 1.0).normalized();
    ws.push_back(axis * std::uniform_real_distribution<double>(0.0, kPi - 1e-3)(rng));
  }
  return ws;
}

TEST(So3, SkewIsCrossProduct) {
  std::mt19937_64 rng(1);
  const Vec3 a = RandomVec3(rng, 1), b = RandomVec3(rng, 1);
  EXPECT_TRUE((Skew(a) * b).isApprox(a.cross(b), 1e-15));
  EXPECT_TRUE((Skew(a) + Skew(a).transpose()).isZero(0.0));
}

TEST(So3, ExpIsARotationAndMatchesTheQuaternion) {
  for (const Vec3& w : SampleRotationVectors()) {
    const Mat3 R = ExpSO3(w);
    // Round-off of a handful of products of unit-size numbers.
    EXPECT_TRUE((R.transpose() * R).isApprox(Mat3::Identity(), 1e-14)) << w.transpose();
    EXPECT_NEAR(R.determinant(), 1.0, 1e-14);
    EXPECT_TRUE(R.isApprox(QuatExp(w).toRotationMatrix(), 1e-14)) << w.transpose();
    const double angle = w.norm();
    if (angle > 0) {
      EXPECT_TRUE(R.isApprox(Eigen::AngleAxisd(angle, w / angle).toRotationMatrix(), 1e-14));
    }
  }
}

TEST(So3, LogInvertsExp) {
  for (const Vec3& w : SampleRotationVectors()) {
    // Near pi the axis is recovered from a vanishing quaternion w component: 1e-9 is the
    // conditioning of atan2 there.
    const double tol = w.norm() > 3.0 ? 1e-8 : 1e-13;
    EXPECT_LT((LogSO3(ExpSO3(w)) - w).norm(), tol * std::max(1.0, w.norm())) << w.transpose();
    EXPECT_LT((QuatLog(QuatExp(w)) - w).norm(), tol * std::max(1.0, w.norm())) << w.transpose();
  }
}

TEST(So3, LogAtPiAndQuaternionSign) {
  // At exactly pi both signs are valid logarithms: check that Exp(Log(R)) == R.
  for (const Vec3& axis : {Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 2, -2).normalized()}) {
    const Mat3 R = Eigen::AngleAxisd(kPi, axis).toRotationMatrix();
    const Vec3 w = LogSO3(R);
    EXPECT_NEAR(w.norm(), kPi, 1e-12);
    EXPECT_TRUE(ExpSO3(w).isApprox(R, 1e-12));
  }
  // q and -q are the same rotation.
  const Quat q = QuatExp(Vec3(0.4, -1.1, 0.7));
  const Quat minus_q(-q.w(), -q.x(), -q.y(), -q.z());
  EXPECT_TRUE(QuatLog(q).isApprox(QuatLog(minus_q), 1e-14));
}

TEST(So3, RightJacobianMatchesFiniteDifferences) {
  // Jr(w) = d/d dw Log(Exp(w)^T Exp(w + dw)); Ridders reaches ~1e-10 on these smooth maps.
  FdOptions o;
  o.method = FdMethod::kRidders;
  o.ridders_step = 1e-3;
  for (const Vec3& w : SampleRotationVectors()) {
    if (w.norm() > kPi - 1e-2) continue;  // the chart of Log ends at pi
    const Mat3 R = ExpSO3(w);
    const LocalFunction f = [&](const VecX& dw) -> VecX {
      return LogSO3(R.transpose() * ExpSO3(w + dw));
    };
    const MatX fd = FiniteDifferenceJacobian(f, 3, o).jacobian;
    EXPECT_LT(CorrectedRelativeError(RightJacobianSO3(w), fd), 1e-8) << w.transpose();
    EXPECT_TRUE(
        (RightJacobianInverseSO3(w) * RightJacobianSO3(w)).isApprox(Mat3::Identity(), 1e-12))
        << w.transpose();
  }
}

TEST(So3, RightJacobianRelations) {
  // Jr(w) w = w, and the left Jacobian Jl(w) = Jr(-w) = R Jr(w) (Barfoot 2017, eq. 7.87).
  // 1e-11: just above the series threshold (|w| = 1e-4), (1 - cos t) / t^2 loses ~1e-16 / t^2
  // to cancellation, ~1e-12 absolute here; 2 sin^2(t/2) / t^2 would not.
  for (const Vec3& w : SampleRotationVectors()) {
    EXPECT_LT((RightJacobianSO3(w) * w - w).norm(), 1e-14);
    EXPECT_LT((RightJacobianSO3(-w) - ExpSO3(w) * RightJacobianSO3(w)).norm(), 1e-11)
        << w.transpose();
  }
}

}  // namespace so3_test
}  // namespace arena
