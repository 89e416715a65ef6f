// One MuJoCo 2.2.2 step (the `mujoco` engine model, MuJoCo's default options: Euler, Newton,
// pyramidal cone) on box_drop's spatial cube, resting and at impact, and on half_cheetah (the
// OpenAI MJCF of dart-doc, the scene half_cheetah, translated back to MJCF, at the file's own
// 100 Hz) standing on its floor; plus the finite-difference derivatives of the cube's step.
// Every timed step starts from the same state, so the solver starts cold (zero warm start).
// Debian's libmujoco is built without AVX: timings are below upstream release builds.
#include <benchmark/benchmark.h>

#include <utility>

#include "bench/bench_support.h"
#include "models/registry.h"
#include "scenes/box_drop_scenes.h"
#include "scenes/scene_registry.h"

namespace arena {
namespace mujoco_bench {

State RestingCube(const Scene& scene) {
  State s = DefaultState(scene);
  s.q << 0.0, 0.0, 0.25, 1.0, 0.0, 0.0, 0.0;
  s.v.setZero();
  return s;
}

// The cube after 1 s of rest at `timestep`, so the step starts from a settled contact.
State SettledCube(Simulator& sim) {
  State s = RestingCube(sim.scene());
  const int steps = static_cast<int>(1.0 / sim.timestep());
  for (int i = 0; i < steps; ++i) sim.Step(s, {});
  return s;
}

// Resting: the step after 1 s of rest. At rest the solver's start is already optimal (0
// iterations): this times collision detection, constraint assembly and the integrator.
void BM_MujocoBoxRestingStep(benchmark::State& state, const std::string& timestep) {
  auto scene = MakeScene("box");
  auto sim = MakeSimulator("mujoco", scene, {{"timestep", timestep}});
  TimeStepsFrom(state, *sim, SettledCube(*sim));
}
BENCHMARK_CAPTURE(BM_MujocoBoxRestingStep, dt_2ms, std::string("0.002"));  // MuJoCo's default
BENCHMARK_CAPTURE(BM_MujocoBoxRestingStep, dt_10ms, std::string("0.01"));  // box_drop's 100 Hz

// The state whose step is the first to detect a contact (at most 2000 steps from `s`).
State BeforeFirstContact(Simulator& sim, State s) {
  for (int i = 0; i < 2000; ++i) {
    State next = s;
    if (sim.Step(next, {}).contacts > 0) return s;
    s = std::move(next);
  }
  return s;
}

// Impact: box_drop's initial condition 7 (tumbling, sliding) at its first step with a contact;
// the solver iterates.
void BM_MujocoBoxImpactStep(benchmark::State& state, const std::string& timestep) {
  auto scene = MakeScene("box");
  auto sim = MakeSimulator("mujoco", scene, {{"timestep", timestep}});
  TimeStepsFrom(state, *sim, BeforeFirstContact(*sim, BoxDropInitialState("spatial", 7)));
}
BENCHMARK_CAPTURE(BM_MujocoBoxImpactStep, dt_2ms, std::string("0.002"));
BENCHMARK_CAPTURE(BM_MujocoBoxImpactStep, dt_10ms, std::string("0.01"));

// half_cheetah settled on its floor (2 s from its initial pose) at the file's 0.01 s.
void BM_MujocoHalfCheetahStep(benchmark::State& state) {
  auto scene = MakeScene("half_cheetah");
  auto sim = MakeSimulator("mujoco", scene, {{"timestep", "0.01"}});
  State s = DefaultState(*scene);
  for (int i = 0; i < 200; ++i) sim->Step(s, {});
  TimeStepsFrom(state, *sim, s);
}
BENCHMARK(BM_MujocoHalfCheetahStep);

// Central differences of the cube's step: 2 (2 nv + nu) + 1 = 25 steps.
void BM_MujocoBoxDerivatives(benchmark::State& state) {
  auto scene = MakeScene("box");
  auto sim = MakeSimulator("mujoco", scene, {{"timestep", "0.01"}});
  const State s = SettledCube(*sim);
  StepDerivatives d;
  for (auto _ : state) {
    sim->Derivatives(s, {}, &d);
    benchmark::DoNotOptimize(d.dv_dq.data());
  }
}
BENCHMARK(BM_MujocoBoxDerivatives);

}  // namespace mujoco_bench
}  // namespace arena
