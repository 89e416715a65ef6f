#include "core/multibody/configuration.h"

#include <gtest/gtest.h>

#include <numbers>

#include "core/common/error.h"
#include "core/math/so3.h"
#include "core/multibody/kinematics.h"
#include "tests/core/multibody/multibody_test_util.h"

namespace arena {
namespace configuration_test {

using testing::NumSamples;
using testing::RandomTree;
using testing::RandomVec;
using testing::RiddersOptions;

// Round-off of a few group operations on O(1) numbers.
constexpr double kRoundOff = 1e-12;

TEST(Configuration, IntegrateDifferenceRoundTrip) {
  for (int s = 0; s < NumSamples(5); ++s) {
    const MultibodyModel model = RandomTree(100 + s);
    std::mt19937_64 rng(200 + s);
    const VecX q0 = RandomConfiguration(model, rng);
    const VecX q1 = RandomConfiguration(model, rng);
    // Tangent steps below pi in every rotation, so Difference picks the same logarithm.
    const VecX v = RandomVec(rng, model.nv(), 1.0);
    EXPECT_LT((Difference(model, q0, Integrate(model, q0, v)) - v).norm(), kRoundOff);
    // Integrate(q0, Difference(q0, q1)) reaches q1 (up to the sign of quaternions).
    const VecX q1b = Integrate(model, q0, Difference(model, q0, q1));
    EXPECT_LT(Difference(model, q1, q1b).norm(), kRoundOff);
    EXPECT_LT(Difference(model, q0, q0).norm(), kRoundOff);
    // dt scales the velocity; exp(s v) exp(t v) = exp((s + t) v).
    EXPECT_LT(Difference(model, Integrate(model, q0, v, 0.3), Integrate(model, q0, 0.3 * v)).norm(),
              kRoundOff);
    const VecX q_st = Integrate(model, Integrate(model, q0, v, 0.4), v, 0.6);
    EXPECT_LT(Difference(model, Integrate(model, q0, v), q_st).norm(), kRoundOff);
  }
}

TEST(Configuration, IntegrateJacobiansMatchFiniteDifferences) {
  // Ridders on smooth maps reaches ~1e-10 relative; 1e-7 leaves margin for the tableau's choice.
  for (int s = 0; s < NumSamples(4); ++s) {
    const MultibodyModel model = RandomTree(300 + s);
    std::mt19937_64 rng(400 + s);
    const VecX q = RandomConfiguration(model, rng);
    const VecX v = RandomVec(rng, model.nv(), 1.5);
    MatX Jq, Jv;
    IntegrateJacobians(model, q, v, &Jq, &Jv);
    const VecX q1 = Integrate(model, q, v);
    const LocalFunction fq = [&](const VecX& dq) -> VecX {
      return Difference(model, q1, Integrate(model, Integrate(model, q, dq), v));
    };
    const LocalFunction fv = [&](const VecX& dv) -> VecX {
      return Difference(model, q1, Integrate(model, q, v + dv));
    };
    const MatX fd_q = FiniteDifferenceJacobian(fq, model.nv(), RiddersOptions()).jacobian;
    const MatX fd_v = FiniteDifferenceJacobian(fv, model.nv(), RiddersOptions()).jacobian;
    EXPECT_LT(CorrectedRelativeError(Jq, fd_q), 1e-7);
    EXPECT_LT(CorrectedRelativeError(Jv, fd_v), 1e-7);
  }
}

TEST(Configuration, PlanarIntegrateIsTheSe2Exponential) {
  // One planar body: its pose after Integrate is X_J(q) * Exp([0 0 w vx vy 0]), not q + v.
  MultibodyModel model;
  model.AddBody("p", kWorldBody, testing::MakeJoint(JointType::kPlanar, SE3()),
                SpatialInertia::SolidSphere(1.0, 0.1));
  MultibodyData data(model);
  VecX q(3), v(3);
  q << 0.3, -0.2, 0.7;
  v << 1.2, 0.5, -0.4;
  ForwardKinematics(model, data, q);
  const SE3 X0 = data.X_WB[0];
  ForwardKinematics(model, data, Integrate(model, q, v));
  const SE3 expected = X0 * ExpSE3((Motion() << 0, 0, v[0], v[1], v[2], 0).finished());
  EXPECT_LT((data.X_WB[0].translation() - expected.translation()).norm(), kRoundOff);
  EXPECT_LT((data.X_WB[0].rotation() - expected.rotation()).norm(), kRoundOff);
  EXPECT_GT((Integrate(model, q, v) - (q + Vec3(v[1], v[2], v[0]))).norm(), 1e-2);
}

TEST(Configuration, NormalizeRandomAndNeutral) {
  const MultibodyModel model = RandomTree(500);
  std::mt19937_64 rng(501);
  VecX q = RandomConfiguration(model, rng);
  for (const BodyModel& b : model.bodies()) {
    if (b.joint.type == JointType::kBall) {
      EXPECT_NEAR(q.segment<4>(b.idx_q).norm(), 1.0, 1e-15);
      q.segment<4>(b.idx_q) *= 1.3;
    }
    if (b.joint.type == JointType::kFree) {
      EXPECT_NEAR(q.segment<4>(b.idx_q + 3).norm(), 1.0, 1e-15);
      q.segment<4>(b.idx_q + 3) *= 0.7;
    }
  }
  NormalizeConfiguration(model, &q);
  for (const BodyModel& b : model.bodies()) {
    if (b.joint.type == JointType::kBall) {
      EXPECT_NEAR(q.segment<4>(b.idx_q).norm(), 1.0, 1e-15);
    }
    if (b.joint.type == JointType::kFree) {
      EXPECT_NEAR(q.segment<4>(b.idx_q + 3).norm(), 1.0, 1e-15);
    }
  }
  // Same seed, same sample.
  std::mt19937_64 a(7), b(7);
  EXPECT_EQ(RandomConfiguration(model, a), RandomConfiguration(model, b));
  EXPECT_EQ(Difference(model, model.Neutral(), model.Neutral()).norm(), 0.0);
}

TEST(Configuration, RandomRespectsLimits) {
  MultibodyModel model;
  JointModel j = testing::MakeJoint(JointType::kRevolute, SE3(), Vec3::UnitX());
  j.lower = 0.2;
  j.upper = 0.3;
  model.AddBody("a", kWorldBody, j, SpatialInertia::SolidSphere(1.0, 0.1));
  j.type = JointType::kPrismatic;
  j.lower = -5.0;
  j.upper = std::numeric_limits<double>::infinity();
  model.AddBody("b", 0, j, SpatialInertia::SolidSphere(1.0, 0.1));
  j.type = JointType::kRevolute;
  j.lower = -std::numeric_limits<double>::infinity();
  j.upper = std::numeric_limits<double>::infinity();
  model.AddBody("c", 1, j, SpatialInertia::SolidSphere(1.0, 0.1));
  std::mt19937_64 rng(9);
  for (int i = 0; i < 200; ++i) {
    const VecX q = RandomConfiguration(model, rng);
    EXPECT_GE(q[0], 0.2);
    EXPECT_LE(q[0], 0.3);
    EXPECT_GE(q[1], -5.0);
    EXPECT_LE(q[1], -3.0);
    EXPECT_LE(std::abs(q[2]), std::numbers::pi);
  }
}

TEST(Configuration, SizeMismatchThrows) {
  const MultibodyModel model = RandomTree(600);
  EXPECT_THROW(Integrate(model, VecX::Zero(model.nq() + 1), VecX::Zero(model.nv())),
               InvalidArgument);
  EXPECT_THROW(Difference(model, model.Neutral(), VecX::Zero(2)), InvalidArgument);
}

}  // namespace configuration_test
}  // namespace arena
