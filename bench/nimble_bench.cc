// One `nimble` step (velocity-level LCP, Nimble's warm start and stabilization) on Nimble's
// Atlas pose (24 sole contacts, dt = 0.001) and on Half Cheetah settled on its floor, each from
// the same state every iteration. The warm start persists across iterations, so after the
// first one each step is a hit: the time of a step whose LCP is one active-set solve. The
// cold variant turns the warm start off (Dantzig every step).
#include <benchmark/benchmark.h>

#include <string>

#include "bench/bench_support.h"
#include "experiments/nimble_scenes.h"
#include "models/registry.h"

namespace arena {
namespace {

void BM_NimbleAtlasStep(benchmark::State& state, const std::string& warm_start) {
  auto scene = AtlasStandingScene();
  auto sim = MakeSimulator("nimble", scene, {{"timestep", "0.001"}, {"warm_start", warm_start}});
  TimeStepsFrom(state, *sim, DefaultState(*scene));
}
BENCHMARK_CAPTURE(BM_NimbleAtlasStep, warm, std::string("true"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_NimbleAtlasStep, cold, std::string("false"))->Unit(benchmark::kMicrosecond);

void BM_NimbleHalfCheetahStep(benchmark::State& state) {
  auto scene = HalfCheetahScene();
  auto sim = MakeSimulator("nimble", scene, {{"timestep", "0.001"}});
  State s = DefaultState(*scene);
  for (int i = 0; i < 1000; ++i) sim->Step(s, {});
  TimeStepsFrom(state, *sim, s);
}
BENCHMARK(BM_NimbleHalfCheetahStep)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace arena
