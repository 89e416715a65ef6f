// nimble's bounce approximation (Sec. VI, App. E), its restitution in the step and in the
// velocity Jacobians, its link-mass derivatives, and complementarity-aware backpropagation
// (Sec. IV-D) with the exact numbers of the saddle-point unit tests in Nimble's released code.
#include <gtest/gtest.h>

#include <cmath>

#include "core/common/error.h"
#include "models/counting_simulator.h"
#include "models/finite_difference_derivatives.h"
#include "models/nimble/nimble.h"
#include "scenes/nimble_robots.h"
#include "solvers/finite_difference.h"
#include "tests/models/nimble/nimble_test_scenes.h"

namespace arena {
namespace nimble_bounce_backprop_test {

using nimble_test::BoxOnGround;
using nimble_test::MakeNimble;

constexpr double kDt = 0.001;

// A 1-DOF ball falling onto the floor at 1 m/s, 1e-4 m inside it.
State Falling(const Scene& scene, double speed) {
  State s = DefaultState(scene);
  s.v[0] = -speed;
  return s;
}

StepDerivatives Ridders(Simulator& sim, const State& s, int* changes) {
  CountingSimulator counting(sim);
  State probe = s;
  const StepReport nominal = sim.Step(probe, {});
  counting.Reset(nominal.contacts, nominal.contact_mode);
  FdOptions ridders;
  ridders.method = FdMethod::kRidders;
  ridders.ridders_step = 1e-5;
  StepDerivatives d = FiniteDifferenceStepDerivatives(counting, s, {}, ridders);
  *changes = static_cast<int>(counting.contact_changes());
  return d;
}

// Restitution 1: the ball leaves at the speed v* it arrived with (DART's bounce target).
TEST(NimbleBounce, BallLeavesWithItsArrivalSpeed) {
  auto scene = PrismaticBallScene({.radius = 0.5, .mass = 1.0, .restitution = 1.0});
  auto sim = MakeNimble(scene);
  State s = Falling(*scene, 1.0);
  sim->Step(s, {});
  EXPECT_NEAR(s.v[0], 1.0 + 9.81 * kDt, 1e-12);
}

// The check: with the bounce approximation, dq+/dq = -1 (and dq+/dv = -dt) at the bounce
// step of a ball with restitution 1 (continuous time: p+ - p_wall = -(p - p_wall)); without
// it, the discrete step's own +1 (positions move with the pre-step velocity).
TEST(NimbleBounce, ApproximationGivesMinusOneAtTheBounce) {
  auto scene = PrismaticBallScene({.radius = 0.5, .mass = 1.0, .restitution = 1.0});
  const State s = Falling(*scene, 1.0);
  StepDerivatives with, without;
  MakeNimble(scene)->Derivatives(s, {}, &with);
  MakeNimble(scene, {{"bounce_approximation", "false"}})->Derivatives(s, {}, &without);
  EXPECT_NEAR(with.dq_dq(0, 0), -1.0, 1e-12);
  EXPECT_NEAR(with.dq_dv(0, 0), -kDt, 1e-15);
  EXPECT_NEAR(without.dq_dq(0, 0), 1.0, 1e-12);
  EXPECT_NEAR(without.dq_dv(0, 0), kDt, 1e-15);
  // The velocity Jacobians are the step's own either way: v+ = -e v*, dv+/dv = -1.
  EXPECT_NEAR(with.dv_dv(0, 0), -1.0, 1e-9);
  EXPECT_NEAR(with.dv_du(0, 0), -kDt, 1e-9);  // a force during the step raises v*, lowering v+
  // Slower than DART's 0.1 m/s threshold: no bounce, the contact simply clamps.
  StepDerivatives slow;
  MakeNimble(scene)->Derivatives(Falling(*scene, 0.05), {}, &slow);
  EXPECT_NEAR(slow.dq_dq(0, 0), 1.0, 1e-12);
  EXPECT_NEAR(slow.dv_dv(0, 0), 0.0, 1e-9);
}

// Partial restitution on a free box landing tilted on one corner (a bounce through an
// articulated-like 6-DOF map): the velocity Jacobians (which the restitution target moves)
// and the mass derivative against Ridders, with the approximation off (it is not the step's
// derivative by design).
TEST(NimbleBounce, VelocityJacobiansOfABounceMatchRidders) {
  SceneBuilder b("tilted_box");
  b.SetGravity(Vec3(0.0, -9.81, 0.0));
  const Vec3 h(0.2, 0.1, 0.15);
  const Mat3 R = (Eigen::AngleAxisd(0.3, Vec3::UnitZ()) * Eigen::AngleAxisd(0.2, Vec3::UnitX())).toRotationMatrix();
  // Lowest corner 1e-4 below y = 0.
  double lowest = 0.0;
  for (int k = 0; k < 8; ++k) {
    const Vec3 c((k & 1 ? 1 : -1) * h.x(), (k & 2 ? 1 : -1) * h.y(), (k & 4 ? 1 : -1) * h.z());
    lowest = std::min(lowest, (R * c).y());
  }
  SE3 X(R, Vec3(0.0, -lowest - 1e-4, 0.0));
  const int box = b.AddFreeBody("box", SpatialInertia::SolidBox(2.0, h), X);
  b.AddCollider(box, Box{h}, SE3(), "box").restitution = 0.5;
  b.AddCollider(kWorldBody, Box{Vec3(10.0, 0.05, 10.0)}, SE3::FromTranslation(Vec3(0, -0.05, 0)), "ground")
      .friction = 0.0;
  auto scene = b.Build();
  auto sim = MakeNimble(scene, {{"bounce_approximation", "false"}});
  State s = DefaultState(*scene);
  s.v << 0.3, -0.2, 0.1, 0.2, -1.5, 0.1;  // angular (body), linear (world): falling at 1.5 m/s
  StepDerivatives analytic;
  sim->Derivatives(s, {}, &analytic);
  int changes = 0;
  const StepDerivatives reference = Ridders(*sim, s, &changes);
  ASSERT_EQ(changes, 0);
  const NimbleSimulator& nimble = static_cast<NimbleSimulator&>(*sim);
  ASSERT_EQ(nimble.last_lcp_solution().active_set.Indices(LcpRowClass::kClamping).size(), 1u);
  EXPECT_LT(MaxStepDerivativeError(analytic, reference), 1e-6);
  ASSERT_EQ(analytic.dv_dp.cols(), 1);
}

// Link masses: present (one per body with mass), non-trivial in contact, validated.
TEST(NimbleMassDerivatives, OnePerMassiveBodyAndValidated) {
  auto scene = BoxOnGround(0.3);
  auto sim = MakeNimble(scene);
  ASSERT_EQ(sim->DesignParameterNames(), std::vector<std::string>{"mass:box"});
  EXPECT_DOUBLE_EQ(sim->DesignParameters()[0], 2.0);
  State s = DefaultState(*scene);
  s.v[3] = 1.0;  // sliding: friction impulses scale with the weight, the deceleration does not
  StepDerivatives d;
  sim->Derivatives(s, {}, &d);
  ASSERT_EQ(d.dv_dp.rows(), 6);
  ASSERT_EQ(d.dv_dp.cols(), 1);
  EXPECT_LT(d.dv_dp.cwiseAbs().maxCoeff(), 1e-9);  // mu g dt deceleration: mass-free
  // Free fall with a force: dv+/dm = -dt F / m^2 for the pushed direction.
  auto ball = PrismaticBallScene({.radius = 0.3, .mass = 0.1});
  auto flying = MakeNimble(ball);
  State high = DefaultState(*ball);
  high.q[0] = 3.0;
  Control u{VecX::Constant(1, 2.0)};
  flying->Derivatives(high, u, &d);
  EXPECT_NEAR(d.dv_dp(0, 0), -kDt * 2.0 / (0.1 * 0.1), 1e-9);
  EXPECT_THROW(sim->SetDesignParameters(VecX::Constant(1, -1.0)), InvalidArgument);
  EXPECT_THROW(sim->SetDesignParameters(VecX::Constant(2, 1.0)), InvalidArgument);
  EXPECT_TRUE(MakeNimble(scene, {{"design_derivatives", "false"}})->DesignParameterNames().empty());
}

// The "ball on fixed ground" saddle-point test of Nimble's released code: a 1 kg ball 1e-4 into
// the floor, moving into it at 1e-4 m/s, gravity along -z (across its joint): the contact clamps.
class SaddlePoint : public ::testing::Test {
 protected:
  std::shared_ptr<const Scene> scene_ =
      PrismaticBallScene({.radius = 0.5, .mass = 1.0, .gravity = Vec3(0.0, 0.0, -9.81)});
  State start_ = Falling(*scene_, 1e-4);
  Control u_{VecX::Zero(1)};
};

TEST_F(SaddlePoint, StandardGradientIsStuck) {
  auto sim = MakeNimble(scene_);
  auto& nimble = static_cast<NimbleSimulator&>(*sim);
  VecX lq, lv, lu;
  EXPECT_FALSE(nimble.Backprop(start_, u_, VecX::Constant(1, -0.1), VecX::Zero(1), &lq, &lv, &lu));
  EXPECT_NEAR(lq[0], -0.1, 1e-12);
  EXPECT_NEAR(lv[0], -0.1 * kDt, 1e-12);
  EXPECT_NEAR(lu[0], 0.0, 1e-12);
  // A second step back: the same (the clamped contact swallows the force).
  VecX lq2, lv2, lu2;
  EXPECT_FALSE(nimble.Backprop(start_, u_, lq, lv, &lq2, &lv2, &lu2));
  EXPECT_NEAR(lq2[0], -0.1, 1e-12);
  EXPECT_NEAR(lv2[0], -0.1 * kDt, 1e-12);
  EXPECT_NEAR(lu2[0], 0.0, 1e-12);
}

TEST_F(SaddlePoint, ComplementarityAwareGradientEscapes) {
  auto sim = MakeNimble(scene_, {{"complementarity_aware", "true"}});
  auto& nimble = static_cast<NimbleSimulator&>(*sim);
  VecX lq, lv, lu;
  // The loss at the last step cares about position only: g = 0 counts as clamping, no change.
  EXPECT_FALSE(nimble.Backprop(start_, u_, VecX::Constant(1, -0.1), VecX::Zero(1), &lq, &lv, &lu));
  EXPECT_NEAR(lv[0], -0.1 * kDt, 1e-12);
  // One step further back it wants the ball to move up (g < 0): released.
  VecX lq2, lv2, lu2;
  EXPECT_TRUE(nimble.Backprop(start_, u_, lq, lv, &lq2, &lv2, &lu2));
  EXPECT_NEAR(lq2[0], -0.1, 1e-12);
  EXPECT_NEAR(lv2[0], -0.2 * kDt, 1e-12);
  EXPECT_NEAR(lu2[0], -0.1 * kDt * kDt, 1e-15);
}

TEST_F(SaddlePoint, BackpropRejectsWrongSizes) {
  auto sim = MakeNimble(scene_);
  VecX lq, lv, lu;
  EXPECT_THROW(static_cast<NimbleSimulator&>(*sim).Backprop(start_, u_, VecX::Zero(2), VecX::Zero(1), &lq, &lv, &lu),
               InvalidArgument);
}

}  // namespace nimble_bounce_backprop_test
}  // namespace arena
