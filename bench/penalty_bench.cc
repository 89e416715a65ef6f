// One penalty step (and its derivatives) on the box_drop scenes, in contact.
#include <benchmark/benchmark.h>

#include "experiments/box_drop.h"
#include "models/registry.h"

namespace arena {
namespace {

// Drops the body until it touches the ground so the benchmarked steps have contacts.
State Touching(Simulator& sim, State s) {
  for (int i = 0; i < 2000; ++i) {
    if (sim.Step(s, {}).contacts > 0) break;
  }
  return s;
}

void BM_PenaltyStep(benchmark::State& state, const std::string& variant) {
  auto scene = BoxDropExperiment::MakeScene(variant);
  auto sim = MakeSimulator("penalty", scene, {{"timestep", "0.001"}});
  const State start = Touching(*sim, BoxDropExperiment::InitialState(variant, 7));
  State s = start;
  int contacts = 0;
  for (auto _ : state) {
    s = start;
    contacts = sim->Step(s, {}).contacts;
    benchmark::DoNotOptimize(s.q.data());
  }
  state.counters["contacts"] = contacts;
}
BENCHMARK_CAPTURE(BM_PenaltyStep, planar, std::string("planar"));
BENCHMARK_CAPTURE(BM_PenaltyStep, spatial, std::string("spatial"));

void BM_PenaltyDerivatives(benchmark::State& state, const std::string& variant) {
  auto scene = BoxDropExperiment::MakeScene(variant);
  auto sim = MakeSimulator("penalty", scene, {{"timestep", "0.001"}});
  const State s = Touching(*sim, BoxDropExperiment::InitialState(variant, 7));
  StepDerivatives d;
  for (auto _ : state) {
    sim->Derivatives(s, {}, &d);
    benchmark::DoNotOptimize(d.dv_dq.data());
  }
}
BENCHMARK_CAPTURE(BM_PenaltyDerivatives, planar, std::string("planar"));
BENCHMARK_CAPTURE(BM_PenaltyDerivatives, spatial, std::string("spatial"));

}  // namespace
}  // namespace arena
