// The written-out small Cholesky against Eigen's LLT, and its refusal of indefinite matrices.
#include <gtest/gtest.h>

#include <random>

#include <Eigen/Cholesky>

#include "models/longrange/small_cholesky.h"

namespace arena::longrange {
namespace small_cholesky_test {

template <int N>
void CheckAgainstEigen(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  Eigen::Matrix<double, N, N> M;
  Eigen::Matrix<double, N, 1> b;
  for (int i = 0; i < N; ++i) {
    b(i) = U(rng);
    for (int j = 0; j < N; ++j) M(i, j) = U(rng);
  }
  const Eigen::Matrix<double, N, N> A = M * M.transpose() + 1e-3 * Eigen::Matrix<double, N, N>::Identity();
  Eigen::Matrix<double, N, N> L;
  ASSERT_TRUE(CholeskyFactor<N>(A, &L));
  const Eigen::Matrix<double, N, N> eigen_L = A.llt().matrixL();
  EXPECT_LT((L - eigen_L).cwiseAbs().maxCoeff(), 1e-12 * eigen_L.cwiseAbs().maxCoeff());
  const Eigen::Matrix<double, N, 1> x = CholeskySolve<N>(L, b), expected = A.llt().solve(b);
  EXPECT_LT((x - expected).cwiseAbs().maxCoeff(), 1e-10 * expected.cwiseAbs().maxCoeff());
  Eigen::Matrix<double, N, N> indefinite = A;
  indefinite(N - 1, N - 1) = -1.0;
  EXPECT_FALSE(CholeskyFactor<N>(indefinite, &L));
}

TEST(SmallCholesky, MatchesEigenAndRefusesIndefiniteMatrices) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    CheckAgainstEigen<3>(seed);
    CheckAgainstEigen<4>(seed);
  }
}

}  // namespace small_cholesky_test
}  // namespace arena::longrange
