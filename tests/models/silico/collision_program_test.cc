// The alpha-scaling collision program (Silico Sec. IV-A, P14) against closed-form scalings:
// two shapes scaled by alpha about their reference points first touch at alpha*.
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "models/silico/collision_program.h"

namespace arena::silico {
namespace collision_program_test {

PlanarShape Square(double h) {
  Eigen::Matrix<double, 4, 2> A;
  A << 1, 0, 0, 1, -1, 0, 0, -1;
  return PlanarShape::Polygon(A, VecX::Constant(4, h));
}

CollisionResult Solve(const PlanarShape& a, const PlanarShape& b, const Vec3& x_a, const Vec3& x_b,
                      bool sensitivities = false) {
  PlanarPair pair;
  pair.shape_p = a;
  pair.shape_c = b;
  pair.body_p = 0;
  pair.body_c = b.scaled() ? 1 : -1;
  CollisionProgram program(pair);
  program.SetPoses(x_a, x_b);
  InteriorPointOptions o;
  o.complementarity_tolerance = 1e-10;
  o.residual_tolerance = 1e-11;
  o.max_iterations = 100;
  InteriorPointSolver solver(o);
  CollisionResult r = SolveCollision(program, solver, sensitivities);
  EXPECT_TRUE(r.report.converged()) << ToString(r.report.status);
  return r;
}

TEST(CollisionProgram, DiskDisk) {
  // Scaling both disks about their centres: alpha (r1 + r2) = d.
  const auto r = Solve(PlanarShape::Disk(0.3), PlanarShape::Disk(0.5), Vec3(0, 0, 0), Vec3(1.2, 0.9, 0.4));
  EXPECT_NEAR(r.alpha, 1.5 / 0.8, 1e-6);
  EXPECT_LT(Solve(PlanarShape::Disk(0.3), PlanarShape::Disk(0.5), Vec3(0, 0, 0), Vec3(0.4, 0, 0)).phi, 0.0);
}

TEST(CollisionProgram, PolygonHalfPlane) {
  // A square of half-size h at height y and angle theta touches the floor when
  // alpha h (|cos| + |sin|) = y (the lowest corner).
  for (double theta : {0.0, 0.3, -1.1, 2.0}) {
    const double h = 0.25, y = 0.4;
    const auto r = Solve(Square(h), PlanarShape::HalfPlane(), Vec3(0.7, y, theta), Vec3::Zero());
    EXPECT_NEAR(r.alpha, y / (h * (std::abs(std::cos(theta)) + std::abs(std::sin(theta)))), 1e-6)
        << "theta " << theta;
  }
}

TEST(CollisionProgram, PaddedPolygonHalfPlane) {
  // Square (+) disk of radius r: alpha (h (|cos| + |sin|) + r) = y.
  const double h = 0.25, rad = 0.1, y = 0.5, theta = 0.4;
  const auto padded = PlanarShape::Minkowski(Square(h), PlanarShape::Disk(rad));
  const auto r = Solve(padded, PlanarShape::HalfPlane(), Vec3(0, y, theta), Vec3::Zero());
  EXPECT_NEAR(r.alpha, y / (h * (std::cos(theta) + std::sin(theta)) + rad), 1e-6);
}

TEST(CollisionProgram, BoxBoxAligned) {
  // Two aligned squares side by side: alpha (h1 + h2) = dx when the gap is along x.
  const auto r = Solve(Square(0.25), Square(0.5), Vec3(0, 0, 0), Vec3(1.5, 0.1, 0));
  EXPECT_NEAR(r.alpha, 1.5 / 0.75, 1e-6);
}

TEST(CollisionProgram, CapsuleCapsule) {
  // Parallel capsules along x, offset by d along y: alpha 2 r = d.
  const auto cap = PlanarShape::Capsule(0.1, 0.5);
  EXPECT_NEAR(Solve(cap, cap, Vec3(0, 0, 0), Vec3(0.2, 0.5, 0)).alpha, 0.5 / 0.2, 1e-6);
  // The second one vertical above the first: alpha (r + l2 + r) = d.
  const auto r = Solve(cap, cap, Vec3(0, 0, 0), Vec3(0, 1.4, std::numbers::pi / 2));
  EXPECT_NEAR(r.alpha, 1.4 / (0.1 + 0.5 + 0.1), 1e-6);
}

TEST(CollisionProgram, MinkowskiOfTwoPolygons) {
  // Square (+) square = a square of the summed half-size.
  const auto sum = PlanarShape::Minkowski(Square(0.2), Square(0.1));
  const auto r = Solve(sum, PlanarShape::HalfPlane(), Vec3(0, 0.45, 0), Vec3::Zero());
  EXPECT_NEAR(r.alpha, 0.45 / 0.3, 1e-6);
}

TEST(CollisionProgram, SensitivitiesMatchFiniteDifferences) {
  const auto a = PlanarShape::Disk(0.3);
  const auto b = Square(0.4);
  const Vec3 xa(0.1, 0.2, 0.3), xb(1.0, 0.8, -0.2);
  const auto r = Solve(a, b, xa, xb, true);
  const double h = 1e-6;
  for (int j = 0; j < 6; ++j) {
    Vec3 pa = xa, pb = xb, ma = xa, mb = xb;
    (j < 3 ? pa[j] : pb[j - 3]) += h;
    (j < 3 ? ma[j] : mb[j - 3]) -= h;
    const auto rp = Solve(a, b, pa, pb), rm = Solve(a, b, ma, mb);
    EXPECT_NEAR(r.dphi_dx[j], (rp.phi - rm.phi) / (2 * h), 1e-5) << "column " << j;
    const Vec2 dp = (rp.point - rm.point) / (2 * h);
    EXPECT_NEAR(r.dpoint_dx(0, j), dp[0], 1e-4) << "column " << j;
    EXPECT_NEAR(r.dpoint_dx(1, j), dp[1], 1e-4) << "column " << j;
  }
  // The optimal-value sensitivity (eq. 15): d alpha / d(x_P, y_P) is the parent normal.
  EXPECT_NEAR(r.normal[0], r.dphi_dx[0], 1e-5);
  EXPECT_NEAR(r.normal[1], r.dphi_dx[1], 1e-5);
}

}  // namespace collision_program_test
}  // namespace arena::silico
