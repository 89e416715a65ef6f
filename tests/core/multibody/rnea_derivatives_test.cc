#include <gtest/gtest.h>

#include "core/common/error.h"
#include "core/multibody/configuration.h"
#include "core/multibody/dynamics.h"
#include "tests/core/multibody/multibody_test_util.h"

namespace arena {
namespace rnea_derivatives_test {

using testing::CentralOptions;
using testing::FdWrtQ;
using testing::FdWrtVector;
using testing::NumSamples;
using testing::RandomTree;
using testing::RandomVec;
using testing::RandomWrenches;
using testing::RiddersOptions;

// Ridders' extrapolation on these smooth maps reaches ~1e-10 relative (its own error
// estimate); 1e-7 leaves three digits of margin. Central differences with h = 1e-6 have
// truncation ~h^2 |f'''| and round-off ~1e-16 |f| / h, i.e. ~1e-10 and the tolerance is 1e-5.
constexpr double kRiddersTol = 1e-7;
constexpr double kCentralTol = 1e-5;

void CheckRneaDerivatives(const MultibodyModel& model, std::uint64_t seed, bool with_f_ext,
                          const FdOptions& fd, double tol) {
  MultibodyData data(model), data_fd(model);
  std::mt19937_64 rng(seed);
  const VecX q = RandomConfiguration(model, rng);
  const VecX v = RandomVec(rng, model.nv(), 2.0), a = RandomVec(rng, model.nv(), 2.0);
  const std::vector<Force> f_storage = RandomWrenches(rng, model.num_bodies());
  const std::vector<Force>* f = with_f_ext ? &f_storage : nullptr;
  RneaDerivatives(model, data, q, v, a, f);

  const MatX fd_q = FdWrtQ(
      model, q, [&](const VecX& qq) -> VecX { return Rnea(model, data_fd, qq, v, a, f); }, fd);
  const MatX fd_v = FdWrtVector(
      v, [&](const VecX& vv) -> VecX { return Rnea(model, data_fd, q, vv, a, f); }, fd);
  EXPECT_LT(CorrectedRelativeError(data.dtau_dq, fd_q), tol) << "seed " << seed;
  EXPECT_LT(CorrectedRelativeError(data.dtau_dv, fd_v), tol) << "seed " << seed;

  // Side outputs: tau and M equal Rnea and Crba (same sums in another frame: round-off).
  const VecX tau = Rnea(model, data_fd, q, v, a, f);
  EXPECT_LT(CorrectedRelativeError(data.tau, tau), 1e-12);
  Crba(model, data_fd, q);
  EXPECT_LT(CorrectedRelativeError(data.M, data_fd.M), 1e-12);
  EXPECT_EQ((data.M - data.M.transpose()).norm(), 0.0);
}

TEST(RneaDerivatives, MatchRiddersOnRandomTrees) {
  for (int s = 0; s < NumSamples(6); ++s) {
    const MultibodyModel model =
        RandomTree(5000 + s, {.num_bodies = 8 + s, .free_root = s % 3 != 2});
    CheckRneaDerivatives(model, 5100 + s, /*with_f_ext=*/false, RiddersOptions(), kRiddersTol);
  }
}

TEST(RneaDerivatives, MatchRiddersWithExternalWrenches) {
  for (int s = 0; s < NumSamples(6); ++s) {
    const MultibodyModel model =
        RandomTree(5200 + s, {.num_bodies = 8 + s, .free_root = s % 3 != 2});
    CheckRneaDerivatives(model, 5300 + s, /*with_f_ext=*/true, RiddersOptions(), kRiddersTol);
  }
}

TEST(RneaDerivatives, MatchCentralDifferences) {
  const MultibodyModel model = RandomTree(5400, {.num_bodies = 14});
  CheckRneaDerivatives(model, 5401, /*with_f_ext=*/true, CentralOptions(), kCentralTol);
}

TEST(RneaDerivatives, DerivativeInAccelerationIsTheMassMatrix) {
  const MultibodyModel model = RandomTree(5500);
  MultibodyData data(model), data_fd(model);
  std::mt19937_64 rng(5501);
  const VecX q = RandomConfiguration(model, rng);
  const VecX v = RandomVec(rng, model.nv()), a = RandomVec(rng, model.nv());
  RneaDerivatives(model, data, q, v, a);
  // tau is affine in a: central differences are exact up to round-off / h.
  const MatX fd_a = FdWrtVector(
      a, [&](const VecX& aa) -> VecX { return Rnea(model, data_fd, q, v, aa); },
      CentralOptions(1e-3));
  EXPECT_LT(CorrectedRelativeError(data.M, fd_a), 1e-10);
}

// d tau / d m_b against Ridders on copies of the tree whose body b weighs m_b + h (its centre
// of mass and rotational inertia kept), with armature and gravity in play.
TEST(RneaMassDerivatives, MatchRiddersOnRandomTrees) {
  for (int s = 0; s < NumSamples(4); ++s) {
    const MultibodyModel model = RandomTree(5600 + s, {.num_bodies = 6 + s, .free_root = s % 2 == 0});
    MultibodyData data(model);
    std::mt19937_64 rng(5700 + s);
    const VecX q = RandomConfiguration(model, rng);
    const VecX v = RandomVec(rng, model.nv(), 2.0), a = RandomVec(rng, model.nv(), 2.0);
    MatX dtau_dm;
    RneaMassDerivatives(model, data, q, v, a, &dtau_dm);
    ASSERT_EQ(dtau_dm.cols(), model.num_bodies());
    VecX masses(model.num_bodies());
    for (int b = 0; b < model.num_bodies(); ++b) masses[b] = model.body(b).inertia.mass();
    const MatX fd = FdWrtVector(
        masses,
        [&](const VecX& m) -> VecX {
          MultibodyModel copy = model;
          for (int b = 0; b < model.num_bodies(); ++b) {
            const SpatialInertia& I = model.body(b).inertia;
            copy.set_inertia(b, SpatialInertia(m[b], I.com(), I.inertia_com()));
          }
          MultibodyData d(copy);
          return Rnea(copy, d, q, v, a);
        },
        RiddersOptions());
    EXPECT_LT(CorrectedRelativeError(dtau_dm, fd), kRiddersTol) << "seed " << s;
    EXPECT_GT(dtau_dm.cwiseAbs().maxCoeff(), 0.1);  // not vacuous: masses matter here
  }
}

TEST(RneaMassDerivatives, SetInertiaRejectsNegativeMass) {
  MultibodyModel model = RandomTree(5650, {.num_bodies = 2});
  EXPECT_THROW(model.set_inertia(0, SpatialInertia(-1.0, Vec3::Zero(), Mat3::Identity())), InvalidArgument);
  EXPECT_THROW(model.set_inertia(5, SpatialInertia(1.0, Vec3::Zero(), Mat3::Identity())), InvalidArgument);
}

}  // namespace rnea_derivatives_test
}  // namespace arena
