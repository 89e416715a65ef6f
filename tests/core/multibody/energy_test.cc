#include "core/multibody/energy.h"

#include <gtest/gtest.h>

#include <Eigen/LU>

#include "core/multibody/configuration.h"
#include "core/multibody/dynamics.h"
#include "core/multibody/kinematics.h"
#include "tests/core/multibody/multibody_test_util.h"

namespace arena {
namespace energy_test {

using testing::CentralOptions;
using testing::MakeJoint;
using testing::NumSamples;
using testing::RandomInertia;
using testing::RandomPose;
using testing::RandomTree;
using testing::RandomTreeSample;
using testing::RandomUnit;
using testing::RandomVec;

TEST(Energy, KineticEnergyIsHalfVMV) {
  for (int s = 0; s < NumSamples(5); ++s) {
    auto [model, q, v, rng] = RandomTreeSample(7000 + s, 7100 + s, {.armature = false});
    MultibodyData data(model);
    Crba(model, data, q);
    const double T = KineticEnergy(model, data, q, v);
    // Same quadratic form summed in another order: round-off.
    EXPECT_NEAR(T, 0.5 * v.dot(data.M * v), 1e-12 * T);
  }
}

TEST(Energy, MomentumAndCentreOfMass) {
  for (int s = 0; s < NumSamples(3); ++s) {
    auto [model, q, v, rng] = RandomTreeSample(7200 + s, 7300 + s);
    MultibodyData data(model), data_fd(model);
    // Independent sums: each body's linear momentum m v_com and angular momentum about the
    // world origin c x m v_com + R I_c R^T omega.
    ForwardKinematics(model, data, q, v);
    Vec3 L = Vec3::Zero(), P = Vec3::Zero(), mc = Vec3::Zero();
    for (int b = 0; b < model.num_bodies(); ++b) {
      const SpatialInertia& I = model.body(b).inertia;
      const SE3& X = data.X_WB[b];
      const Vec3 c = X.Act(I.com());
      const Vec3 w = X.rotation() * Angular(data.V_B[b]);
      const Vec3 v_com = PointVelocity(data, b, c);
      P += I.mass() * v_com;
      L +=
          c.cross(I.mass() * v_com) + X.rotation() * I.inertia_com() * X.rotation().transpose() * w;
      mc += I.mass() * c;
    }
    const Force h = SpatialMomentum(model, data, q, v);
    EXPECT_LT((Angular(h) - L).norm(), 1e-12 * (1 + L.norm()));
    EXPECT_LT((Linear(h) - P).norm(), 1e-12 * (1 + P.norm()));
    const Vec3 com = CenterOfMass(model, data, q);
    EXPECT_LT((com - mc / model.TotalMass()).norm(), 1e-14);
    // The linear momentum is the total mass times the COM velocity (d/dt along q + v t,
    // central differences with h = 1e-6: error ~1e-10).
    const LocalFunction com_of_t = [&](const VecX& t) -> VecX {
      return CenterOfMass(model, data_fd, Integrate(model, q, v * t[0]));
    };
    const MatX v_com = FiniteDifferenceJacobian(com_of_t, 1, CentralOptions()).jacobian;
    EXPECT_LT((model.TotalMass() * v_com - Linear(h)).norm(), 1e-8 * (1 + P.norm()));
  }
}

TEST(Energy, PowerBalance) {
  // With gravity and armature: d/dt (T + U + 1/2 sum armature qd^2) = v^T tau along the motion
  // ddq = Aba(q, v, tau). The curve q(t) = Integrate(q, v t + ddq t^2 / 2), v(t) = v + ddq t
  // has those velocity and acceleration at t = 0; central differences, h = 1e-5: ~1e-9.
  const MultibodyModel model = RandomTree(7400);
  MultibodyData data(model);
  std::mt19937_64 rng(7401);
  const VecX q = RandomConfiguration(model, rng);
  const VecX v = RandomVec(rng, model.nv()), tau = RandomVec(rng, model.nv());
  const VecX ddq = Aba(model, data, q, v, tau);
  VecX armature = VecX::Zero(model.nv());
  for (const BodyModel& b : model.bodies()) {
    if (b.joint.nv() == 1) armature[b.idx_v] = b.joint.armature;
  }
  const LocalFunction energy = [&](const VecX& t) -> VecX {
    const double h = t[0];
    const VecX qt = Integrate(model, q, v * h + 0.5 * h * h * ddq), vt = v + h * ddq;
    return VecX::Constant(1, KineticEnergy(model, data, qt, vt) + PotentialEnergy(model, data, qt) +
                                 0.5 * vt.dot(armature.asDiagonal() * vt));
  };
  const double power = FiniteDifferenceJacobian(energy, 1, CentralOptions(1e-5)).jacobian(0, 0);
  EXPECT_NEAR(power, v.dot(tau), 1e-7 * (1 + std::abs(v.dot(tau))));
}

// One step of the 4th-order Runge-Kutta-Munthe-Kaas method on the configuration manifold:
// q(t + h) = q Exp(Theta) with Theta' = Jr(Theta)^-1 v, v' = Aba(q, v, 0).
void RkmkStep(const MultibodyModel& model, MultibodyData& data, double h, VecX* q, VecX* v) {
  const VecX zero = VecX::Zero(model.nv());
  MatX Jq, Jv;
  auto stage = [&](const VecX& theta, const VecX& vel, VecX* k_theta, VecX* k_v) {
    const VecX qs = Integrate(model, *q, theta);
    IntegrateJacobians(model, *q, theta, &Jq, &Jv);  // Jv = Jr(theta), block diagonal
    *k_theta = Jv.partialPivLu().solve(vel);
    *k_v = Aba(model, data, qs, vel, zero);
  };
  VecX k1t, k1v, k2t, k2v, k3t, k3v, k4t, k4v;
  stage(zero, *v, &k1t, &k1v);
  stage(0.5 * h * k1t, *v + 0.5 * h * k1v, &k2t, &k2v);
  stage(0.5 * h * k2t, *v + 0.5 * h * k2v, &k3t, &k3v);
  stage(h * k3t, *v + h * k3v, &k4t, &k4v);
  *q = Integrate(model, *q, h / 6.0 * (k1t + 2.0 * k2t + 2.0 * k3t + k4t));
  *v += h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
}

TEST(Energy, FreeFloatingChainConservesEnergyAndMomentum) {
  // A free base with five revolute / ball links, no gravity, no external force: kinetic energy
  // and spatial momentum (about the world origin) are first integrals.
  std::mt19937_64 rng(7500);
  MultibodyModel model;
  model.set_gravity(Vec3::Zero());
  int parent = model.AddBody("base", kWorldBody, MakeJoint(JointType::kFree, SE3()),
                             RandomInertia(rng, 3.0));
  const JointType types[] = {JointType::kRevolute, JointType::kBall, JointType::kRevolute,
                             JointType::kBall, JointType::kRevolute};
  for (int i = 0; i < 5; ++i) {
    parent = model.AddBody("link" + std::to_string(i), parent,
                           MakeJoint(types[i], RandomPose(rng, 0.4), RandomUnit(rng)),
                           RandomInertia(rng, 1.0));
  }
  MultibodyData data(model);
  VecX q = RandomConfiguration(model, rng);
  VecX v = RandomVec(rng, model.nv(), 1.5);
  const double E0 = KineticEnergy(model, data, q, v);
  const Force h0 = SpatialMomentum(model, data, q, v);
  double max_dE = 0.0, max_dh = 0.0;
  for (int step = 0; step < 1000; ++step) {
    RkmkStep(model, data, 1e-3, &q, &v);
    max_dE = std::max(max_dE, std::abs(KineticEnergy(model, data, q, v) - E0));
    max_dh = std::max(max_dh, (SpatialMomentum(model, data, q, v) - h0).norm());
  }
  // RKMK4's global error is O(h^4): the relative drift measured here is 3e-11 at h = 1e-3 and
  // 16 times that at h = 2e-3, so 1e-9 bounds the method's own error with a margin of 30,
  // while a wrong term in ABA drifts by far more than 1e-6 within the 1 s simulated.
  EXPECT_LT(max_dE, 1e-9 * E0);
  EXPECT_LT(max_dh, 1e-9 * h0.norm());
}

}  // namespace energy_test
}  // namespace arena
