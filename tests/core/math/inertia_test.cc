#include "core/math/inertia.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <functional>
#include <numbers>
#include <random>

#include "core/math/so3.h"

namespace arena {
namespace inertia_test {

constexpr double kPi = std::numbers::pi;

Vec3 RandomVec3(std::mt19937_64& rng, double half_width) {
  std::uniform_real_distribution<double> u(-half_width, half_width);
  return Vec3(u(rng), u(rng), u(rng));
}

SpatialInertia RandomInertia(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.01, 0.1);
  const Vec3 s(u(rng), u(rng), u(rng));
  const Mat3 Sigma = s.asDiagonal();  // second moments; I = tr(Sigma) 1 - Sigma is valid
  const Mat3 R = ExpSO3(RandomVec3(rng, 3.0));
  const double m = std::uniform_real_distribution<double>(0.5, 3.0)(rng);
  return SpatialInertia(m, RandomVec3(rng, 0.5),
                        m * R * (Sigma.trace() * Mat3::Identity() - Sigma) * R.transpose());
}

// Round-off bound of the identities below: a few products of O(1) numbers.
constexpr double kTol = 1e-13;

TEST(SpatialInertia, MatrixMatchesProduct) {
  std::mt19937_64 rng(21);
  for (int i = 0; i < 20; ++i) {
    const SpatialInertia I = RandomInertia(rng);
    const Motion m = MakeMotion(RandomVec3(rng, 1), RandomVec3(rng, 1));
    const Mat6 M = I.Matrix();
    EXPECT_TRUE((I * m).isApprox(M * m, kTol));
    EXPECT_TRUE(M.isApprox(M.transpose(), 1e-15));
    EXPECT_GT(Eigen::SelfAdjointEigenSolver<Mat6>(M).eigenvalues().minCoeff(), 0.0);
    // The linear momentum is m times the velocity of the centre of mass.
    const Vec3 v_com = Linear(m) + Angular(m).cross(I.com());
    EXPECT_TRUE(Linear(I * m).isApprox(I.mass() * v_com, kTol));
  }
}

TEST(SpatialInertia, TransformedMatchesForceTransform) {
  std::mt19937_64 rng(22);
  for (int i = 0; i < 20; ++i) {
    const SpatialInertia I_B = RandomInertia(rng);
    const SE3 X_AB(ExpSO3(RandomVec3(rng, 3.0)), RandomVec3(rng, 1.0));
    // I_A = X_AB^* I_B X_BA: forces map by the inverse transpose of the motion matrix.
    const Mat6 X_BA = X_AB.Inverse().MotionMatrix();
    const Mat6 expected = X_BA.transpose() * I_B.Matrix() * X_BA;
    EXPECT_TRUE(I_B.Transformed(X_AB).Matrix().isApprox(expected, kTol));
    // Kinetic energy does not depend on the frame.
    const Motion m_B = MakeMotion(RandomVec3(rng, 1), RandomVec3(rng, 1));
    const Motion m_A = X_AB.ActMotion(m_B);
    EXPECT_NEAR(m_A.dot(I_B.Transformed(X_AB) * m_A), m_B.dot(I_B * m_B), kTol * 10);
  }
}

TEST(SpatialInertia, SumIsParallelAxis) {
  std::mt19937_64 rng(23);
  for (int i = 0; i < 20; ++i) {
    const SpatialInertia a = RandomInertia(rng), b = RandomInertia(rng);
    EXPECT_TRUE((a + b).Matrix().isApprox(a.Matrix() + b.Matrix(), kTol));
  }
  // Massless parts: a pure rotational inertia adds as is.
  const SpatialInertia massless(0.0, Vec3::Zero(), Mat3::Identity() * 0.1);
  const SpatialInertia a = RandomInertia(rng);
  EXPECT_TRUE((a + massless).Matrix().isApprox(a.Matrix() + massless.Matrix(), kTol));
  EXPECT_TRUE((massless + massless).Matrix().isApprox(2.0 * massless.Matrix(), kTol));
}

// Inertia of a solid of revolution about z (uniform density, total mass m) by Simpson's rule
// over thin disks of radius r(z): dm = rho pi r^2 dz, dIzz = dm r^2 / 2,
// dIxx = dm (r^2 / 4 + z^2). The integrands are polynomials in z on each piece given by
// `breaks`, so Simpson's rule with many panels is accurate to ~1e-12.
Vec3 SolidOfRevolution(double m, const std::function<double(double)>& r2,
                       const std::vector<double>& breaks) {
  double vol = 0, ixx = 0, izz = 0;
  for (size_t s = 0; s + 1 < breaks.size(); ++s) {
    const int n = 2000;
    const double a = breaks[s], h = (breaks[s + 1] - a) / n;
    for (int k = 0; k <= n; ++k) {
      const double z = a + k * h;
      const double w = (k == 0 || k == n) ? 1.0 : (k % 2 ? 4.0 : 2.0);
      const double R2 = std::max(0.0, r2(z));
      vol += w * h / 3 * kPi * R2;
      ixx += w * h / 3 * kPi * R2 * (R2 / 4 + z * z);
      izz += w * h / 3 * kPi * R2 * R2 / 2;
    }
  }
  const double rho = m / vol;
  return Vec3(rho * ixx, rho * ixx, rho * izz);
}

TEST(SpatialInertia, SolidsMatchNumericIntegration) {
  const double m = 2.5, r = 0.3, hl = 0.7;
  const Vec3 capsule = SolidOfRevolution(m,
                                         [&](double z) {
                                           const double d = std::abs(z) - hl;
                                           return d <= 0 ? r * r : r * r - d * d;
                                         },
                                         {-hl - r, -hl, hl, hl + r});
  EXPECT_TRUE(
      SpatialInertia::SolidCapsule(m, r, hl).inertia_com().diagonal().isApprox(capsule, 1e-9));
  const Vec3 cylinder = SolidOfRevolution(m, [&](double) { return r * r; }, {-hl, hl});
  EXPECT_TRUE(
      SpatialInertia::SolidCylinder(m, r, hl).inertia_com().diagonal().isApprox(cylinder, 1e-9));
  const Vec3 sphere = SolidOfRevolution(m, [&](double z) { return r * r - z * z; }, {-r, r});
  EXPECT_TRUE(SpatialInertia::SolidSphere(m, r).inertia_com().diagonal().isApprox(sphere, 1e-9));
  // Box: I_xx = m (h_y^2 + h_z^2) / 3 for half extents h.
  const Vec3 h(0.1, 0.4, 0.9);
  const Mat3 box = SpatialInertia::SolidBox(m, h).inertia_com();
  EXPECT_NEAR(box(0, 0), m * (h.y() * h.y() + h.z() * h.z()) / 3, 1e-14);
  EXPECT_NEAR(box(1, 1), m * (h.x() * h.x() + h.z() * h.z()) / 3, 1e-14);
  EXPECT_NEAR(box(2, 2), m * (h.x() * h.x() + h.y() * h.y()) / 3, 1e-14);
}

TEST(SpatialInertia, CapsuleLimits) {
  const double m = 1.7, r = 0.25;
  // No cylinder: a sphere. No radius: a thin rod (m L^2 / 12).
  EXPECT_TRUE(SpatialInertia::SolidCapsule(m, r, 0.0).inertia_com().isApprox(
      SpatialInertia::SolidSphere(m, r).inertia_com(), 1e-14));
  const double hl = 0.8;
  const Mat3 rod = SpatialInertia::SolidCapsule(m, 1e-9, hl).inertia_com();
  EXPECT_NEAR(rod(0, 0), m * 4 * hl * hl / 12, 1e-9);
  EXPECT_NEAR(rod(2, 2), 0.0, 1e-9);
}

}  // namespace inertia_test
}  // namespace arena
