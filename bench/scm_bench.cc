// One scm step (seed 001) beside MuJoCo's on the same scene, and its derivatives: the box_drop
// cube in contact with the ground (0.5 m cube, 5 cm patches: 600 points against the ground's
// plane) and the force_profile probe 1 cm deep in the fixed sphere (1 cm patches: 384 points
// against 1536 patches and back), with and without skipping the softmax terms below e^-36.
// Counter `vs_mujoco`: scm's seconds a step over MuJoCo's on the same scene, in the same run.
#include <benchmark/benchmark.h>

#include "bench/bench_support.h"
#include "models/registry.h"
#include "scenes/box_drop_scenes.h"
#include "scenes/force_profile_scenes.h"

namespace arena {
namespace scm_bench {

// The probe at rest 1 cm into the fixed sphere, beside its centre.
State ProbeState(const Scene& scene) {
  State s = DefaultState(scene);
  s.q.head<3>() = Vec3(0.1, 0.102, 0.0);
  return s;
}

double MujocoSeconds(const std::shared_ptr<const Scene>& scene, const State& start) {
  auto sim = MakeSimulator("mujoco", scene, {{"timestep", "0.002"}});
  return SecondsPerStep(*sim, start);
}

void Report(benchmark::State& state, double mujoco_seconds) {
  state.counters["vs_mujoco"] =
      benchmark::Counter(mujoco_seconds, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_ScmBoxStep(benchmark::State& state) {
  auto scene = BoxDropScene("spatial");
  auto sim = MakeSimulator("scm", scene, {});
  const State start = Touching(*sim, BoxDropInitialState("spatial", 7));
  TimeStepsFrom(state, *sim, start);
  Report(state, MujocoSeconds(scene, start));
}
BENCHMARK(BM_ScmBoxStep)->Unit(benchmark::kMicrosecond);

void BM_ScmProbeStep(benchmark::State& state, bool skip) {
  auto scene = ForceProbeScene();
  auto sim = MakeSimulator("scm", scene, {{"patch_size", "0.01"}, {"skip_small_weights", skip ? "true" : "false"}});
  const State start = ProbeState(*scene);
  TimeStepsFrom(state, *sim, start);
  Report(state, MujocoSeconds(scene, start));
}
BENCHMARK_CAPTURE(BM_ScmProbeStep, skip, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ScmProbeStep, all_pairs, false)->Unit(benchmark::kMillisecond);

void BM_ScmBoxDerivatives(benchmark::State& state) {
  auto scene = BoxDropScene("spatial");
  auto sim = MakeSimulator("scm", scene, {});
  const State s = Touching(*sim, BoxDropInitialState("spatial", 7));
  StepDerivatives d;
  for (auto _ : state) {
    sim->Derivatives(s, {}, &d);
    benchmark::DoNotOptimize(d.dv_dq.data());
  }
}
BENCHMARK(BM_ScmBoxDerivatives)->Unit(benchmark::kMicrosecond);

}  // namespace scm_bench
}  // namespace arena
