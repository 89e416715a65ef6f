// One scm step (seed 001) beside MuJoCo's on the same scene, and its derivatives: the box_drop
// cube in contact with the ground (0.5 m cube, 5 cm patches: 600 points against the ground's
// plane) and the force_profile probe 1 cm deep in the fixed sphere (1 cm patches: 384 points
// against 1536 patches and back), with and without skipping the softmax terms below e^-36.
// And the T-push scene of seed 001 Fig. 7 (the finger touching the stem's foot) with 28 and 4224
// patches on the T, Euler and RK4; the targets there are 0.3 ms (Euler) and 1.2 ms
// (RK4) at 4k points, and 4k / 26 points <= 5.
// Counter `vs_mujoco`: scm's seconds a step over MuJoCo's on the same scene, in the same run.
#include <benchmark/benchmark.h>

#include "bench/bench_support.h"
#include "models/registry.h"
#include "scenes/box_drop_scenes.h"
#include "scenes/force_profile_scenes.h"
#include "scenes/tpush_scenes.h"

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

// The finger 0.5 mm into the stem's foot, the T at rest at the origin.
State TPushTouching(const Scene& scene) {
  State s = DefaultState(scene);
  s.q[4] = TPushStemCentre().y() - 0.5 * kTPushStemLength - kTPushFingerRadius + 5e-4;
  return s;
}

void BM_ScmTPushStep(benchmark::State& state, const char* integrator, const char* patch_size, const char* threads = "1",
                     const char* skip_out_of_reach = "true") {
  auto scene = TPushScene();
  auto sim = MakeSimulator("scm", scene, {{"integrator", integrator}, {"patch_size", patch_size}, {"stiffness", "1e3"},
                                          {"threads", threads}, {"skip_out_of_reach", skip_out_of_reach}});
  const State start = TPushTouching(*scene);
  TimeStepsFrom(state, *sim, start);
  auto mujoco = MakeSimulator("mujoco", scene, {{"timestep", "0.002"}, {"integrator", integrator}});
  Report(state, SecondsPerStep(*mujoco, start));
}
BENCHMARK_CAPTURE(BM_ScmTPushStep, euler_28, "euler", "0.08")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ScmTPushStep, euler_4k, "euler", "0.0048")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ScmTPushStep, rk4_28, "rk4", "0.08")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ScmTPushStep, rk4_4k, "rk4", "0.0048")->Unit(benchmark::kMicrosecond);
// The option threads=2 (TBB over the points; the numbers do not change).
BENCHMARK_CAPTURE(BM_ScmTPushStep, euler_4k_2threads, "euler", "0.0048", "2")->Unit(benchmark::kMicrosecond);
// skip_out_of_reach=false: the bar's pair (the finger 15 cm from it) computed as well.
BENCHMARK_CAPTURE(BM_ScmTPushStep, euler_4k_far_pairs, "euler", "0.0048", "1", "false")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ScmTPushStep, rk4_4k_far_pairs, "rk4", "0.0048", "1", "false")->Unit(benchmark::kMicrosecond);

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
