// The closed forms of gradient_truth against a fine-step simulation of their own (small steps,
// contact found by overlap at a step and resolved by an impulse or by Coulomb deceleration), and
// their Jacobians against central differences of that simulation. Nothing here uses a model.
#include "experiments/gradient_truth/gradient_truth_closed_forms.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "core/common/error.h"

namespace arena::gradient_truth {
namespace gradient_truth_closed_forms_test {

constexpr double kDt = 1e-6;  // the fine simulation's step: its contact times are off by < kDt

// The state (x1, x2, v1, v2) at the horizon, stepping positions then checking for overlap.
Eigen::VectorXd FineTwoBalls(const LineCollision& s, const Eigen::VectorXd& x0) {
  Eigen::Vector4d x = x0;
  const int steps = static_cast<int>(std::lround(s.horizon_s / kDt));
  const double mass = s.m1 + s.m2;
  for (int k = 0; k < steps; ++k) {
    x(0) += x(2) * kDt;
    x(1) += x(3) * kDt;
    const double closing = x(2) - x(3);
    if (x(1) - x(0) < s.r1 + s.r2 && closing > 0) {
      x(2) -= s.m2 * (1 + s.restitution) * closing / mass;
      x(3) += s.m1 * (1 + s.restitution) * closing / mass;
    }
  }
  return x;
}

Eigen::VectorXd FineTwoDiscs(const DiscCollision& s, const Eigen::VectorXd& x0) {
  Eigen::Matrix<double, 8, 1> x = x0;
  const int steps = static_cast<int>(std::lround(s.horizon_s / kDt));
  const double reduced = s.m1 * s.m2 / (s.m1 + s.m2);
  for (int k = 0; k < steps; ++k) {
    x.head<4>() += x.tail<4>() * kDt;
    const Eigen::Vector2d d = x.segment<2>(2) - x.segment<2>(0);
    const Eigen::Vector2d n = d.normalized();
    const double approach = (x.segment<2>(6) - x.segment<2>(4)).dot(n);
    if (d.norm() < s.r1 + s.r2 && approach < 0) {
      const double impulse = -(1 + s.restitution) * reduced * approach;
      x.segment<2>(4) -= impulse / s.m1 * n;
      x.segment<2>(6) += impulse / s.m2 * n;
    }
  }
  return x;
}

// The highest clearance after the first bounce.
Eigen::VectorXd FineApex(const BallDrop& s, const Eigen::VectorXd& x0) {
  double z = x0(0), w = x0(1), apex = 0.0;
  bool bounced = false;
  while (!bounced || w > 0) {
    w -= s.gravity * kDt;
    z += w * kDt;
    if (z < 0 && w < 0) {
      w = -s.restitution * w;
      bounced = true;
    }
    if (bounced) apex = std::max(apex, z);
  }
  return Eigen::VectorXd::Constant(1, apex);
}

Eigen::VectorXd FineSliding(double gravity, const Eigen::VectorXd& x0) {
  double x = 0.0, v = x0(0), t = 0.0;
  while (v > 0) {
    v = std::max(0.0, v - x0(1) * gravity * kDt);
    x += v * kDt;
    t += kDt;
  }
  return Eigen::Vector2d(x, t);
}

// Released `clearance` above the ground: falls, lands with a sliding Coulomb impulse (at most mu
// times the normal one), then decelerates at mu g on the ground. (distance, time) to rest.
Eigen::VectorXd FineLandingAndSliding(double gravity, double clearance, const Eigen::VectorXd& x0) {
  double x = 0.0, z = clearance, vx = x0(0), vz = 0.0, t = 0.0;
  const double mu = x0(1);
  bool landed = clearance == 0.0;
  while (!landed || vx > 0) {
    if (landed) {
      vx = std::max(0.0, vx - mu * gravity * kDt);
    } else {
      vz -= gravity * kDt;
      z += vz * kDt;
      if (z < 0) {
        vx = std::max(0.0, vx + mu * vz);  // the normal impulse is -vz per unit mass
        landed = true;
      }
    }
    x += vx * kDt;
    t += kDt;
  }
  return Eigen::Vector2d(x, t);
}

Eigen::MatrixXd CentralDifferences(const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& f,
                                   const Eigen::VectorXd& x, double h) {
  const Eigen::VectorXd f0 = f(x);
  Eigen::MatrixXd j(f0.size(), x.size());
  for (int i = 0; i < x.size(); ++i) {
    Eigen::VectorXd plus = x, minus = x;
    plus(i) += h;
    minus(i) -= h;
    j.col(i) = (f(plus) - f(minus)) / (2 * h);
  }
  return j;
}

TEST(GradientTruthClosedForms, TwoEqualBallsReproduceTheReportedCase) {
  // The public report against Nimble: x1 = 0, x2 = 0.52, v0 = 1, u0 = 0, r = 0.1, T = 1: ball 2
  // ends at 1.2 m and d x2(T) / d(x1, x2, v0, u0) = (1, 0, 1, 0).
  const ClosedForm f = TwoBallsOnALine(LineCollision{}, Eigen::Vector4d(0.0, 0.52, 1.0, 0.0));
  EXPECT_TRUE(f.contact);
  EXPECT_NEAR(f.value(1), 1.2, 1e-15);
  EXPECT_LT((f.jacobian.row(1) - Eigen::RowVector4d(1, 0, 1, 0)).norm(), 1e-15);
}

TEST(GradientTruthClosedForms, TwoBallsMatchTheFineSimulation) {
  for (const LineCollision& s : {LineCollision{}, LineCollision{2.0, 0.5, 0.1, 0.15, 0.6, 1.0}}) {
    const Eigen::Vector4d start(0.0, 0.52, 1.0, -0.2);
    const ClosedForm f = TwoBallsOnALine(s, start);
    const auto fine = [&](const Eigen::VectorXd& x) { return FineTwoBalls(s, x); };
    EXPECT_LT((f.value - fine(start)).norm(), 1e-5);
    EXPECT_LT((f.jacobian - CentralDifferences(fine, start, 1e-2)).norm(), 1e-3);
  }
}

TEST(GradientTruthClosedForms, TwoBallsWithoutACollisionFlyFree) {
  const ClosedForm f = TwoBallsOnALine(LineCollision{}, Eigen::Vector4d(0.0, 2.0, 1.0, 0.0));
  EXPECT_FALSE(f.contact);
  EXPECT_NEAR(f.value(0), 1.0, 1e-15);
  EXPECT_NEAR(f.jacobian(0, 2), 1.0, 1e-15);
}

TEST(GradientTruthClosedForms, CueSpeedPutsTheSecondBallOnTarget) {
  const LineCollision s{1.0, 2.0, 0.1, 0.1, 0.8, 1.0};
  const double v = CueSpeedToTarget(s, 0.0, 0.5, 0.9);
  EXPECT_NEAR(TwoBallsOnALine(s, Eigen::Vector4d(0.0, 0.5, v, 0.0)).value(1), 0.9, 1e-14);
  // A target the collision cannot reach before the horizon is an error, not a number.
  EXPECT_THROW(CueSpeedToTarget(s, 0.0, 0.5, 0.5), InvalidArgument);
}

TEST(GradientTruthClosedForms, TwoDiscsMatchTheFineSimulation) {
  // An oblique hit: the line of centres at impact, and so the outgoing directions, move with
  // every initial coordinate.
  const DiscCollision s{1.0, 1.5, 0.1, 0.12, 0.7, 1.0};
  Eigen::Matrix<double, 8, 1> start;
  start << 0.0, 0.0, 0.5, 0.1, 1.0, 0.05, -0.1, 0.0;
  const ClosedForm f = TwoDiscs(s, start);
  ASSERT_TRUE(f.contact);
  const auto fine = [&](const Eigen::VectorXd& x) { return FineTwoDiscs(s, x); };
  EXPECT_LT((f.value - fine(start)).norm(), 1e-5);
  const Eigen::MatrixXd differences = CentralDifferences(fine, start, 1e-3);
  EXPECT_LT((f.jacobian - differences).norm(), 5e-3 * f.jacobian.norm());
  // Oblique: the normal is not the x axis, so ball 2's y velocity depends on ball 1's y start.
  EXPECT_GT(std::abs(f.jacobian(7, 1)), 0.1);
}

TEST(GradientTruthClosedForms, BounceApexMatchesTheFineSimulation) {
  const BallDrop s{9.81, 0.6};
  const Eigen::Vector2d start(0.8, 0.5);
  const ClosedForm f = BounceApex(s, start);
  const auto fine = [&](const Eigen::VectorXd& x) { return FineApex(s, x); };
  EXPECT_NEAR(f.value(0), fine(start)(0), 1e-5);
  EXPECT_LT((f.jacobian - CentralDifferences(fine, start, 1e-2)).norm(), 1e-3);
  // The state after the bounce peaks at the apex with zero velocity.
  const ClosedForm during = BallDropState(s, start, 0.05 + (0.5 + std::sqrt(0.25 + 2 * 9.81 * 0.8)) / 9.81);
  EXPECT_TRUE(during.contact);
  EXPECT_LT(during.value(0), f.value(0));
}

TEST(GradientTruthClosedForms, SlidingToRestMatchesTheFineSimulation) {
  const Eigen::Vector2d start(2.0, 0.4);
  const ClosedForm f = SlidingToRest(9.81, start);
  EXPECT_NEAR(f.value(0), 4.0 / (2 * 0.4 * 9.81), 1e-14);
  const auto fine = [&](const Eigen::VectorXd& x) { return FineSliding(9.81, x); };
  EXPECT_LT((f.value - fine(start)).norm(), 1e-5);
  EXPECT_LT((f.jacobian - CentralDifferences(fine, start, 1e-3)).norm(), 1e-3 * f.jacobian.norm());
}

TEST(GradientTruthClosedForms, SlidingAfterLandingMatchesTheFineSimulation) {
  const Eigen::Vector2d start(1.0, 0.5);
  const ClosedForm at_rest = SlidingToRest(9.81, start), flat = SlidingAfterLanding(9.81, 0.0, start);
  EXPECT_LT((flat.value - at_rest.value).norm(), 1e-15);
  EXPECT_LT((flat.jacobian - at_rest.jacobian).norm(), 1e-15);
  const ClosedForm f = SlidingAfterLanding(9.81, 0.02, start);
  const auto fine = [&](const Eigen::VectorXd& x) { return FineLandingAndSliding(9.81, 0.02, x); };
  EXPECT_LT((f.value - fine(start)).norm(), 1e-5);
  EXPECT_LT((f.jacobian - CentralDifferences(fine, start, 1e-3)).norm(), 1e-3 * f.jacobian.norm());
}

}  // namespace gradient_truth_closed_forms_test
}  // namespace arena::gradient_truth
