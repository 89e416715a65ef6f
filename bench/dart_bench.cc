// The `dart` engine model (DART 6.12): one step of box_drop's spatial cube resting on the
// ground, one step of Nimble's Atlas standing on both soles (the scene atlas,
// dt = 0.001, Dantzig LCP, FCL on the STL meshes), and the finite-difference step Jacobians of
// that Atlas step: Nimble's baseline (Werling et al., RSS 2021, Tables II and III, "All" row).
//
// Counting: our Jacobians share their columns (2 nv + nu = 99 inputs: q, v and the 33 torques),
// so central differences take 2 * 99 + 1 = 199 steps; Nimble's benchmark computes its five
// Jacobians separately (PosPos, VelPos, PosVel, VelVel, ForceVel: 5 x 33 columns, 330 steps).
// The `steps` counter gives the steps actually taken per Jacobian evaluation (Ridders stops
// early when its tableau error grows); steps x (Atlas step time) converts to Nimble's count.
#include <benchmark/benchmark.h>

#include "bench/bench_support.h"
#include "models/counting_simulator.h"
#include "models/finite_difference_derivatives.h"
#include "models/registry.h"
#include "scenes/scene_registry.h"

namespace arena {
namespace dart_bench {

struct AtlasFixture {
  AtlasFixture() : scene(MakeScene("atlas")), start(DefaultState(*scene)) {}
  std::shared_ptr<const Scene> scene;
  State start;
};

const AtlasFixture& Atlas() {
  static const AtlasFixture fixture;
  return fixture;
}

void BM_DartBoxDropStep(benchmark::State& state) {
  auto scene = MakeScene("box");
  auto sim = MakeSimulator("dart", scene, {{"timestep", "0.001"}});
  State start = DefaultState(*scene);
  start.q << 0.0, 0.0, 0.25, 1.0, 0.0, 0.0, 0.0;
  start.v.setZero();
  TimeStepsFrom(state, *sim, start);
}
BENCHMARK(BM_DartBoxDropStep);

void BM_DartAtlasStep(benchmark::State& state) {
  const AtlasFixture& atlas = Atlas();
  auto sim = MakeSimulator("dart", atlas.scene, {{"timestep", "0.001"}});
  TimeStepsFrom(state, *sim, atlas.start);
  state.counters["nv"] = atlas.scene->nv();
}
BENCHMARK(BM_DartAtlasStep)->Unit(benchmark::kMillisecond);

// dart's finite-difference options as its registry entry gives their defaults, with `method`.
FdStepOptions DartFdOptions(const std::string& method) {
  OptionMap values;
  for (const OptionInfo& o : FindModel("dart").options()) {
    if (o.key.rfind("fd_", 0) == 0) values[o.key] = o.default_value;
  }
  values["fd_method"] = method;
  FdStepOptions fd;
  ApplyOptions(values, "dart", &fd);
  return fd;
}

// What dart's Derivatives() does (FiniteDifferenceStepDerivatives with the model's FdOptions),
// through the counter.
void BM_DartAtlasFdJacobians(benchmark::State& state, const std::string& method) {
  const AtlasFixture& atlas = Atlas();
  const FdStepOptions fd = DartFdOptions(method);
  auto sim = MakeSimulator("dart", atlas.scene, {{"timestep", "0.001"}, {"fd_method", method}});
  CountingSimulator counting(*sim);
  StepDerivatives d;
  for (auto _ : state) {
    d = FiniteDifferenceStepDerivatives(counting, atlas.start, {}, fd.Fd());
    benchmark::DoNotOptimize(d.dv_dq.data());
  }
  state.counters["inputs"] = 2 * atlas.scene->nv() + atlas.scene->nu();
  state.counters["steps"] = static_cast<double>(counting.steps()) / static_cast<double>(state.iterations());
  state.counters["finite"] = d.dv_dq.allFinite() && d.dq_dq.allFinite() ? 1 : 0;
}
BENCHMARK_CAPTURE(BM_DartAtlasFdJacobians, central, std::string("central"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_DartAtlasFdJacobians, ridders, std::string("ridders"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2);

}  // namespace dart_bench
}  // namespace arena
