#include <gtest/gtest.h>

#include <Eigen/Cholesky>

#include "core/multibody/configuration.h"
#include "core/multibody/dynamics.h"
#include "core/multibody/kinematics.h"
#include "tests/core/multibody/multibody_test_util.h"

namespace arena {
namespace aba_test {

using testing::MakeJoint;
using testing::NumSamples;
using testing::RandomInertia;
using testing::RandomPose;
using testing::RandomTree;
using testing::RandomVec;
using testing::RandomWrenches;

// ABA and M^-1 (tau - c) agree up to round-off amplified by cond(M) (~1e3 on these trees).
constexpr double kSolveTol = 1e-10;

VecX JacobianTransposeTimes(const MultibodyModel& model, MultibodyData& data,
                            const std::vector<Force>& f) {
  VecX out = VecX::Zero(model.nv());
  MatX J;
  for (int b = 0; b < model.num_bodies(); ++b) {
    BodyJacobian(model, data, b, ReferenceFrame::kWorld, &J);
    out += J.transpose() * f[b];
  }
  return out;
}

void ExpectAbaMatchesMassMatrix(const MultibodyModel& model, std::uint64_t seed) {
  MultibodyData data(model);
  std::mt19937_64 rng(seed);
  const VecX q = RandomConfiguration(model, rng);
  const VecX v = RandomVec(rng, model.nv()), tau = RandomVec(rng, model.nv());
  const std::vector<Force> f = RandomWrenches(rng, model.num_bodies());
  Crba(model, data, q);
  const MatX M = data.M;
  const VecX c = NonlinearEffects(model, data, q, v);
  const VecX JTf = JacobianTransposeTimes(model, data, f);
  const VecX ddq = Aba(model, data, q, v, tau);
  EXPECT_LT(CorrectedRelativeError(ddq, M.llt().solve(tau - c)), kSolveTol);
  // The accelerations left in data are those of ForwardKinematics(q, v, ddq).
  MultibodyData fk(model);
  ForwardKinematics(model, fk, q, v, ddq);
  for (int b = 0; b < model.num_bodies(); ++b) {
    EXPECT_LT((fk.A_B[b] - data.A_B[b]).norm(), 1e-10 * (1 + fk.A_B[b].norm()));
  }
  const VecX ddq_f = Aba(model, data, q, v, tau, &f);
  EXPECT_LT(CorrectedRelativeError(ddq_f, M.llt().solve(tau + JTf - c)), kSolveTol);
  // Round trip through the inverse dynamics.
  EXPECT_LT(CorrectedRelativeError(Rnea(model, data, q, v, ddq_f, &f), tau), kSolveTol);
}

TEST(Aba, EqualsMassMatrixSolve) {
  for (int s = 0; s < NumSamples(8); ++s) {
    const MultibodyModel model =
        RandomTree(4000 + s, {.num_bodies = 6 + 2 * s, .free_root = s % 3 != 2});
    ExpectAbaMatchesMassMatrix(model, 4100 + s);
  }
}

TEST(Aba, MasslessIntermediateBodies) {
  const MultibodyModel model = testing::MasslessChainTree(4200);
  for (int s = 0; s < NumSamples(3); ++s) ExpectAbaMatchesMassMatrix(model, 4300 + s);
}

TEST(Aba, FarFromTheOrigin) {
  // ABA and CRBA work about the world origin, RNEA in body frames: 100 m away, world-frame
  // inertias carry m |p|^2 ~ 1e4 next to I_c ~ 1e-2, costing ~6 digits: RNEA(ABA) == tau holds
  // to 2e-10 relative here, and 1e-8 bounds it.
  const MultibodyModel model = RandomTree(4500, {.num_bodies = 12});
  MultibodyData data(model);
  std::mt19937_64 rng(4501);
  VecX q = RandomConfiguration(model, rng);
  q.head<3>() += Vec3(100.0, -80.0, 60.0);  // the free root's position
  const VecX v = RandomVec(rng, model.nv()), tau = RandomVec(rng, model.nv());
  const VecX ddq = Aba(model, data, q, v, tau);
  EXPECT_LT(CorrectedRelativeError(Rnea(model, data, q, v, ddq), tau), 1e-8);
}

TEST(Aba, FallingBodyAndArmature) {
  // A free body with no velocity falls at g, whatever its orientation.
  MultibodyModel model;
  std::mt19937_64 rng(4400);
  model.AddBody("b", kWorldBody, MakeJoint(JointType::kFree, SE3()), RandomInertia(rng, 1.5));
  MultibodyData data(model);
  const VecX q = RandomConfiguration(model, rng);
  Aba(model, data, q, VecX::Zero(6), VecX::Zero(6));
  const Vec3 a_com =
      data.X_WB[0].rotation() *
      (Linear(data.A_B[0]) + Angular(data.A_B[0]).cross(model.body(0).inertia.com()));
  EXPECT_LT((a_com - model.gravity()).norm(), 1e-13);
  EXPECT_LT(Angular(data.A_B[0]).norm(), 1e-13);
  // A rotor of armature J alone on a massless hinge: qdd = tau / J.
  MultibodyModel rotor;
  rotor.AddBody("r", kWorldBody, MakeJoint(JointType::kRevolute, SE3(), Vec3::UnitZ(), 0.25),
                SpatialInertia(0.0, Vec3::Zero(), Mat3::Zero()));
  MultibodyData rd(rotor);
  EXPECT_NEAR(Aba(rotor, rd, VecX::Zero(1), VecX::Zero(1), VecX::Constant(1, 2.0))[0], 8.0, 1e-15);
}

}  // namespace aba_test
}  // namespace arena
