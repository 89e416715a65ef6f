// The three simulators with their own contact laws (penalty, mujoco, dart) on the same scenes:
// a resting box and a thrown cube come to rest at heights within 2 mm of each other, a free
// body that does not spin follows one trajectory to 1e-6 over 100 steps, and the engines'
// finite-difference derivatives of a contact-free pendulum agree. The per-engine tests
// (mujoco_test.cc, dart_test.cc) explain where and why the engines differ otherwise.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "models/finite_difference_derivatives.h"
#include "models/registry.h"
#include "scenes/scene_registry.h"
#include "tests/models/engines/engine_test_support.h"

namespace arena {
namespace cross_engine_test {

using namespace engine_test;

// Each model at a timestep its contact handles: penalty stiff and small-stepped (explicit
// damping), the engines at their defaults (MuJoCo 2 ms, DART 1 ms).
std::vector<std::unique_ptr<Simulator>> ThreeModels(std::shared_ptr<const Scene> scene) {
  std::vector<std::unique_ptr<Simulator>> sims;
  sims.push_back(MakeStiffPenalty(scene, 0.00025));
  sims.push_back(MakeSimulator("mujoco", scene, {}));
  sims.push_back(MakeSimulator("dart", scene, {}));
  return sims;
}

// Largest minus smallest final height over the three models after `seconds` from `start`.
double HeightSpread(std::shared_ptr<const Scene> scene, const State& start, double seconds) {
  double lo = 1e300, hi = -1e300;
  for (auto& sim : ThreeModels(scene)) {
    const State end = Simulate(*sim, start, seconds);
    EXPECT_LT(end.v.norm(), 1e-2) << sim->name() << " is still moving";
    lo = std::min(lo, end.q[2]);
    hi = std::max(hi, end.q[2]);
  }
  return hi - lo;
}

TEST(CrossEngine, RestingBoxRestsAtOneHeight) {
  auto scene = RestingBoxScene();
  EXPECT_LT(HeightSpread(scene, DefaultState(*scene), 2.0), 2e-3);
}

TEST(CrossEngine, ThrownCubeRestsAtOneHeight) {
  auto scene = MakeScene("box");
  const State start = Throw(*scene, 1.0, Vec3(0.4, -0.9, 0.3), Vec3(0.5, -0.3, -1.0), Vec3(0.8, -0.2, 0.6));
  EXPECT_LT(HeightSpread(scene, start, 3.0), 2e-3);
}

// Without spin all three are semi-implicit Euler on the same coordinates (the spinning case
// differs at first order in dt: see the per-engine tests).
TEST(CrossEngine, FreeFlightWithoutSpinIsOneTrajectory) {
  auto scene = FlyingBody(Vec3(0, 0, -9.81));
  State s = DefaultState(*scene);
  s.q.head<3>() << 0.1, -0.2, 2.0;
  s.v << 0.0, 0.0, 0.0, 1.0, -0.5, 2.0;
  const OptionMap dt = {{"timestep", "0.001"}};
  auto penalty = MakeSimulator("penalty", scene, dt);
  auto mujoco = MakeSimulator("mujoco", scene, dt);
  auto dart = MakeSimulator("dart", scene, dt);
  EXPECT_LT(MaxDeviation(*penalty, *mujoco, s, 100), 1e-6);
  EXPECT_LT(MaxDeviation(*penalty, *dart, s, 100), 1e-6);
}

// The same contact-free pendulum step differentiated by central differences in both engines:
// both step semi-implicit Euler, so the Jacobians agree to the differences' error (absolute
// floor 1: dq/du is dt^2-sized).
TEST(CrossEngine, PendulumDerivativesAgree) {
  auto scene = DoublePendulum(0.0);
  State s = DefaultState(*scene);
  s.q << 0.3, -0.7;
  s.v << 0.5, -1.2;
  const Control u{Vec2(0.7, -0.4)};
  const OptionMap o = {{"timestep", "0.001"}};
  StepDerivatives dm, dd;
  MakeSimulator("mujoco", scene, o)->Derivatives(s, u, &dm);
  MakeSimulator("dart", scene, o)->Derivatives(s, u, &dd);
  EXPECT_LT(MaxStepDerivativeError(dm, dd, 1.0), 1e-6);
}

}  // namespace cross_engine_test
}  // namespace arena
