// One penalty step (and its derivatives) on the box_drop scenes, in contact.
#include <benchmark/benchmark.h>

#include "bench/bench_support.h"
#include "models/registry.h"
#include "scenes/box_drop_scenes.h"

namespace arena {
namespace penalty_bench {

void BM_PenaltyStep(benchmark::State& state, const std::string& variant) {
  auto scene = BoxDropScene(variant);
  auto sim = MakeSimulator("penalty", scene, {{"timestep", "0.001"}});
  TimeStepsFrom(state, *sim, Touching(*sim, BoxDropInitialState(variant, 7)));
}
BENCHMARK_CAPTURE(BM_PenaltyStep, planar, std::string("planar"));
BENCHMARK_CAPTURE(BM_PenaltyStep, spatial, std::string("spatial"));

void BM_PenaltyDerivatives(benchmark::State& state, const std::string& variant) {
  auto scene = BoxDropScene(variant);
  auto sim = MakeSimulator("penalty", scene, {{"timestep", "0.001"}});
  const State s = Touching(*sim, BoxDropInitialState(variant, 7));
  StepDerivatives d;
  for (auto _ : state) {
    sim->Derivatives(s, {}, &d);
    benchmark::DoNotOptimize(d.dv_dq.data());
  }
}
BENCHMARK_CAPTURE(BM_PenaltyDerivatives, planar, std::string("planar"));
BENCHMARK_CAPTURE(BM_PenaltyDerivatives, spatial, std::string("spatial"));

}  // namespace penalty_bench
}  // namespace arena
