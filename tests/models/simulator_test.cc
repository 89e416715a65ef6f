// The checks Simulator::Step does for every model (models/simulator.cc): here, the case's
// wall-clock budget (core/common/deadline.h). The rest is the conformance suite's.
#include "models/simulator.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "core/common/deadline.h"
#include "core/common/error.h"
#include "models/registry.h"
#include "scenes/scene_registry.h"

namespace arena {
namespace simulator_test {

// Once the deadline has passed, every registered model's step is refused with the deadline's
// message, and the state is kept.
TEST(Simulator, PassedDeadlineRefusesTheStepAndKeepsTheState) {
  const std::shared_ptr<const Scene> scene = MakeScene("box");
  for (const ModelInfo& m : Models()) {
    if (!CheckSupport(m.capabilities, *scene).empty()) continue;
    std::unique_ptr<Simulator> sim = MakeSimulator(m.name, scene, {});
    State state = DefaultState(*scene);
    ASSERT_NE(sim->Step(state, {}).status, StepStatus::kError) << m.name;
    const State before = state;
    const ScopedDeadline deadline(1e-9, "the case's wall-clock budget");
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const StepReport report = sim->Step(state, {});
    EXPECT_EQ(report.status, StepStatus::kError) << m.name;
    EXPECT_EQ(report.message, "the case's wall-clock budget of 1e-09 s ran out") << m.name;
    EXPECT_EQ(state.q, before.q) << m.name;
    EXPECT_EQ(state.v, before.v) << m.name;
    EXPECT_EQ(state.t, before.t) << m.name;
  }
}

// And its derivatives and backward pass, which return no report, throw the deadline's message.
TEST(Simulator, PassedDeadlineRefusesDerivativesAndVjp) {
  const std::shared_ptr<const Scene> scene = MakeScene("box");
  std::unique_ptr<Simulator> sim = MakeSimulator("penalty", scene, {});
  const State state = DefaultState(*scene);
  StepDerivatives d;
  ASSERT_NO_THROW(sim->Derivatives(state, {}, &d));
  const ScopedDeadline deadline(1e-9, "the case's wall-clock budget");
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const VecX zero = VecX::Zero(scene->nv());
  StepGradient g;
  for (int call = 0; call < 2; ++call) {
    try {
      if (call == 0) sim->Derivatives(state, {}, &d);
      else sim->Vjp(state, {}, zero, zero, &g);
      ADD_FAILURE() << "call " << call << " ran past the deadline";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()), "penalty: past the deadline: the case's wall-clock budget of 1e-09 s ran out");
    }
  }
}

// SumPairForces (Simulator::ContactForces): one entry per pair of bodies in the order of its
// first point, a pair met the other way round added with its sign flipped, friction left out.
TEST(SumPairForces, SumsEachPairOnceWithoutFriction) {
  std::vector<ContactPoint> points(4);
  points[0].body_a = 0, points[0].body_b = kWorldBody, points[0].force_on_a = Vec3(1, 2, 10);
  points[0].friction_on_a = Vec3(1, 2, 0);
  points[1].body_a = 1, points[1].body_b = 0, points[1].force_on_a = Vec3(0, 0, 4);
  points[2].body_a = kWorldBody, points[2].body_b = 0, points[2].force_on_a = Vec3(0, 0, -3);  // on the world
  points[3].body_a = 0, points[3].body_b = 1, points[3].force_on_a = Vec3(0, 0, -1);
  const std::vector<BodyPairForce> f = SumPairForces(points);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].body_a, 0);
  EXPECT_EQ(f[0].body_b, kWorldBody);
  EXPECT_EQ(f[0].force_on_a, Vec3(0, 0, 13));
  EXPECT_EQ(f[1].body_a, 1);
  EXPECT_EQ(f[1].body_b, 0);
  EXPECT_EQ(f[1].force_on_a, Vec3(0, 0, 5));
  EXPECT_TRUE(SumPairForces({}).empty());
}

}  // namespace simulator_test
}  // namespace arena
