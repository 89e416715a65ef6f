// Helpers shared by the benchmarks.
#pragma once

#include <benchmark/benchmark.h>

#include <chrono>

#include "models/simulator.h"

namespace arena {

/// Steps `sim` from `s` until a contact is active (at most 2000 steps), so the benchmarked
/// steps have contacts.
inline State Touching(Simulator& sim, State s) {
  for (int i = 0; i < 2000; ++i) {
    if (sim.Step(s, {}).contacts > 0) break;
  }
  return s;
}

/// Times sim.Step from the same `start` state on every iteration; reports the last step's
/// iteration and contact counts.
inline void TimeStepsFrom(benchmark::State& state, Simulator& sim, const State& start) {
  State s = start;
  StepReport r;
  for (auto _ : state) {
    s = start;
    r = sim.Step(s, {});
    benchmark::DoNotOptimize(s.q.data());
  }
  state.counters["iterations"] = r.iterations;
  state.counters["contacts"] = r.contacts;
  state.counters["ok"] = r.ok() ? 1 : 0;
}

/// Times a step from `start` followed by its Derivatives (the incremental-potential models'
/// Derivatives after Step reuse its minimiser, so the pair is what a rollout's backward pass
/// costs per step).
inline void TimeStepAndDerivativesFrom(benchmark::State& state, Simulator& sim, const State& start) {
  StepDerivatives d;
  for (auto _ : state) {
    State t = start;
    sim.Step(t, {});
    sim.Derivatives(start, {}, &d);
    benchmark::DoNotOptimize(d.dv_dq.data());
  }
}

/// Mean seconds of `n` steps of `sim`, each from `start`, timed outside any benchmark loop: the
/// reference for a ratio counter measured in the same run (MuJoCo's step beside a model's).
inline double SecondsPerStep(Simulator& sim, const State& start, int n = 2000) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) {
    State s = start;
    sim.Step(s, {});
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / n;
}

}  // namespace arena
