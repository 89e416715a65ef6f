// The revolute fast path of spatial_ops.h (a joint about +-e_k turns two columns of R_PJ) and the
// algorithms on trees that take it.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>

#include "core/multibody/configuration.h"
#include "core/multibody/dynamics.h"
#include "core/multibody/kinematics.h"
#include "core/multibody/spatial_ops.h"
#include "tests/core/multibody/multibody_test_util.h"

namespace arena {
namespace coordinate_axis_test {

using testing::CoordinateAxisTree;
using testing::MakeJoint;
using testing::NumSamples;
using testing::RandomPose;
using testing::RandomVec;
using testing::RandomWrenches;

TEST(CoordinateAxis, ParentToChildMatchesRodrigues) {
  std::mt19937_64 rng(9100);
  const Vec3 axes[] = {Vec3::UnitX(),  Vec3::UnitY(),  Vec3::UnitZ(), -Vec3::UnitX(),
                       -Vec3::UnitY(), -Vec3::UnitZ(), Vec3(0.0, 0.6, 0.8)};
  for (const Vec3& axis : axes) {
    for (const double angle : {-2.9, -0.4, 0.0, 0.3, 1.7, 3.1}) {
      BodyModel body;
      body.joint = MakeJoint(JointType::kRevolute, RandomPose(rng), axis);
      const VecX q = VecX::Constant(1, angle);
      // The reference: X_PJ times Rodrigues' X_J(q).
      const SE3 expected = body.joint.placement * internal::JointTransform(body.joint, q.data());
      EXPECT_TRUE(internal::ParentToChild(body, q).IsApprox(expected, 1e-14))
          << "axis " << axis.transpose() << ", angle " << angle;
    }
  }
}

// Forward kinematics against X_WB = X_WP X_PJ X_J(q) with Rodrigues' X_J, on trees where the
// pose shortcut for R_PJ = 1 is taken.
TEST(CoordinateAxis, BodyPosesMatchComposition) {
  for (int s = 0; s < NumSamples(6); ++s) {
    const MultibodyModel model = CoordinateAxisTree(9400 + s, {.num_bodies = 14});
    MultibodyData data(model);
    std::mt19937_64 rng(9500 + s);
    const VecX q = RandomConfiguration(model, rng);
    ForwardKinematics(model, data, q);
    for (int b = 0; b < model.num_bodies(); ++b) {
      const BodyModel& body = model.body(b);
      const SE3 X_PB = body.joint.placement *
                       internal::JointTransform(body.joint, q.data() + body.idx_q);
      const SE3 expected = body.parent == kWorldBody ? X_PB : data.X_WB[body.parent] * X_PB;
      EXPECT_TRUE(data.X_PB[b].IsApprox(X_PB, 1e-14)) << "body " << b;
      EXPECT_TRUE(data.X_WB[b].IsApprox(expected, 1e-14)) << "body " << b;
    }
  }
}

// On trees with coordinate axes: Aba solves M ddq = tau - c with M from Crba, leaves the
// kinematics of ForwardKinematics(q, v, ddq), and Rnea inverts it; RneaDerivatives' M is Crba's.
TEST(CoordinateAxis, AlgorithmsAgree) {
  for (int s = 0; s < NumSamples(6); ++s) {
    const MultibodyModel model = CoordinateAxisTree(9200 + s, {.num_bodies = 14});
    MultibodyData data(model), fk(model);
    std::mt19937_64 rng(9300 + s);
    const VecX q = RandomConfiguration(model, rng);
    const VecX v = RandomVec(rng, model.nv()), tau = RandomVec(rng, model.nv());
    const std::vector<Force> f = RandomWrenches(rng, model.num_bodies());
    Crba(model, data, q);
    const MatX M = data.M;
    const VecX c = NonlinearEffects(model, data, q, v);
    const VecX ddq = Aba(model, data, q, v, tau);
    EXPECT_LT(CorrectedRelativeError(ddq, M.llt().solve(tau - c)), 1e-10);
    ForwardKinematics(model, fk, q, v, ddq);
    for (int b = 0; b < model.num_bodies(); ++b) {
      EXPECT_TRUE(fk.X_WB[b].IsApprox(data.X_WB[b], 1e-12));
      EXPECT_LT((fk.V_B[b] - data.V_B[b]).norm(), 1e-12 * (1 + fk.V_B[b].norm()));
      EXPECT_LT((fk.A_B[b] - data.A_B[b]).norm(), 1e-10 * (1 + fk.A_B[b].norm()));
    }
    const VecX ddq_f = Aba(model, data, q, v, tau, &f);
    EXPECT_LT(CorrectedRelativeError(Rnea(model, data, q, v, ddq_f, &f), tau), 1e-10);
    RneaDerivatives(model, data, q, v, ddq_f, &f);
    EXPECT_LT((data.M - M).norm(), 1e-12 * M.norm());
  }
}

}  // namespace coordinate_axis_test
}  // namespace arena
