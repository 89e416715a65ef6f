// The receding-horizon driver (trajectory/receding_horizon.h): a forced slider reaches its
// target under MPC where doing nothing leaves it at rest, the applied controls stay within the
// actuator's range, and bad options are refused naming the option.
#include "trajectory/receding_horizon.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "core/common/error.h"
#include "core/scene/scene_builder.h"
#include "models/registry.h"

namespace arena {
namespace receding_horizon_test {

// A 1 kg body sliding along x, no gravity, pushed by a force in [-2, 2] N.
std::shared_ptr<const Scene> ForcedSlider() {
  SceneBuilder b("forced_slider");
  b.SetGravity(Vec3::Zero());
  JointModel slider;
  slider.type = JointType::kPrismatic;
  slider.name = "x";
  slider.axis = Vec3::UnitX();
  const int body = b.AddBody("block", kWorldBody, slider, SpatialInertia::SolidBox(1.0, Vec3::Constant(0.05)));
  Actuator push;
  push.name = "push";
  push.body = body;
  push.ctrl_lower = -2.0;
  push.ctrl_upper = 2.0;
  b.AddActuator(push);
  return b.Build();
}

// The slider at rest at x = 0.5 m.
std::shared_ptr<const TrajectoryLoss> SliderAtHalfAMetre() {
  auto loss = std::make_shared<TerminalStateLoss>();
  loss->q_target = VecX::Constant(1, 0.5);
  loss->q_weight = VecX::Constant(1, 1.0);
  loss->v_weight = VecX::Constant(1, 0.1);
  return loss;
}

TEST(RecedingHorizon, ForcedSliderReachesItsTarget) {
  auto scene = ForcedSlider();
  auto sim = MakeSimulator("penalty", scene, {{"timestep", "0.02"}});
  auto loss = SliderAtHalfAMetre();
  RecedingHorizonOptions options;
  options.steps = 60;
  options.window = 15;
  options.iterations = 20;
  options.adam.learning_rate = 0.3;
  int progress_calls = 0;
  const RecedingHorizonResult r =
      RunRecedingHorizon(*sim, DefaultState(*scene), loss, options, [&](int, const State&) {
        ++progress_calls;
        return true;
      });
  ASSERT_TRUE(r.ok()) << r.failure;
  ASSERT_EQ(r.states.size(), 61u);
  EXPECT_EQ(progress_calls, 60);
  EXPECT_EQ(r.window_losses.size(), 60u);
  EXPECT_NEAR(r.states.back().q[0], 0.5, 0.05);  // at rest it would stay at 0
  EXPECT_LT(std::abs(r.states.back().v[0]), 0.2);
  EXPECT_LE(r.controls.cwiseAbs().maxCoeff(), 2.0 + 1e-12);
  EXPECT_LT(r.window_losses.back(), 0.1 * r.window_losses.front());
}

TEST(RecedingHorizon, StopsWhenTheCallbackSaysSo) {
  auto scene = ForcedSlider();
  auto sim = MakeSimulator("penalty", scene, {});
  auto loss = SliderAtHalfAMetre();
  RecedingHorizonOptions options;
  options.steps = 20;
  options.window = 5;
  options.iterations = 2;
  const RecedingHorizonResult r =
      RunRecedingHorizon(*sim, DefaultState(*scene), loss, options, [](int step, const State&) { return step < 4; });
  ASSERT_TRUE(r.ok()) << r.failure;
  EXPECT_EQ(r.states.size(), 6u);  // x_0 and the 5 steps 0..4
  EXPECT_EQ(r.window_losses.size(), 5u);
}

// With the gradient bundle (seed 004's GB baseline) around each window, Adam follows the mean
// gradient of perturbed plans: on the smooth slider it still gets there.
TEST(RecedingHorizon, BundledWindowsReachTheTargetToo) {
  auto scene = ForcedSlider();
  auto sim = MakeSimulator("penalty", scene, {{"timestep", "0.02"}});
  RecedingHorizonOptions options;
  options.steps = 60;
  options.window = 15;
  options.iterations = 20;
  options.adam.learning_rate = 0.3;
  options.bundle = GradientBundleOptions{};
  options.bundle->samples = 4;
  options.bundle->sigma = 0.05;
  const RecedingHorizonResult r = RunRecedingHorizon(*sim, DefaultState(*scene), SliderAtHalfAMetre(), options);
  ASSERT_TRUE(r.ok()) << r.failure;
  EXPECT_NEAR(r.states.back().q[0], 0.5, 0.05);
  options.bundle->samples = 0;
  EXPECT_THROW(RunRecedingHorizon(*sim, DefaultState(*scene), SliderAtHalfAMetre(), options), InvalidArgument);
}

TEST(RecedingHorizon, BadOptionsAreRefused) {
  auto scene = ForcedSlider();
  auto sim = MakeSimulator("penalty", scene, {});
  auto loss = std::make_shared<TerminalStateLoss>();
  RecedingHorizonOptions options;
  options.steps = 10;
  options.window = 0;
  options.iterations = 5;
  try {
    RunRecedingHorizon(*sim, DefaultState(*scene), loss, options);
    ADD_FAILURE() << "window 0 accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("window must be >= 1"));
  }
}

}  // namespace receding_horizon_test
}  // namespace arena
