// What the step check (models/step_validity.h) costs: the same rollout of continuing steps with
// the check on and off, in one run (compare the pair's ratio, not the figures across runs). A
// resting box is the cheapest step, so its ratio is the check's largest share; Atlas standing in
// nimble is a robot's.
#include <benchmark/benchmark.h>

#include "bench/bench_support.h"
#include "models/registry.h"
#include "scenes/box_drop_scenes.h"
#include "scenes/scene_registry.h"

namespace arena {
namespace step_validity_bench {

// Continuing steps from `start`, back to it every 500 steps (a new trajectory for the check).
void TimeRollout(benchmark::State& state, Simulator& sim, const State& start) {
  State s = start;
  StepReport r;
  int k = 0;
  for (auto _ : state) {
    if (++k % 500 == 0) s = start;
    r = sim.Step(s, {});
    benchmark::DoNotOptimize(s.q.data());
  }
  state.counters["ok"] = r.ok() ? 1 : 0;
}

void BM_CheckedPenaltyBox(benchmark::State& state, bool check) {
  auto scene = BoxDropScene("spatial");
  auto sim = MakeSimulator("penalty", scene, {{"timestep", "0.001"}, {"check_steps", check ? "true" : "false"}});
  TimeRollout(state, *sim, Touching(*sim, BoxDropInitialState("spatial", 7)));
}
BENCHMARK_CAPTURE(BM_CheckedPenaltyBox, off, false);
BENCHMARK_CAPTURE(BM_CheckedPenaltyBox, on, true);

void BM_CheckedNimbleAtlas(benchmark::State& state, bool check) {
  auto scene = MakeScene("atlas");
  auto sim = MakeSimulator("nimble", scene, {{"check_steps", check ? "true" : "false"}});
  TimeRollout(state, *sim, DefaultState(*scene));
}
BENCHMARK_CAPTURE(BM_CheckedNimbleAtlas, off, false);
BENCHMARK_CAPTURE(BM_CheckedNimbleAtlas, on, true);

}  // namespace step_validity_bench
}  // namespace arena
