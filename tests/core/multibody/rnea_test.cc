#include <gtest/gtest.h>

#include <cmath>

#include "core/common/error.h"
#include "core/multibody/configuration.h"
#include "core/multibody/dynamics.h"
#include "core/multibody/energy.h"
#include "core/multibody/kinematics.h"
#include "tests/core/multibody/multibody_test_util.h"

namespace arena {
namespace rnea_test {

using testing::FdWrtQ;
using testing::NumSamples;
using testing::RandomTree;
using testing::RandomVec;
using testing::RandomWrenches;
using testing::RiddersOptions;

constexpr double kAlgebraTol = 1e-12;  // same sums in a different order (see crba_test.cc)

TEST(Rnea, Pendulum) {
  // Point mass m at distance l below a revolute joint about x: tau = m l^2 qdd + m g l sin q.
  const double m = 1.3, l = 0.7, g = 9.81;
  MultibodyModel model;
  model.AddBody("bob", kWorldBody, testing::MakeJoint(JointType::kRevolute, SE3(), Vec3::UnitX()),
                SpatialInertia(m, Vec3(0, 0, -l), Mat3::Zero()));
  MultibodyData data(model);
  for (double q : {0.0, 0.4, -2.0}) {
    for (double qdd : {0.0, 1.5}) {
      const VecX tau =
          Rnea(model, data, VecX::Constant(1, q), VecX::Constant(1, 0.8), VecX::Constant(1, qdd));
      EXPECT_NEAR(tau[0], m * l * l * qdd + m * g * l * std::sin(q), 1e-13);
    }
  }
}

TEST(Rnea, IsMassMatrixTimesAPlusBias) {
  for (int s = 0; s < NumSamples(5); ++s) {
    const MultibodyModel model = RandomTree(3000 + s, {.num_bodies = 12});
    MultibodyData data(model);
    std::mt19937_64 rng(3100 + s);
    const VecX q = RandomConfiguration(model, rng);
    const VecX v = RandomVec(rng, model.nv()), a = RandomVec(rng, model.nv());
    const VecX c = NonlinearEffects(model, data, q, v);
    EXPECT_EQ((c - Rnea(model, data, q, v, VecX::Zero(model.nv()))).norm(), 0.0);
    Crba(model, data, q);
    const MatX M = data.M;
    const VecX tau = Rnea(model, data, q, v, a);
    EXPECT_LT(CorrectedRelativeError(tau, M * a + c), kAlgebraTol);
  }
}

TEST(Rnea, ExternalWrenchesEnterThroughJacobians) {
  for (int s = 0; s < NumSamples(5); ++s) {
    const MultibodyModel model = RandomTree(3200 + s, {.num_bodies = 10});
    MultibodyData data(model);
    std::mt19937_64 rng(3300 + s);
    const VecX q = RandomConfiguration(model, rng);
    const VecX v = RandomVec(rng, model.nv()), a = RandomVec(rng, model.nv());
    const std::vector<Force> f = RandomWrenches(rng, model.num_bodies());
    const VecX tau0 = Rnea(model, data, q, v, a);
    const VecX tau_f = Rnea(model, data, q, v, a, &f);
    VecX JTf = VecX::Zero(model.nv());
    MatX J;
    for (int b = 0; b < model.num_bodies(); ++b) {
      BodyJacobian(model, data, b, ReferenceFrame::kWorld, &J);
      JTf += J.transpose() * f[b];
    }
    EXPECT_LT(CorrectedRelativeError(tau_f, tau0 - JTf), kAlgebraTol);
  }
}

TEST(Rnea, GravityIsThePotentialGradient) {
  // tau(q, 0, 0) = dU/dq on the manifold. Ridders: ~1e-10 relative on this smooth map.
  for (int s = 0; s < NumSamples(3); ++s) {
    const MultibodyModel model = RandomTree(3400 + s);
    MultibodyData data(model), data_fd(model);
    std::mt19937_64 rng(3500 + s);
    const VecX q = RandomConfiguration(model, rng);
    const VecX zero = VecX::Zero(model.nv());
    const VecX g = Rnea(model, data, q, zero, zero);
    const MatX dU = FdWrtQ(
        model, q,
        [&](const VecX& qq) -> VecX {
          return VecX::Constant(1, PotentialEnergy(model, data_fd, qq));
        },
        RiddersOptions());
    EXPECT_LT(CorrectedRelativeError(g.transpose(), dU), 1e-7);
  }
}

TEST(Rnea, BadSizesThrow) {
  const MultibodyModel model = RandomTree(3600);
  MultibodyData data(model);
  const VecX v = VecX::Zero(model.nv());
  EXPECT_THROW(Rnea(model, data, VecX::Zero(3), v, v), InvalidArgument);
  const std::vector<Force> f(2, Force::Zero());
  EXPECT_THROW(Rnea(model, data, model.Neutral(), v, v, &f), InvalidArgument);
}

}  // namespace rnea_test
}  // namespace arena
