#include "solvers/dense_lu.h"

#include <Eigen/LU>
#include <gtest/gtest.h>

namespace arena {
namespace dense_lu_test {

TEST(DenseLu, SolvesRandomSystemsLikeEigen) {
  for (int n : {1, 5, 17, 40}) {
    const MatX A = MatX::Random(n, n) + 0.1 * MatX::Identity(n, n);
    const VecX b = VecX::Random(n);
    const MatX B = MatX::Random(n, 3);
    DenseLu lu;
    lu.Compute(A);
    VecX x;
    lu.Solve(b, &x);
    EXPECT_LT((A * x - b).norm(), 1e-10 * (1.0 + b.norm())) << "n = " << n;
    EXPECT_LT((lu.Solve(B) - A.partialPivLu().solve(B)).norm(), 1e-9) << "n = " << n;
  }
}

TEST(DenseLu, PivotsRevealSingularity) {
  MatX A(3, 3);
  A << 1, 2, 3, 2, 4, 6, 0, 1, 1;  // rows 1 and 2 dependent
  DenseLu lu;
  lu.Compute(A);
  EXPECT_LT(lu.min_pivot(), 1e-12 * lu.max_pivot());
}

}  // namespace dense_lu_test
}  // namespace arena
