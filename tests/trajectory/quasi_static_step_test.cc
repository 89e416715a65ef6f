// The quasi-static step (trajectory/quasi_static_step.h) on silico and the grasp scene: its
// Jacobian d q / d u in configuration coordinates against central differences of the step
// itself, with the star resting on the floor and squeezed by the fingers (contact) and with
// everything in the air (free flight: the star's row is zero, a finger follows its spring); the
// coordinate map against Integrate; a failed step is data, not an exception. On mujoco, substeps
// from rest against their closed form.
#include "trajectory/quasi_static_step.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "core/common/error.h"
#include "core/multibody/configuration.h"
#include "models/registry.h"
#include "scenes/silico_scenes.h"
#include "scenes/spider_scenes.h"

namespace arena {
namespace quasi_static_step_test {

// Silico at the planner's smoothing relaxation, solved far below it so that differences of the
// step see the relaxed solution's derivative and not the solver's stopping point.
std::unique_ptr<Simulator> TightSilico(const std::string& rho = "3e-3", const std::string& dt = "0.05") {
  return MakeSimulator("silico", GraspScene(),
                       {{"timestep", dt}, {"rho", rho}, {"residual_tolerance", "1e-9"}, {"max_iterations", "100"}});
}

MatX CentralDifferences(Simulator& sim, const VecX& q, const VecX& u, double h) {
  MatX J(q.size(), u.size());
  for (int j = 0; j < u.size(); ++j) {
    VecX up = u, um = u;
    up[j] += h;
    um[j] -= h;
    const QuasiStaticResult a = QuasiStaticStep(sim, q, up, 1, false);
    const QuasiStaticResult b = QuasiStaticStep(sim, q, um, 1, false);
    EXPECT_TRUE(a.ok && b.ok) << a.failure << b.failure;
    J.col(j) = (a.q - b.q) / (2.0 * h);
  }
  return J;
}

void ExpectJacobianMatchesDifferences(const VecX& q, const VecX& u, const std::string& rho = "3e-3") {
  std::unique_ptr<Simulator> sim = TightSilico(rho);
  const QuasiStaticResult r = QuasiStaticStep(*sim, q, u, 1, true);
  ASSERT_TRUE(r.ok) << r.failure;
  const MatX fd = CentralDifferences(*sim, q, u, 1e-6);
  EXPECT_LE((r.dq_du - fd).norm(), 1e-5 * (1.0 + fd.norm())) << "analytic\n" << r.dq_du << "\ndifferences\n" << fd;
}

// The fingers' targets 0.15 m inside the star on either side: both springs squeeze it.
VecX SqueezeTargets() {
  VecX u(6);
  u << 0.85, 0.4, 0.0, 1.15, 0.4, 0.0;
  return u;
}

TEST(QuasiStaticStep, JacobianMatchesDifferencesInContact) {
  VecX q = DefaultState(*GraspScene()).q;
  q.segment<2>(3) << 0.65, 0.45;  // left finger touching the star's left flank
  q.segment<2>(6) << 1.35, 0.45;
  ExpectJacobianMatchesDifferences(q, SqueezeTargets());
}

TEST(QuasiStaticStep, JacobianMatchesDifferencesInFreeFlight) {
  VecX q = DefaultState(*GraspScene()).q;
  q[1] = 1.0;  // the star in the air, the fingertips level with it, 0.3 m from it
  q[2] = 0.3;
  q[4] = 1.0;
  q[7] = 1.0;
  VecX u(6);
  u << 0.3, 1.05, 0.1, 1.7, 1.0, -0.2;
  ExpectJacobianMatchesDifferences(q, u);
  // At a stiff relaxation the pairs at a distance barely act: nothing moves the star, and a
  // fingertip follows its spring, (m/dt) (p3 - p2) + dt K (p3 - u) = 0, dp3/du = dt K / (m/dt + dt K).
  // (At the planner's rho = 3e-3 the relaxed pairs couple them by about 1 %: the smoothing.)
  ExpectJacobianMatchesDifferences(q, u, "1e-7");
  std::unique_ptr<Simulator> sim = TightSilico("1e-7");
  const QuasiStaticResult r = QuasiStaticStep(*sim, q, u, 1, true);
  EXPECT_LT(r.dq_du.topRows<3>().norm(), 1e-4);
  const double gain = 0.05 * 100.0 / (kGraspFingerMass / 0.05 + 0.05 * 100.0);
  EXPECT_NEAR(r.dq_du(3, 0), gain, 1e-4);
  EXPECT_NEAR(r.dq_du(4, 1), gain, 1e-4);
}

TEST(QuasiStaticStep, ChainsSubstepsLikeDifferences) {
  std::unique_ptr<Simulator> sim = TightSilico("3e-3", "0.025");
  VecX q = DefaultState(*GraspScene()).q;
  q.segment<2>(3) << 0.65, 0.45;
  q.segment<2>(6) << 1.35, 0.45;
  const VecX u = SqueezeTargets();
  const QuasiStaticResult r = QuasiStaticStep(*sim, q, u, 2, true);
  ASSERT_TRUE(r.ok) << r.failure;
  MatX fd(q.size(), u.size());
  for (int j = 0; j < u.size(); ++j) {
    VecX up = u, um = u;
    up[j] += 1e-6;
    um[j] -= 1e-6;
    fd.col(j) = (QuasiStaticStep(*sim, q, up, 2, false).q - QuasiStaticStep(*sim, q, um, 2, false).q) / 2e-6;
  }
  EXPECT_LE((r.dq_du - fd).norm(), 1e-5 * (1.0 + fd.norm()));
  EXPECT_GT(r.dq_du.topRows<3>().norm(), 1e-3);  // the squeeze moves the star
}

// MuJoCo's position springs are explicit: a substep from rest moves a free fingertip a = dt^2 k / m
// of the way to its target, so after N substeps each from rest d x / d u = 1 - (1 - a)^N (the
// velocity reset is what makes it converge: with it kept, the undamped spring would swing). The
// chain of MuJoCo's finite-difference Jacobians gives that, at the grasp configuration of the
// experiment (dt 0.25 ms: a = 0.00625 on x and y, 1.25 on the fingertip's angle).
TEST(QuasiStaticStep, MujocoSubstepsFromRestFollowTheSpringInClosedForm) {
  const double dt = 0.00025, kp = 100.0, radius = 0.1;
  std::unique_ptr<Simulator> sim = MakeSimulator("mujoco", GraspScene(), {{"timestep", "0.00025"}, {"fd_method", "forward"}});
  const VecX q = DefaultState(*GraspScene()).q;  // the fingertips 0.35 m from the star's flanks
  VecX u(6);
  u << 0.3, 0.45, 0.1, 1.7, 0.35, -0.1;
  const int n = 20;
  const QuasiStaticResult r = QuasiStaticStep(*sim, q, u, n, true);
  ASSERT_TRUE(r.ok) << r.failure;
  const double a = dt * dt * kp / kGraspFingerMass;
  const double a_angle = dt * dt * kp / (0.5 * kGraspFingerMass * radius * radius);
  const double gain = 1.0 - std::pow(1.0 - a, n), angle_gain = 1.0 - std::pow(1.0 - a_angle, n);
  for (int finger : {0, 1}) {
    EXPECT_NEAR(r.dq_du(3 + 3 * finger, 3 * finger), gain, 1e-6);
    EXPECT_NEAR(r.dq_du(4 + 3 * finger, 1 + 3 * finger), gain, 1e-6);
    EXPECT_NEAR(r.dq_du(5 + 3 * finger, 2 + 3 * finger), angle_gain, 1e-6);
  }
  EXPECT_LT(r.dq_du.topRows<3>().cwiseAbs().maxCoeff(), 1e-8);  // the star, untouched, rests
  EXPECT_NEAR(r.q[3], q[3] + gain * (u[0] - q[3]), 1e-9);
}

TEST(QuasiStaticStep, CoordinateJacobianIsTheFirstOrderOfIntegrate) {
  const std::shared_ptr<const Scene> scene = GraspScene();
  VecX q = DefaultState(*scene).q;
  q[2] = 0.7;
  const MatX J = CoordinateJacobian(scene->model, q);
  for (int j = 0; j < scene->nv(); ++j) {
    VecX d = VecX::Zero(scene->nv());
    d[j] = 1e-6;
    const VecX fd = (Integrate(scene->model, q, d) - Integrate(scene->model, q, -d)) / 2e-6;
    EXPECT_LE((J.col(j) - fd).norm(), 1e-8) << "tangent " << j;
  }
  EXPECT_THROW(CoordinateJacobian(AntPushScene()->model, DefaultState(*AntPushScene()).q), Unsupported);
}

TEST(QuasiStaticStep, AFailedStepIsReportedNotThrown) {
  // One interior-point iteration cannot solve a contact step.
  std::unique_ptr<Simulator> sim = MakeSimulator("silico", GraspScene(), {{"timestep", "0.05"}, {"max_iterations", "1"}});
  const QuasiStaticResult r = QuasiStaticStep(*sim, DefaultState(*GraspScene()).q, SqueezeTargets(), 1, true);
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.failure.empty());
}

}  // namespace quasi_static_step_test
}  // namespace arena
