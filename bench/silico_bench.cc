// One step of the seed-000 models (silico, bilevel) on the box_drop planar polygon resting on the floor at
// 100 Hz (rho 1e-4, cold start, the paper's Fig. 9 settings), and the silico IFT derivatives.
// The target: a planar silico step at most 50 us median on one core.
#include <benchmark/benchmark.h>

#include "bench/bench_support.h"
#include "models/registry.h"
#include "scenes/box_drop_scenes.h"
#include "scenes/scene_registry.h"

namespace arena {
namespace {

void BM_PlanarStep(benchmark::State& state, const std::string& model) {
  auto scene = MakeScene("polygon");
  auto sim = MakeSimulator(model, scene, {{"timestep", "0.01"}, {"rho", "1e-4"}});
  TimeStepsFrom(state, *sim, Touching(*sim, BoxDropInitialState("planar", 7)));
}
BENCHMARK_CAPTURE(BM_PlanarStep, silico, std::string("silico"));
// The paper's baseline on the same step (finite-difference outer Jacobian, Figs. 9-10).
BENCHMARK_CAPTURE(BM_PlanarStep, bilevel, std::string("bilevel"));

void BM_SilicoDerivatives(benchmark::State& state) {
  auto scene = MakeScene("polygon");
  auto sim = MakeSimulator("silico", scene, {{"timestep", "0.01"}, {"rho", "1e-4"}});
  const State s = Touching(*sim, BoxDropInitialState("planar", 7));
  StepDerivatives d;
  for (auto _ : state) {
    sim->Derivatives(s, {}, &d);
    benchmark::DoNotOptimize(d.dv_dq.data());
  }
}
BENCHMARK(BM_SilicoDerivatives);

// One spatial silico step: box_drop's 0.5 m cube resting flat on the ground (100 Hz, rho 1e-4,
// cold start), per friction cone.
void BM_SpatialBoxStep(benchmark::State& state, const std::string& cone) {
  auto scene = MakeScene("box");
  auto sim = MakeSimulator("silico", scene, {{"timestep", "0.01"}, {"rho", "1e-4"}, {"friction_cone", cone}});
  State start = DefaultState(*scene);
  start.q << 0.0, 0.0, 0.25, 1.0, 0.0, 0.0, 0.0;
  start.v.setZero();
  TimeStepsFrom(state, *sim, start);
}
BENCHMARK_CAPTURE(BM_SpatialBoxStep, pyramid, std::string("pyramid"));
BENCHMARK_CAPTURE(BM_SpatialBoxStep, soc, std::string("soc"));

}  // namespace
}  // namespace arena
