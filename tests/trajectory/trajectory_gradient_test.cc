// The trajectory layer through every kind of model: the backward pass (Simulator::Vjp step by
// step) against central differences of the rolled-out loss, with respect to the controls, the
// start state and the design parameters; the multiple-shooting objective's gradient the same
// way; rollouts that fail.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/common/random.h"
#include "scenes/nimble_robots.h"
#include "models/registry.h"
#include "solvers/finite_difference.h"
#include "trajectory/multiple_shooting.h"
#include "trajectory/shooting_objective.h"

namespace arena {
namespace trajectory_gradient_test {

constexpr int kSteps = 25;

std::shared_ptr<TerminalStateLoss> CartpoleLoss(const Scene& scene, int steps) {
  const int nv = scene.nv();
  auto loss = std::make_shared<TerminalStateLoss>();
  loss->q_target = VecX::Constant(nv, 0.1);
  loss->q_weight = VecX::LinSpaced(nv, 1.0, 2.0);
  loss->v_weight = VecX::Constant(nv, 0.5);
  loss->control_weight = 1e-2;
  loss->control_scale = VecX::Constant(steps * scene.nu(), 10.0);
  return loss;
}

VecX RandomControls(int n, std::uint64_t seed, double scale) {
  Rng rng(seed);
  VecX u(n);
  for (int i = 0; i < n; ++i) u[i] = Uniform(rng, -scale, scale);
  return u;
}

// Central differences of an objective (the reference for its gradient).
VecX DifferenceGradient(Objective& f, const VecX& x, double h) {
  const LocalFunction g = [&](const VecX& dx) { return VecX::Constant(1, f.Evaluate(x + dx, nullptr)); };
  FdOptions fd;
  fd.step = h;
  return FiniteDifferenceJacobian(g, static_cast<int>(x.size()), fd).jacobian.row(0).transpose();
}

struct GradientCase {
  std::string model;
  double tolerance;  // corrected relative error; the engines' gradients are differences themselves
};

class ModelTrajectoryGradient : public ::testing::TestWithParam<GradientCase> {};

TEST_P(ModelTrajectoryGradient, ControlsMatchDifferencesOfTheRolloutLoss) {
  const GradientCase& p = GetParam();
  const std::shared_ptr<const Scene> scene = DoubleCartpoleScene();
  auto sim = MakeSimulator(p.model, scene, {{"timestep", "0.01"}});
  ShootingObjective objective(*sim, DefaultState(*scene), kSteps, CartpoleLoss(*scene, kSteps));
  const VecX u = RandomControls(objective.dimension(), 3, 5.0);
  VecX gradient;
  const double loss = objective.Evaluate(u, &gradient);
  ASSERT_TRUE(std::isfinite(loss));
  EXPECT_EQ(objective.evaluations(), 1);
  EXPECT_EQ(objective.gradient_evaluations(), 1);
  const VecX reference = DifferenceGradient(objective, u, 1e-6);
  EXPECT_LT(CorrectedRelativeError(gradient, reference), p.tolerance) << gradient.transpose() << "\n" << reference.transpose();
}

// dL/d(start state), which BackpropagateTrajectory returns as q0 and v0.
TEST_P(ModelTrajectoryGradient, StartStateMatchesDifferences) {
  const GradientCase& p = GetParam();
  const std::shared_ptr<const Scene> scene = CartpoleScene();
  auto sim = MakeSimulator(p.model, scene, {{"timestep", "0.01"}});
  const auto loss = CartpoleLoss(*scene, kSteps);
  const VecX u = RandomControls(kSteps * scene->nu(), 5, 5.0);
  const State start = DefaultState(*scene);
  auto loss_at = [&](const State& s0) {
    Rollout r;
    RunRollout(*sim, s0, u, &r);
    return loss->Value(*scene, r.states, u);
  };
  Rollout rollout;
  RunRollout(*sim, start, u, &rollout);
  TrajectoryLossGradient g;
  loss->Gradient(*scene, rollout.states, u, &g);
  TrajectoryGradient out;
  BackpropagateTrajectory(*sim, rollout, u, g, &out);
  const int nv = scene->nv();
  VecX reference(2 * nv);
  const double h = 1e-6;
  for (int i = 0; i < 2 * nv; ++i) {
    State plus = start, minus = start;
    (i < nv ? plus.q : plus.v)[i % nv] += h;
    (i < nv ? minus.q : minus.v)[i % nv] -= h;
    reference[i] = (loss_at(plus) - loss_at(minus)) / (2.0 * h);
  }
  VecX got(2 * nv);
  got << out.q0, out.v0;
  EXPECT_LT(CorrectedRelativeError(got, reference), p.tolerance) << got.transpose() << "\n" << reference.transpose();
}

INSTANTIATE_TEST_SUITE_P(Models, ModelTrajectoryGradient,
                         ::testing::Values(GradientCase{"penalty", 1e-6}, GradientCase{"nimble", 1e-6},
                                           GradientCase{"mujoco", 1e-4}),
                         [](const auto& info) { return info.param.model; });

// Co-design: nimble's link masses as variables after the controls.
TEST(TrajectoryGradientDesign, LinkMassesMatchDifferences) {
  const std::shared_ptr<const Scene> scene = CartpoleScene();
  auto sim = MakeSimulator("nimble", scene, {{"timestep", "0.01"}});
  ShootingObjective objective(*sim, DefaultState(*scene), kSteps, CartpoleLoss(*scene, kSteps), true);
  const int nc = kSteps * scene->nu();
  ASSERT_EQ(objective.dimension(), nc + 2);  // cart and pole
  VecX x(objective.dimension());
  x << RandomControls(nc, 9, 5.0), 1.3, 0.7;
  VecX gradient;
  objective.Evaluate(x, &gradient);
  const VecX reference = DifferenceGradient(objective, x, 1e-6);
  EXPECT_LT(CorrectedRelativeError(gradient.tail(2), reference.tail(2)), 1e-6)
      << gradient.tail(2).transpose() << " vs " << reference.tail(2).transpose();
  EXPECT_LT(CorrectedRelativeError(gradient, reference), 1e-6);
}

TEST(TrajectoryGradientDesign, ModelsWithoutDesignDerivativesAreRefused) {
  const std::shared_ptr<const Scene> scene = CartpoleScene();
  auto sim = MakeSimulator("penalty", scene, {});
  EXPECT_THROW(ShootingObjective(*sim, DefaultState(*scene), 5, CartpoleLoss(*scene, 5), true), Unsupported);
}

// A multiple-shooting segment's end and its chained Jacobians (start state and controls)
// against central differences, on a contact-free robot (penalty) and through contact (nimble on
// the catapult, whose projectile rests on the arm).
TEST(MultipleShooting, SegmentJacobiansMatchDifferences) {
  for (const std::string model : {"penalty", "nimble"}) {
    const bool contact = model == "nimble";
    const std::shared_ptr<const Scene> scene = contact ? CatapultScene() : DoubleCartpoleScene();
    auto sim = MakeSimulator(model, scene, {{"timestep", contact ? "0.001" : "0.01"}});
    State start = DefaultState(*scene);
    if (contact) start.q.head<2>() << -0.05, 0.055;  // the projectile on the arm (trajopt_tasks.cc)
    const int steps = 12, nu = scene->nu(), nv = scene->nv();
    const VecX u = RandomControls(steps * nu, 17, contact ? 20.0 : 5.0);
    SegmentJacobians seg;
    ASSERT_TRUE(SegmentEndAndJacobians(*sim, start, u, steps, &seg));
    const LocalFunction end_of = [&](const VecX& dx) {
      State s = start;
      s.q += dx.head(nv);
      s.v += dx.segment(nv, nv);
      SegmentJacobians e;
      EXPECT_TRUE(SegmentEndAndJacobians(*sim, s, u + dx.tail(steps * nu), steps, &e));
      return e.end;
    };
    FdOptions fd;
    fd.step = 1e-7;
    const MatX reference = FiniteDifferenceJacobian(end_of, 2 * nv + steps * nu, fd).jacobian;
    MatX got(2 * nv, 2 * nv + steps * nu);
    got << seg.d_start, seg.d_controls;
    EXPECT_LT(CorrectedRelativeError(got, reference), 1e-5) << model;
  }
}

// The catapult's task loss as least squares equals its value.
TEST(MultipleShooting, LeastSquaresFormIsTheLoss) {
  const std::shared_ptr<const Scene> scene = CartpoleScene();
  const auto loss = CartpoleLoss(*scene, 4);
  State end = DefaultState(*scene);
  end.v << 0.3, -0.2;
  const VecX u = RandomControls(4, 1, 3.0);
  VecX r;
  MatX J;
  loss->TerminalResiduals(end, &r, &J);
  const VecX c = loss->ControlResidualScale(4);
  EXPECT_NEAR(r.squaredNorm() + c.cwiseProduct(u).squaredNorm(), loss->Value(*scene, {DefaultState(*scene), end}, u), 1e-14);
}

TEST(Rollout, StopsAtTheFirstFailedStepAndKeepsTheStatesBefore) {
  const std::shared_ptr<const Scene> scene = CartpoleScene();
  auto sim = MakeSimulator("penalty", scene, {});
  VecX u = VecX::Zero(10);
  u[3] = std::numeric_limits<double>::quiet_NaN();
  Rollout rollout;
  RunRollout(*sim, DefaultState(*scene), u, &rollout);
  EXPECT_FALSE(rollout.ok());
  EXPECT_EQ(rollout.steps_done, 3);
  EXPECT_EQ(rollout.states.size(), 4u);
  EXPECT_NE(rollout.failure.find("step 3: non_finite"), std::string::npos) << rollout.failure;
  ShootingObjective objective(*sim, DefaultState(*scene), 10, CartpoleLoss(*scene, 10));
  VecX gradient = VecX::Constant(10, 7.0);
  EXPECT_EQ(objective.Evaluate(u, &gradient), std::numeric_limits<double>::infinity());
  EXPECT_EQ(gradient[0], 7.0);  // untouched
  EXPECT_THROW(RunRollout(*sim, DefaultState(*scene), VecX::Zero(7), 3, &rollout), InvalidArgument);
}

}  // namespace trajectory_gradient_test
}  // namespace arena
