// The plane-relative frictional damping of a vertex set (seed 003 Sec. IV-C, seed 004 App. A.3),
// on longrange's triangle pairs (6 vertices) and sdrs's hull pairs (any count): its gradient,
// Hessian and derivatives with respect to the lagged weights and normal against central
// differences, on sliding, sticking (slip far below the smoothing speed) and mixed pairs; the
// damping force opposes slip relative to the plane and its size is about lambda f_n.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "models/incremental_potential/plane_friction.h"
#include "solvers/finite_difference.h"

namespace arena {
namespace plane_friction_test {

// Longrange's six-vertex instance (a triangle pair).
using PlaneFrictionInput = arena::PlaneFrictionInput<6>;
using PlaneFrictionResult = arena::PlaneFrictionResult<6>;

PlaneFrictionInput RandomInput(std::uint64_t seed, double slip) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  PlaneFrictionInput in;
  in.normal = Vec3(U(rng), U(rng), 1.0).normalized();
  for (int k = 0; k < 6; ++k) {
    in.x_start[k] = Vec3(U(rng), U(rng), U(rng));
    in.x_next[k] = in.x_start[k] + slip * in.dt * Vec3(U(rng), U(rng), U(rng));
    in.weight[k] = 0.5 + 0.5 * U(rng);
  }
  return in;
}

VecX Flat(const std::array<Vec3, 6>& x) {
  VecX v(18);
  for (int k = 0; k < 6; ++k) v.segment<3>(3 * k) = x[k];
  return v;
}

TEST(PlaneFriction, DerivativesMatchDifferences) {
  for (double slip : {1.0, 1e-3, 0.05}) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const PlaneFrictionInput in = RandomInput(seed, slip);
      PlaneFrictionResult r;
      PlaneFriction(in, &r);
      ASSERT_TRUE(r.converged);
      auto with_next = [&](const VecX& x) {
        PlaneFrictionInput t = in;
        for (int k = 0; k < 6; ++k) t.x_next[k] = x.segment<3>(3 * k);
        return t;
      };
      const VecX x0 = Flat(in.x_next);
      // Ridders: at 1 m/s of slip and eps = 1e-4 the curvature varies on the scale sqrt(eps) dt.
      FdOptions fd;
      fd.method = FdMethod::kRidders;
      fd.ridders_step = 1e-3 * in.dt;
      const MatX g_fd = FiniteDifferenceJacobian(
          [&](const VecX& dx) {
            PlaneFrictionResult o;
            PlaneFriction(with_next(x0 + dx), &o);
            return VecX::Constant(1, o.value);
          },
          18, fd).jacobian;
      EXPECT_LT(CorrectedRelativeError(r.gradient.transpose(), g_fd), 1e-6) << "slip " << slip;
      const MatX H_fd = FiniteDifferenceJacobian(
          [&](const VecX& dx) {
            PlaneFrictionResult o;
            PlaneFriction(with_next(x0 + dx), &o);
            return VecX(o.gradient);
          },
          18, fd).jacobian;
      EXPECT_LT(CorrectedRelativeError(r.hessian, H_fd), 1e-5) << "slip " << slip;
      FdOptions fd_parameters = fd;
      fd_parameters.ridders_step = 1e-2;
      const MatX W_fd = FiniteDifferenceJacobian(
          [&](const VecX& dw) {
            PlaneFrictionInput t = in;
            for (int k = 0; k < 6; ++k) t.weight[k] += dw[k];
            PlaneFrictionResult o;
            PlaneFriction(t, &o);
            return VecX(o.gradient);
          },
          6, fd_parameters).jacobian;
      EXPECT_LT(CorrectedRelativeError(r.dgradient_dweight, W_fd), 1e-5) << "slip " << slip;
      const MatX N_fd = FiniteDifferenceJacobian(
          [&](const VecX& dn) {
            PlaneFrictionInput t = in;
            t.normal += dn;
            PlaneFrictionResult o;
            PlaneFriction(t, &o);
            return VecX(o.gradient);
          },
          3, fd_parameters).jacobian;
      EXPECT_LT(CorrectedRelativeError(r.dgradient_dnormal, N_fd), 1e-5) << "slip " << slip;
    }
  }
}

// Every vertex sliding the same way in the plane, far faster than the smoothing speed: the
// plane cannot follow all of them (it minimises the total), so the force on the vertices is
// about w_k against the slip direction relative to the plane, and no force acts along n.
TEST(PlaneFriction, ForceOpposesSlipRelativeToThePlane) {
  PlaneFrictionInput in;
  in.normal = Vec3::UnitZ();
  for (int k = 0; k < 6; ++k) {
    in.x_start[k] = Vec3(0.1 * k, 0.0, k < 3 ? 0.0 : 0.01);
    // Triangle i slides +x at 1 m/s, triangle j -x at 1 m/s; both move along n too.
    in.x_next[k] = in.x_start[k] + in.dt * Vec3(k < 3 ? 1.0 : -1.0, 0.0, 0.3);
    in.weight[k] = 2.0;
  }
  in.eps = 1e-8;
  PlaneFrictionResult r;
  PlaneFriction(in, &r);
  EXPECT_LT(r.plane_velocity.norm(), 1e-6);  // symmetric: the plane stands still
  for (int k = 0; k < 6; ++k) {
    const Vec3 force = -r.gradient.segment<3>(3 * k);
    EXPECT_NEAR(force.x(), k < 3 ? -2.0 : 2.0, 1e-6);
    EXPECT_NEAR(force.z(), 0.0, 1e-12);
  }
}

// Without derivatives for triangle b's vertices (a static mesh), a's rows are the full ones.
TEST(PlaneFriction, DerivativesOfSomeVerticesAreTheirRowsOfTheFullOnes) {
  const PlaneFrictionInput in = RandomInput(5, 0.05);
  PlaneFrictionResult full, part;
  PlaneFriction(in, &full);
  PlaneFrictionInput masked = in;
  masked.derivatives = {true, true, true, false, false, false};
  PlaneFriction(masked, &part);
  EXPECT_EQ(part.value, full.value);
  EXPECT_EQ(VecX(part.gradient.head(9)), VecX(full.gradient.head(9)));
  EXPECT_EQ(part.gradient.tail<9>().norm(), 0.0);
  EXPECT_EQ(MatX(part.hessian.topLeftCorner(9, 9)), MatX(full.hessian.topLeftCorner(9, 9)));
  EXPECT_EQ(part.hessian.rightCols<9>().norm() + part.hessian.bottomRows<9>().norm(), 0.0);
  EXPECT_EQ(MatX(part.dgradient_dweight.topRows(9)), MatX(full.dgradient_dweight.topRows(9)));
  EXPECT_EQ(MatX(part.dgradient_dnormal.topRows(9)), MatX(full.dgradient_dnormal.topRows(9)));
}

TEST(PlaneFriction, NoWeightNoDamping) {
  PlaneFrictionInput in = RandomInput(4, 1.0);
  in.weight.fill(0.0);
  PlaneFrictionResult r;
  PlaneFriction(in, &r);
  EXPECT_EQ(r.value, 0.0);
  EXPECT_EQ(r.gradient.norm(), 0.0);
}

// The dynamic instance (sdrs's hull pairs) gives the six-vertex one's numbers, bit for bit.
TEST(PlaneFriction, DynamicCountMatchesSixVertices) {
  for (std::uint64_t seed : {1, 2, 3, 7}) {
    for (double slip : {1e-4, 0.05, 1.0}) {
      const PlaneFrictionInput in = RandomInput(seed, slip);
      arena::PlaneFrictionInput<Eigen::Dynamic> dyn;
      dyn.x_next.assign(in.x_next.begin(), in.x_next.end());
      dyn.x_start.assign(in.x_start.begin(), in.x_start.end());
      dyn.weight.assign(in.weight.begin(), in.weight.end());
      dyn.normal = in.normal;
      dyn.dt = in.dt;
      dyn.eps = in.eps;
      dyn.outputs = FrictionOutputs::kAll;
      PlaneFrictionResult fixed;
      arena::PlaneFrictionResult<Eigen::Dynamic> dynamic;
      PlaneFriction(in, &fixed);
      PlaneFriction(dyn, &dynamic);
      EXPECT_EQ(fixed.value, dynamic.value);
      EXPECT_EQ(fixed.plane_velocity, dynamic.plane_velocity);
      EXPECT_EQ(VecX(fixed.gradient), dynamic.gradient);
      EXPECT_EQ(MatX(fixed.hessian), dynamic.hessian);
      EXPECT_EQ(MatX(fixed.dgradient_dweight), dynamic.dgradient_dweight);
      EXPECT_EQ(MatX(fixed.dgradient_dnormal), dynamic.dgradient_dnormal);
    }
  }
}

// Eleven vertices (a hull pair): gradient and Hessian against central differences.
TEST(PlaneFriction, DynamicCountDerivativesMatchDifferences) {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  arena::PlaneFrictionInput<Eigen::Dynamic> in;
  in.normal = Vec3(0.3, -0.2, 1.0).normalized();
  in.dt = 0.02;
  in.eps = 1e-4;
  for (int k = 0; k < 11; ++k) {
    in.x_start.push_back(Vec3(u(rng), u(rng), u(rng)));
    in.x_next.push_back(in.x_start.back() + 0.002 * Vec3(u(rng), u(rng), u(rng)));
    in.weight.push_back(1.0 + u(rng));
  }
  arena::PlaneFrictionResult<Eigen::Dynamic> r;
  PlaneFriction(in, &r);
  VecX x0(33);
  for (int k = 0; k < 11; ++k) x0.segment<3>(3 * k) = in.x_next[k];
  auto at = [&](const VecX& dx, FrictionOutputs outputs) {
    arena::PlaneFrictionInput<Eigen::Dynamic> t = in;
    for (int k = 0; k < 11; ++k) t.x_next[k] = x0.segment<3>(3 * k) + dx.segment<3>(3 * k);
    t.outputs = outputs;
    arena::PlaneFrictionResult<Eigen::Dynamic> o;
    PlaneFriction(t, &o);
    return o;
  };
  FdOptions fd;
  fd.step = 1e-7;
  const FdResult g = FiniteDifferenceJacobian([&](const VecX& dx) { return VecX::Constant(1, at(dx, FrictionOutputs::kValue).value); }, 33, fd);
  const FdResult h = FiniteDifferenceJacobian([&](const VecX& dx) { return VecX(at(dx, FrictionOutputs::kGradient).gradient); }, 33, fd);
  EXPECT_LT(CorrectedRelativeError(r.gradient.transpose(), g.jacobian), 1e-6);
  EXPECT_LT(CorrectedRelativeError(r.hessian, h.jacobian), 1e-5);
}

}  // namespace plane_friction_test
}  // namespace arena
