// The checks Simulator::Step does for every model (models/simulator.cc): here, the case's
// wall-clock budget (core/common/deadline.h). The rest is the conformance suite's.
#include "models/simulator.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "core/common/deadline.h"
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

}  // namespace simulator_test
}  // namespace arena
