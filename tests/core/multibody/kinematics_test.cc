#include "core/multibody/kinematics.h"

#include <gtest/gtest.h>

#include "core/math/so3.h"
#include "core/multibody/configuration.h"
#include "tests/core/multibody/multibody_test_util.h"

namespace arena {
namespace kinematics_test {

using testing::CentralOptions;
using testing::FdWrtQ;
using testing::NumSamples;
using testing::RandomTree;
using testing::RandomTreeSample;
using testing::RandomVec;
using testing::RiddersOptions;

// Ridders on these smooth maps reaches ~1e-10 relative; 1e-7 leaves margin.
constexpr double kRiddersTol = 1e-7;

TEST(Kinematics, TwoLinkPlanarArm) {
  // Two revolute joints about z, links of length 1 and 0.5 along x: the textbook arm.
  MultibodyModel model;
  const SpatialInertia I = SpatialInertia::SolidSphere(1.0, 0.1);
  model.AddBody("l1", kWorldBody, testing::MakeJoint(JointType::kRevolute, SE3()), I);
  model.AddBody("l2", 0,
                testing::MakeJoint(JointType::kRevolute, SE3::FromTranslation(Vec3(1, 0, 0))), I);
  model.AddBody("tip", 1,
                testing::MakeJoint(JointType::kFixed, SE3::FromTranslation(Vec3(0.5, 0, 0))), I);
  MultibodyData data(model);
  const double q1 = 0.4, q2 = -1.1;
  ForwardKinematics(model, data, (VecX(2) << q1, q2).finished());
  const Vec3 tip(std::cos(q1) + 0.5 * std::cos(q1 + q2), std::sin(q1) + 0.5 * std::sin(q1 + q2), 0);
  EXPECT_LT((data.X_WB[2].translation() - tip).norm(), 1e-15);
  MatX J;
  PointJacobian(model, data, 2, tip, &J);
  MatX expected(3, 2);
  expected << -tip.y(), -0.5 * std::sin(q1 + q2), tip.x(), 0.5 * std::cos(q1 + q2), 0, 0;
  EXPECT_LT((J - expected).norm(), 1e-15);
}

TEST(Kinematics, JointIntegrationMovesTheChildByItsSubspace) {
  // Integrate(q, eps e_k) moves the child of joint j by X_WB <- X_WB Exp(eps S_j[:, k]): the
  // motion subspace and the configuration integration agree, for every joint type.
  const MultibodyModel model = RandomTree(700, {.num_bodies = 8});
  MultibodyData data(model), data2(model);
  std::mt19937_64 rng(701);
  const VecX q = RandomConfiguration(model, rng);
  ForwardKinematics(model, data, q);
  for (const BodyModel& b : model.bodies()) {
    const int i = model.FindBody(b.name);
    for (int k = 0; k < b.joint.nv(); ++k) {
      VecX dq = VecX::Zero(model.nv());
      dq[b.idx_v + k] = 0.37;
      ForwardKinematics(model, data2, Integrate(model, q, dq));
      const SE3 expected = data.X_WB[i] * ExpSE3(0.37 * data.S[i].col(k));
      EXPECT_LT((data2.X_WB[i].rotation() - expected.rotation()).norm(), 1e-13);
      EXPECT_LT((data2.X_WB[i].translation() - expected.translation()).norm(), 1e-13);
    }
  }
}

TEST(Kinematics, BodyJacobiansMatchFiniteDifferences) {
  for (int s = 0; s < NumSamples(3); ++s) {
    auto [model, q, v, rng] = RandomTreeSample(800 + s, 900 + s);
    MultibodyData data(model), data_fd(model);
    ForwardKinematics(model, data, q, v);
    for (int b = 0; b < model.num_bodies(); ++b) {
      const SE3 X0 = data.X_WB[b];
      auto pose = [&](const VecX& qq) {
        ForwardKinematics(model, data_fd, qq);
        return data_fd.X_WB[b];
      };
      MatX J_local, J_world, J_lwa;
      BodyJacobian(model, data, b, ReferenceFrame::kLocal, &J_local);
      BodyJacobian(model, data, b, ReferenceFrame::kWorld, &J_world);
      BodyJacobian(model, data, b, ReferenceFrame::kLocalWorldAligned, &J_lwa);
      // Local: right-trivialised, Log(X0^-1 X); world: left-trivialised, Log(X X0^-1);
      // local-world-aligned: [R0 Log(R0^T R); p - p0].
      const MatX fd_local = FdWrtQ(
          model, q, [&](const VecX& qq) -> VecX { return LogSE3(X0.Inverse() * pose(qq)); },
          RiddersOptions());
      const MatX fd_world = FdWrtQ(
          model, q, [&](const VecX& qq) -> VecX { return LogSE3(pose(qq) * X0.Inverse()); },
          RiddersOptions());
      const MatX fd_lwa = FdWrtQ(
          model, q,
          [&](const VecX& qq) -> VecX {
            const SE3 X = pose(qq);
            return MakeMotion(X0.rotation() * LogSO3(X0.rotation().transpose() * X.rotation()),
                              X.translation() - X0.translation());
          },
          RiddersOptions());
      EXPECT_LT(CorrectedRelativeError(J_local, fd_local), kRiddersTol) << "body " << b;
      EXPECT_LT(CorrectedRelativeError(J_world, fd_world), kRiddersTol) << "body " << b;
      EXPECT_LT(CorrectedRelativeError(J_lwa, fd_lwa), kRiddersTol) << "body " << b;
      // J_local v is the body twist of ForwardKinematics(q, v).
      EXPECT_LT((J_local * v - data.V_B[b]).norm(), 1e-12);
    }
  }
}

// d(J_W(q) v)/dq at fixed v against Ridders differences of the world twist, for every body of
// random trees with every joint type (free root, ball, planar, revolute, prismatic, fixed).
TEST(Kinematics, WorldTwistDerivativeMatchesFiniteDifferences) {
  for (int s = 0; s < NumSamples(3); ++s) {
    auto [model, q, v, rng] = RandomTreeSample(820 + s, 920 + s);
    MultibodyData data(model), data_fd(model);
    ForwardKinematics(model, data, q, v);
    for (int b = 0; b < model.num_bodies(); ++b) {
      MatX analytic;
      WorldTwistDerivative(model, data, b, &analytic);
      const MatX fd = FdWrtQ(
          model, q,
          [&](const VecX& qq) -> VecX {
            ForwardKinematics(model, data_fd, qq, v);
            return data_fd.X_WB[b].ActMotion(data_fd.V_B[b]);
          },
          RiddersOptions());
      EXPECT_LT(CorrectedRelativeError(analytic, fd), kRiddersTol) << "tree " << s << " body " << b;
    }
  }
}

TEST(Kinematics, PointJacobianAndVelocity) {
  auto [model, q, v, rng] = RandomTreeSample(1000, 1001);
  MultibodyData data(model), data_fd(model);
  ForwardKinematics(model, data, q, v);
  for (int b = 0; b < model.num_bodies(); ++b) {
    const Vec3 p_W = testing::RandomVec3(rng, 1.0);
    const Vec3 p_B = data.X_WB[b].ActInv(p_W);
    MatX J;
    PointJacobian(model, data, b, p_W, &J);
    const MatX fd = FdWrtQ(
        model, q,
        [&](const VecX& qq) -> VecX {
          ForwardKinematics(model, data_fd, qq);
          return data_fd.X_WB[b].Act(p_B);
        },
        RiddersOptions());
    EXPECT_LT(CorrectedRelativeError(J, fd), kRiddersTol);
    EXPECT_LT((J * v - PointVelocity(data, b, p_W)).norm(), 1e-12);
  }
}

TEST(Kinematics, AccelerationsMatchTimeDerivatives) {
  // Along q(t) = Integrate(q, v t + a t^2 / 2) the joint velocity is v + a t + O(t^2), so the
  // body twist's time derivative at t = 0 is A_B of ForwardKinematics(q, v, a). Central
  // differences with h = 1e-5: truncation ~h^2, round-off ~1e-16 / h, both below 1e-8.
  for (int s = 0; s < NumSamples(3); ++s) {
    auto [model, q, v, rng] = RandomTreeSample(1100 + s, 1200 + s);
    MultibodyData data(model), data_fd(model);
    const VecX a = RandomVec(rng, model.nv());
    ForwardKinematics(model, data, q, v, a);
    const LocalFunction twists = [&](const VecX& t) -> VecX {
      const double h = t[0];
      ForwardKinematics(model, data_fd, Integrate(model, q, v * h + 0.5 * h * h * a), v + h * a);
      VecX out(6 * model.num_bodies());
      for (int b = 0; b < model.num_bodies(); ++b) out.segment<6>(6 * b) = data_fd.V_B[b];
      return out;
    };
    const MatX fd = FiniteDifferenceJacobian(twists, 1, CentralOptions(1e-5)).jacobian;
    for (int b = 0; b < model.num_bodies(); ++b) {
      EXPECT_LT((fd.block<6, 1>(6 * b, 0) - data.A_B[b]).norm(), 1e-8) << "body " << b;
      // World frame: A_W = J_W a + dJ_W v.
      MatX J_world;
      BodyJacobian(model, data, b, ReferenceFrame::kWorld, &J_world);
      const Motion A_W = data.X_WB[b].ActMotion(data.A_B[b]);
      EXPECT_LT((J_world * a + SpatialAccelerationBias(model, data, b) - A_W).norm(), 1e-12);
    }
  }
}

}  // namespace kinematics_test
}  // namespace arena
