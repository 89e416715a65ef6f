#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "core/multibody/configuration.h"
#include "core/multibody/dynamics.h"
#include "tests/core/multibody/multibody_test_util.h"

namespace arena {
namespace crba_test {

using testing::NumSamples;
using testing::RandomTree;
using testing::RandomVec;

// CRBA and RNEA compute the same sums in a different order: round-off ~1e-15 per operation on
// O(1) inertias, times a few tens of bodies.
constexpr double kAlgebraTol = 1e-12;

TEST(Crba, ColumnsAreRneaDifferences) {
  for (int s = 0; s < NumSamples(6); ++s) {
    const MultibodyModel model = RandomTree(2000 + s, {.num_bodies = 12, .free_root = s % 2 == 0});
    MultibodyData data(model);
    std::mt19937_64 rng(2100 + s);
    const VecX q = RandomConfiguration(model, rng);
    const VecX zero = VecX::Zero(model.nv());
    Crba(model, data, q);
    const MatX M = data.M;
    const VecX g = Rnea(model, data, q, zero, zero);
    MatX M_rnea(model.nv(), model.nv());
    for (int i = 0; i < model.nv(); ++i) {
      M_rnea.col(i) = Rnea(model, data, q, zero, VecX::Unit(model.nv(), i)) - g;
    }
    EXPECT_LT(CorrectedRelativeError(M, M_rnea), kAlgebraTol);
    EXPECT_EQ((M - M.transpose()).norm(), 0.0);  // filled symmetrically by construction
    EXPECT_GT(Eigen::SelfAdjointEigenSolver<MatX>(M).eigenvalues().minCoeff(), 0.0);
  }
}

TEST(Crba, ArmatureIsOnTheDiagonal) {
  const MultibodyModel with = RandomTree(2200, {.armature = true});
  const MultibodyModel without = RandomTree(2200, {.armature = false});
  MultibodyData d1(with), d2(without);
  std::mt19937_64 rng(2201);
  const VecX q = RandomConfiguration(with, rng);
  Crba(with, d1, q);
  Crba(without, d2, q);
  VecX armature = VecX::Zero(with.nv());
  for (const BodyModel& b : with.bodies()) {
    if (b.joint.nv() == 1) armature[b.idx_v] = b.joint.armature;
  }
  EXPECT_GT(armature.norm(), 0.0);
  EXPECT_LT((d1.M - d2.M - MatX(armature.asDiagonal())).norm(), kAlgebraTol);
}

TEST(Crba, SparseFactorisationSolves) {
  for (int s = 0; s < NumSamples(4); ++s) {
    const MultibodyModel model = RandomTree(2300 + s, {.num_bodies = 15});
    MultibodyData data(model);
    std::mt19937_64 rng(2400 + s);
    Crba(model, data, RandomConfiguration(model, rng));
    FactorizeMassMatrix(model, data);
    const MatX B = MatX::Random(model.nv(), 3);
    MatX X = B;
    SolveMassMatrix(model, data, X);
    // Backward stable: the residual is round-off times cond(M)-free factors of the tree.
    EXPECT_LT((data.M * X - B).norm() / B.norm(), 1e-12);
    VecX x = B.col(0);
    SolveMassMatrix(model, data, x);
    EXPECT_LT((x - X.col(0)).norm(), 1e-14 * X.norm());
    EXPECT_LT((x - data.M.llt().solve(B.col(0))).norm(), 1e-10 * x.norm());
  }
}

}  // namespace crba_test
}  // namespace arena
