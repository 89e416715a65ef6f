// PSD projection: the result is PSD, symmetric, idempotent and the Frobenius-nearest PSD matrix
// (the distance is the norm of the clamped eigenvalues); a PSD input comes back unchanged.
#include "models/ipc/psd_projection.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <Eigen/Eigenvalues>

#include "tests/models/ipc/ipc_test_util.h"

namespace arena::ipc {
namespace psd_projection_test {

template <int N>
Eigen::Matrix<double, N, N> RandomSymmetric(Rng& rng, int n = N) {
  Eigen::Matrix<double, N, N> a(n, n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) a(i, j) = Uniform(rng, -1.0, 1.0);
  }
  return a + a.transpose();
}

template <int N>
void CheckProjection(Rng& rng, int n = N) {
  for (int trial = 0; trial < 50 * ipc_testing::SoakFactor(); ++trial) {
    const Eigen::Matrix<double, N, N> h = RandomSymmetric<N>(rng, n);
    const Eigen::Matrix<double, N, N> p = ProjectToPsd<N>(h);
    const double scale = h.norm();
    EXPECT_GE(MinEigenvalue<N>(p), -1e-14 * scale);
    EXPECT_LT((p - p.transpose()).norm(), 1e-14 * scale);
    EXPECT_LT((ProjectToPsd<N>(p) - p).norm(), 1e-12 * scale) << "idempotent";
    // Nearest in the Frobenius norm: |h - p|^2 = sum of the squared negative eigenvalues.
    const Eigen::SelfAdjointEigenSolver<MatX> eig{MatX(h)};  // the reference at dynamic size
    const double negative = eig.eigenvalues().cwiseMin(0.0).squaredNorm();
    EXPECT_NEAR((h - p).squaredNorm(), negative, 1e-12 * scale * scale);
    // A PSD input comes back unchanged: exactly when it is symmetric and safely definite, up
    // to the eigen-solver's round-off when it is singular (a rank-one v v^T).
    const Eigen::Matrix<double, N, N> hh = h * h.transpose();
    const Eigen::Matrix<double, N, N> definite =
        0.5 * (hh + hh.transpose()) + 0.1 * Eigen::Matrix<double, N, N>::Identity(n, n);
    EXPECT_EQ(ProjectToPsd<N>(definite), definite);
    const Eigen::Matrix<double, N, 1> v = h.col(0);
    const Eigen::Matrix<double, N, N> singular = v * v.transpose();
    EXPECT_LT((ProjectToPsd<N>(singular) - singular).norm(), 1e-14 * singular.norm());
  }
}

TEST(IpcPsdProjection, ProjectsOntoThePsdCone) {
  Rng rng(201);
  CheckProjection<2>(rng);
  CheckProjection<3>(rng);
  for (int n : {6, 7, 9, 12}) CheckProjection<Eigen::Dynamic>(rng, n);
}

TEST(IpcPsdProjection, TranslationInvariantProjectionMatchesTheFullOne) {
  // A 12x12 Hessian of four points that vanishes on common translations: h T = 0 for
  // T = (1, 1, 1, 1) x I3. Built as P s P with P the projector onto the complement of T.
  Rng rng(202);
  Eigen::Matrix<double, 12, 3> t;
  for (int k = 0; k < 4; ++k) t.block<3, 3>(3 * k, 0) = 0.5 * Mat3::Identity();
  const Eigen::Matrix<double, 12, 12> p =
      Eigen::Matrix<double, 12, 12>::Identity() - t * t.transpose();
  double worst = 0.0;
  for (int trial = 0; trial < 50 * ipc_testing::SoakFactor(); ++trial) {
    const Eigen::Matrix<double, 12, 12> h = p * RandomSymmetric<12>(rng) * p;
    const Eigen::Matrix<double, 12, 12> reduced = ProjectTranslationInvariantToPsd(h);
    worst = std::max(worst, (reduced - ProjectToPsd<Eigen::Dynamic>(MatX(h))).norm() / h.norm());
    EXPECT_GE(MinEigenvalue<Eigen::Dynamic>(MatX(reduced)), -1e-14 * h.norm());
    EXPECT_LT((reduced * t).norm(), 1e-14 * h.norm());  // still blind to translations
    const Eigen::Matrix<double, 12, 12> psd = p * (h * h) * p;
    EXPECT_LT((ProjectTranslationInvariantToPsd(psd) - psd).norm(), 1e-13 * psd.norm());
  }
  EXPECT_LT(worst, 1e-13);
}

TEST(IpcPsdProjection, ClampsOnlyTheNegativeEigenvalues) {
  // diag(3, -2, 0) rotated: the projection is the rotated diag(3, 0, 0).
  const Mat3 r = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  const Mat3 h = r * Vec3(3, -2, 0).asDiagonal() * r.transpose();
  const Mat3 expected = r * Vec3(3, 0, 0).asDiagonal() * r.transpose();
  EXPECT_LT((ProjectToPsd<3>(h) - expected).norm(), 1e-14);
  EXPECT_NEAR(MinEigenvalue<3>(h), -2.0, 1e-14);
}

TEST(IpcPsdProjection, NonFiniteInputIsVisible) {
  Mat3 h = Mat3::Identity();
  h(0, 1) = h(1, 0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(ProjectToPsd<3>(h).allFinite());
}

}  // namespace psd_projection_test
}  // namespace arena::ipc
