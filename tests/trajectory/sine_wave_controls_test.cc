// Sine-wave PD controllers as a rollout's variables (seed 003 Figs. 11-13, seed 004 Ant-Push):
// the map from (a, omega, phi) to the stacked controls and its pullback against differences, the
// channels a scene offers, bad input, and the controller objective's gradient through whole
// rollouts of models with derivatives against central differences of the rolled-out loss.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "core/common/error.h"
#include "core/common/random.h"
#include "core/scene/scene_builder.h"
#include "models/registry.h"
#include "solvers/finite_difference.h"
#include "trajectory/controller_objective.h"
#include "trajectory/shooting_objective.h"
#include "trajectory/sine_wave_controls.h"

namespace arena {
namespace sine_wave_controls_test {

// A two-link arm hanging from the world on revolute joints (about y, then x), each joint with a
// PD-target actuator, the elbow also with a velocity-target one, and a torque actuator on the
// shoulder that no channel drives.
std::shared_ptr<const Scene> ArmScene() {
  SceneBuilder b("sine_arm");
  b.SetGravity(Vec3(0, 0, -9.81));
  JointModel shoulder;
  shoulder.type = JointType::kRevolute;
  shoulder.name = "shoulder";
  shoulder.axis = Vec3::UnitY();
  JointModel elbow = shoulder;
  elbow.name = "elbow";
  elbow.axis = Vec3::UnitX();
  elbow.placement = SE3::FromTranslation(Vec3(0, 0, -0.4));
  const SpatialInertia link = SpatialInertia::SolidBox(1.0, Vec3(0.05, 0.05, 0.2)).Transformed(SE3::FromTranslation(Vec3(0, 0, -0.2)));
  const int upper = b.AddBody("upper", kWorldBody, shoulder, link);
  const int lower = b.AddBody("lower", upper, elbow, link);
  auto actuator = [&](const std::string& name, int body, ActuatorType type, double kp, double kd) {
    Actuator a;
    a.name = name;
    a.body = body;
    a.type = type;
    a.kp = kp;
    a.kd = kd;
    b.AddActuator(a);
  };
  actuator("shoulder_pd", upper, ActuatorType::kPdTarget, 30.0, 1.0);
  actuator("shoulder_torque", upper, ActuatorType::kTorque, 0.0, 0.0);
  actuator("elbow_pd", lower, ActuatorType::kPdTarget, 20.0, 0.0);
  actuator("elbow_velocity", lower, ActuatorType::kVelocityTarget, 0.0, 0.8);
  return b.Build();
}

VecX RandomTheta(int n, std::uint64_t seed) {
  Rng rng(seed);
  VecX theta(n);
  for (int i = 0; i < n; ++i) theta[i] = Uniform(rng, i % 3 == 1 ? 1.0 : -1.0, i % 3 == 1 ? 6.0 : 1.0);  // omega in [1, 6]
  return theta;
}

TEST(SineWaveControls, ChannelsPairEachPdActuatorWithItsVelocityActuator) {
  const auto scene = ArmScene();
  const std::vector<SineWaveChannel> channels = SineWaveChannelsOf(*scene);
  ASSERT_EQ(channels.size(), 2u);
  EXPECT_EQ(channels[0].position_actuator, 0);
  EXPECT_EQ(channels[0].velocity_actuator, -1);
  EXPECT_EQ(channels[1].position_actuator, 2);
  EXPECT_EQ(channels[1].velocity_actuator, 3);
}

TEST(SineWaveControls, ControlsFollowTheSinesAndTheirDerivative) {
  const auto scene = ArmScene();
  const SineWaveControls c(scene->nu(), 0.01, 50, SineWaveChannelsOf(*scene), 2);
  ASSERT_EQ(c.num_parameters(), 12);
  const VecX theta = RandomTheta(c.num_parameters(), 1);
  const VecX u = c.Controls(theta);
  ASSERT_EQ(u.size(), 50 * 4);
  const int t = 37;
  const double time = t * 0.01;
  auto sines = [&](int channel, bool derivative) {
    double sum = 0.0;
    for (int k = 0; k < 2; ++k) {
      const double* p = theta.data() + 3 * (2 * channel + k);
      sum += derivative ? p[0] * p[1] * std::cos(p[1] * time + p[2]) : p[0] * std::sin(p[1] * time + p[2]);
    }
    return sum;
  };
  EXPECT_DOUBLE_EQ(u[t * 4 + 0], sines(0, false));
  EXPECT_EQ(u[t * 4 + 1], 0.0);  // the torque actuator: no channel
  EXPECT_DOUBLE_EQ(u[t * 4 + 2], sines(1, false));
  EXPECT_DOUBLE_EQ(u[t * 4 + 3], sines(1, true));
}

TEST(SineWaveControls, PullbackIsTheTransposedJacobian) {
  const auto scene = ArmScene();
  const SineWaveControls c(scene->nu(), 0.02, 30, SineWaveChannelsOf(*scene), 3);
  const VecX theta = RandomTheta(c.num_parameters(), 2);
  Rng rng(9);
  VecX w(c.num_controls());
  for (int i = 0; i < w.size(); ++i) w[i] = Uniform(rng, -1.0, 1.0);
  const LocalFunction f = [&](const VecX& d) { return VecX::Constant(1, w.dot(c.Controls(theta + d))); };
  FdOptions fd;
  fd.step = 1e-6;
  const VecX reference = FiniteDifferenceJacobian(f, c.num_parameters(), fd).jacobian.row(0).transpose();
  EXPECT_LT(CorrectedRelativeError(c.Pullback(theta, w), reference), 1e-7);
}

TEST(SineWaveControls, RejectsBadChannelsAndSizes) {
  EXPECT_THROW(SineWaveControls(2, 0.01, 10, {{2, -1}}, 1), InvalidArgument);   // out of range
  EXPECT_THROW(SineWaveControls(2, 0.01, 10, {{0, 1}, {1, -1}}, 1), InvalidArgument);  // actuator 1 twice
  EXPECT_THROW(SineWaveControls(2, 0.0, 10, {{0, -1}}, 1), InvalidArgument);
  EXPECT_THROW(SineWaveControls(2, 0.01, 10, {{0, -1}}, 0), InvalidArgument);
  const SineWaveControls c(2, 0.01, 10, {{0, 1}}, 2);
  EXPECT_THROW(c.Controls(VecX::Zero(5)), InvalidArgument);
  EXPECT_THROW(c.Pullback(VecX::Zero(6), VecX::Zero(19)), InvalidArgument);
}

// The controller objective's gradient (backward pass through Simulator::Vjp, then the pullback)
// against central differences of the rolled-out loss in theta.
class ControllerGradient : public ::testing::TestWithParam<const char*> {};

TEST_P(ControllerGradient, MatchesDifferencesOfTheRolloutLoss) {
  const auto scene = ArmScene();
  const int steps = 40;
  auto sim = MakeSimulator(GetParam(), scene, {{"timestep", "0.01"}});
  auto loss = std::make_shared<TerminalStateLoss>();
  loss->q_target = Vec2(0.3, -0.2);
  loss->q_weight = Vec2(1.0, 2.0);
  loss->v_weight = Vec2(0.5, 0.5);
  State start = DefaultState(*scene);
  start.q << 0.2, -0.1;
  ShootingObjective rollout(*sim, start, steps, loss);
  ControllerObjective objective(rollout, SineWaveControls(scene->nu(), 0.01, steps, SineWaveChannelsOf(*scene), 2));
  ASSERT_EQ(objective.dimension(), 12);
  const VecX theta = RandomTheta(objective.dimension(), 4);
  VecX gradient;
  ASSERT_TRUE(std::isfinite(objective.Evaluate(theta, &gradient)));
  const LocalFunction f = [&](const VecX& d) { return VecX::Constant(1, objective.Evaluate(theta + d, nullptr)); };
  FdOptions fd;
  fd.step = 1e-6;
  const VecX reference = FiniteDifferenceJacobian(f, objective.dimension(), fd).jacobian.row(0).transpose();
  EXPECT_LT(CorrectedRelativeError(gradient, reference), 1e-5) << gradient.transpose() << "\n" << reference.transpose();
  // theta is unbounded (the actuators' ranges bound the controls, not the sines' parameters).
  ASSERT_EQ(objective.lower().size(), objective.dimension());
  EXPECT_TRUE(objective.lower().array().isInf().all() && (objective.lower().array() < 0).all());
}

INSTANTIATE_TEST_SUITE_P(Models, ControllerGradient, ::testing::Values("penalty", "sdrs"));

// An inner objective over [u; p] (p: two variables after the controls, as a co-design's
// design parameters): f = sum_i c_i y_i^2 / 2 + b . y, bounded in p.
class QuadraticObjective final : public Objective {
 public:
  explicit QuadraticObjective(int n) : c_(VecX::LinSpaced(n, 1.0, 2.0)), b_(VecX::LinSpaced(n, -1.0, 1.0)) {}
  int dimension() const override { return static_cast<int>(c_.size()); }
  double Evaluate(const VecX& y, VecX* gradient) override {
    ++evaluations_;
    if (gradient != nullptr) *gradient = c_.cwiseProduct(y) + b_;
    return 0.5 * y.dot(c_.cwiseProduct(y)) + b_.dot(y);
  }
  VecX lower() const override { return VecX::Constant(dimension(), -3.0); }
  VecX upper() const override { return VecX::Constant(dimension(), 3.0); }
  std::int64_t evaluations() const override { return evaluations_; }
  std::int64_t gradient_evaluations() const override { return evaluations_; }

 private:
  VecX c_, b_;
  std::int64_t evaluations_ = 0;
};

TEST(ControllerObjective, PassesTheVariablesAfterTheControlsThrough) {
  const SineWaveControls controller(3, 0.05, 8, {{0, 2}}, 2);  // actuator 1 not driven
  QuadraticObjective inner(controller.num_controls() + 2);
  ControllerObjective objective(inner, controller);
  ASSERT_EQ(objective.dimension(), 6 + 2);
  VecX x = RandomTheta(8, 6);
  x.tail(2) << 0.4, -0.7;
  const VecX y = objective.InnerVariables(x);
  EXPECT_EQ(y.head(controller.num_controls()), controller.Controls(x.head(6)));
  EXPECT_EQ(y.tail(2), x.tail(2));
  VecX gradient;
  objective.Evaluate(x, &gradient);
  const LocalFunction f = [&](const VecX& d) { return VecX::Constant(1, objective.Evaluate(x + d, nullptr)); };
  FdOptions fd;
  fd.step = 1e-6;
  const VecX reference = FiniteDifferenceJacobian(f, objective.dimension(), fd).jacobian.row(0).transpose();
  EXPECT_LT(CorrectedRelativeError(gradient, reference), 1e-7);
  // The design variables keep the inner bounds; theta is unbounded.
  EXPECT_EQ(objective.lower().tail(2), VecX::Constant(2, -3.0));
  EXPECT_TRUE(objective.upper().head(6).array().isInf().all());
  EXPECT_EQ(objective.evaluations(), inner.evaluations());
}

TEST(ControllerObjective, RejectsAnInnerObjectiveWithTooFewControls) {
  const auto scene = ArmScene();
  auto sim = MakeSimulator("penalty", scene, {{"timestep", "0.01"}});
  ShootingObjective rollout(*sim, DefaultState(*scene), 10, std::make_shared<TerminalStateLoss>());
  EXPECT_THROW(ControllerObjective(rollout, SineWaveControls(scene->nu(), 0.01, 20, SineWaveChannelsOf(*scene), 1)),
               InvalidArgument);
}

}  // namespace sine_wave_controls_test
}  // namespace arena
