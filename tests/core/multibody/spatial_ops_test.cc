// The hand-written spatial kernels of spatial_ops.h against their plain matrix definitions.
#include <gtest/gtest.h>

#include "core/multibody/spatial_ops.h"
#include "tests/core/multibody/multibody_test_util.h"

namespace arena {
namespace spatial_ops_test {

using testing::RandomInertia;
using testing::RandomPose;
using testing::RandomVec;

TEST(SpatialOps, InertiaMatrixInIsTheTransformedInertia) {
  std::mt19937_64 rng(9600);
  for (int s = 0; s < 20; ++s) {
    const SE3 X = RandomPose(rng);
    const SpatialInertia I = RandomInertia(rng, 1.5);
    const Mat6 expected = I.Transformed(X).Matrix();
    EXPECT_LT((internal::InertiaMatrixIn(X, I) - expected).norm(), 1e-13 * expected.norm());
  }
}

TEST(SpatialOps, RigidInertiaTimesIsTheMatrixProduct) {
  std::mt19937_64 rng(9700);
  for (int s = 0; s < 20; ++s) {
    const Mat6 Y = internal::InertiaMatrixIn(RandomPose(rng), RandomInertia(rng, 1.5));
    const Motion m = RandomVec(rng, 6);
    const Force expected = Y * m;
    EXPECT_LT((internal::RigidInertiaTimes(Y, m) - expected).norm(), 1e-14 * (1 + expected.norm()));
  }
}

}  // namespace spatial_ops_test
}  // namespace arena
