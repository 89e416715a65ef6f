#include <gtest/gtest.h>

#include <Eigen/Cholesky>

#include "core/multibody/configuration.h"
#include "core/multibody/dynamics.h"
#include "tests/core/multibody/multibody_test_util.h"

namespace arena {
namespace aba_derivatives_test {

using testing::FdWrtQ;
using testing::FdWrtVector;
using testing::MakeJoint;
using testing::NumSamples;
using testing::RandomInertia;
using testing::RandomPose;
using testing::RandomTree;
using testing::RandomVec;
using testing::RandomWrenches;
using testing::RiddersOptions;

// Ridders reaches ~1e-10 relative on smooth maps; M^-1 amplifies round-off by cond(M) ~1e3,
// so 1e-6 keeps a margin of ~100.
constexpr double kRiddersTol = 1e-6;

void CheckAbaDerivatives(const MultibodyModel& model, std::uint64_t seed, bool with_f_ext) {
  MultibodyData data(model), data_fd(model);
  std::mt19937_64 rng(seed);
  const VecX q = RandomConfiguration(model, rng);
  const VecX v = RandomVec(rng, model.nv(), 2.0), tau = RandomVec(rng, model.nv(), 2.0);
  const std::vector<Force> f_storage = RandomWrenches(rng, model.num_bodies());
  const std::vector<Force>* f = with_f_ext ? &f_storage : nullptr;
  AbaDerivatives(model, data, q, v, tau, f);

  const MatX fd_q = FdWrtQ(
      model, q, [&](const VecX& qq) -> VecX { return Aba(model, data_fd, qq, v, tau, f); },
      RiddersOptions());
  const MatX fd_v = FdWrtVector(
      v, [&](const VecX& vv) -> VecX { return Aba(model, data_fd, q, vv, tau, f); },
      RiddersOptions());
  const MatX fd_tau = FdWrtVector(
      tau, [&](const VecX& tt) -> VecX { return Aba(model, data_fd, q, v, tt, f); },
      RiddersOptions());
  EXPECT_LT(CorrectedRelativeError(data.dddq_dq, fd_q), kRiddersTol) << "seed " << seed;
  EXPECT_LT(CorrectedRelativeError(data.dddq_dv, fd_v), kRiddersTol) << "seed " << seed;
  EXPECT_LT(CorrectedRelativeError(data.dddq_dtau, fd_tau), kRiddersTol) << "seed " << seed;
  // d ddq / d tau is M^-1 exactly (up to the round-off of the solve).
  EXPECT_LT(CorrectedRelativeError(data.dddq_dtau, MatX(data.M.inverse())), 1e-10);
  EXPECT_LT(CorrectedRelativeError(data.ddq, Aba(model, data_fd, q, v, tau, f)), 1e-14);
}

TEST(AbaDerivatives, MatchRiddersOnRandomTrees) {
  for (int s = 0; s < NumSamples(5); ++s) {
    const MultibodyModel model =
        RandomTree(6000 + s, {.num_bodies = 8 + s, .free_root = s % 3 != 2});
    CheckAbaDerivatives(model, 6100 + s, /*with_f_ext=*/s % 2 == 1);
  }
}

TEST(AbaDerivatives, MasslessIntermediateBodies) {
  const MultibodyModel model = testing::MasslessChainTree(6200);
  CheckAbaDerivatives(model, 6201, /*with_f_ext=*/true);
}

}  // namespace aba_derivatives_test
}  // namespace arena
