// The Newton solver's positive-definite solves (solvers/cholesky_solve.h): dense and sparse agree
// on a block-sparse SPD matrix (an incremental potential's Hessian: bodies coupled in pairs), and
// both refuse a matrix that is not positive definite.
#include "solvers/cholesky_solve.h"

#include <gtest/gtest.h>

#include <random>

namespace arena {
namespace cholesky_solve_test {

TEST(CholeskySolve, DenseAndSparseAgreeOnABlockSparseHessian) {
  std::mt19937 rng(7);
  std::normal_distribution<double> n;
  const int bodies = 12, nv = 6 * bodies;
  MatX A = MatX::Zero(nv, nv);
  auto block = [&] {
    MatX B(6, 6);
    for (int i = 0; i < 36; ++i) B(i) = n(rng);
    return B;
  };
  for (int k = 0; k < bodies; ++k) {
    const MatX B = block();
    A.block(6 * k, 6 * k, 6, 6) += B * B.transpose() + 6.0 * MatX::Identity(6, 6);
  }
  for (int k = 0; k + 1 < bodies; k += 2) {  // pairs in contact couple their bodies
    const MatX C = 0.1 * block();
    A.block(6 * k, 6 * (k + 1), 6, 6) += C;
    A.block(6 * (k + 1), 6 * k, 6, 6) += C.transpose();
  }
  VecX b(nv);
  for (int i = 0; i < nv; ++i) b[i] = n(rng);
  VecX dense, sparse;
  ASSERT_TRUE(CholeskySolve(A, b, CholeskySolver::kDense, &dense));
  ASSERT_TRUE(CholeskySolve(A, b, CholeskySolver::kSparse, &sparse));
  EXPECT_LT((A * sparse - b).lpNorm<Eigen::Infinity>(), 1e-12);
  EXPECT_LT((dense - sparse).lpNorm<Eigen::Infinity>(), 1e-12);
}

TEST(CholeskySolve, IndefiniteMatricesAreRefused) {
  MatX A(2, 2);
  A << 1, 2, 2, 1;  // eigenvalues 3 and -1
  VecX x;
  EXPECT_FALSE(CholeskySolve(A, VecX::Ones(2), CholeskySolver::kDense, &x));
  EXPECT_FALSE(CholeskySolve(A, VecX::Ones(2), CholeskySolver::kSparse, &x));
  CholeskySolver parsed;
  EXPECT_TRUE(FromString("sparse_llt", &parsed));
  EXPECT_EQ(parsed, CholeskySolver::kSparse);
  EXPECT_FALSE(FromString("sparse", &parsed));
}

}  // namespace cholesky_solve_test
}  // namespace arena
