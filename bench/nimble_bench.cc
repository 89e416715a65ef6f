// One `nimble` step (velocity-level LCP, Nimble's warm start and stabilization) on Nimble's
// Atlas pose (24 sole contacts, dt = 0.001) and on Half Cheetah settled on its floor, each from
// the same state every iteration. The warm start persists across iterations, so after the
// first one each step is a hit: the time of a step whose LCP is one active-set solve. The
// cold variant turns the warm start off (Dantzig every step). The Jacobian benchmarks time
// Derivatives() (all five Jacobians of a step, Nimble Table II's "analytical"; and with the
// link-mass derivatives) at the same
// states; the jacobians experiment compares them with finite differences in one run.
#include <benchmark/benchmark.h>

#include <string>

#include "bench/bench_support.h"
#include "models/registry.h"
#include "scenes/scene_registry.h"

namespace arena {
namespace nimble_bench {

// cold_retry: Dantzig retries its failed solve on A + eps I (dantzig_cycling_cfm) instead of
// handing it to the PGS fallback.
void BM_NimbleAtlasStep(benchmark::State& state, const std::string& warm_start, const std::string& cycling_cfm) {
  auto scene = MakeScene("atlas");
  auto sim = MakeSimulator("nimble", scene,
                           {{"timestep", "0.001"}, {"warm_start", warm_start}, {"dantzig_cycling_cfm", cycling_cfm}});
  TimeStepsFrom(state, *sim, DefaultState(*scene));
}
BENCHMARK_CAPTURE(BM_NimbleAtlasStep, warm, std::string("true"), std::string("0"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_NimbleAtlasStep, cold, std::string("false"), std::string("0"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_NimbleAtlasStep, cold_retry, std::string("false"), std::string("1e-10"))
    ->Unit(benchmark::kMicrosecond);

void BM_NimbleHalfCheetahStep(benchmark::State& state) {
  auto scene = MakeScene("half_cheetah");
  auto sim = MakeSimulator("nimble", scene, {{"timestep", "0.001"}});
  State s = DefaultState(*scene);
  for (int i = 0; i < 1000; ++i) sim->Step(s, {});
  TimeStepsFrom(state, *sim, s);
}
BENCHMARK(BM_NimbleHalfCheetahStep)->Unit(benchmark::kMicrosecond);

// Derivatives() after a Step from the same state reuse its snapshot (contacts, LCP solution),
// so this times the Jacobians alone, as Nimble's Table II does.
void TimeDerivatives(benchmark::State& state, Simulator& sim, const State& at) {
  State next = at;
  sim.Step(next, {});
  StepDerivatives d;
  for (auto _ : state) {
    sim.Derivatives(at, {}, &d);
    benchmark::DoNotOptimize(d.dv_dq.data());
  }
}

// `masses`: "false" times the five state Jacobians (Table II), "true" adds dv+/d(link masses).
void BM_NimbleAtlasJacobians(benchmark::State& state, const std::string& masses) {
  auto scene = MakeScene("atlas");
  auto sim = MakeSimulator("nimble", scene, {{"timestep", "0.001"}, {"design_derivatives", masses}});
  TimeDerivatives(state, *sim, DefaultState(*scene));
}
BENCHMARK_CAPTURE(BM_NimbleAtlasJacobians, five, std::string("false"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_NimbleAtlasJacobians, with_masses, std::string("true"))->Unit(benchmark::kMicrosecond);

// Simulator::Vjp of the same step (the backward pass of one step through any model): for nimble
// the transposed Jacobians of its active set (Backprop), including the link masses' gradient when
// design_derivatives is on. The contract asks it to cost no more than Derivatives().
void BM_NimbleAtlasVjp(benchmark::State& state, const std::string& masses) {
  auto scene = MakeScene("atlas");
  auto sim = MakeSimulator("nimble", scene, {{"timestep", "0.001"}, {"design_derivatives", masses}});
  const State at = DefaultState(*scene);
  State next = at;
  sim->Step(next, {});
  const VecX lq = VecX::LinSpaced(scene->nv(), -1.0, 1.0), lv = VecX::LinSpaced(scene->nv(), 1.0, -0.5);
  StepGradient g;
  for (auto _ : state) {
    sim->Vjp(at, {}, lq, lv, &g);
    benchmark::DoNotOptimize(g.u.data());
  }
}
BENCHMARK_CAPTURE(BM_NimbleAtlasVjp, five, std::string("false"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_NimbleAtlasVjp, with_masses, std::string("true"))->Unit(benchmark::kMicrosecond);

void BM_NimbleHalfCheetahJacobians(benchmark::State& state, const std::string& masses) {
  auto scene = MakeScene("half_cheetah");
  auto sim = MakeSimulator("nimble", scene, {{"timestep", "0.001"}, {"design_derivatives", masses}});
  State s = DefaultState(*scene);
  for (int i = 0; i < 1000; ++i) sim->Step(s, {});
  TimeDerivatives(state, *sim, s);
}
BENCHMARK_CAPTURE(BM_NimbleHalfCheetahJacobians, five, std::string("false"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_NimbleHalfCheetahJacobians, with_masses, std::string("true"))->Unit(benchmark::kMicrosecond);

}  // namespace nimble_bench
}  // namespace arena
