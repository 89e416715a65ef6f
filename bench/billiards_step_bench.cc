// One step of the billiards scene (scenes/longrange_scenes.h, seed 004 Fig. 5: 15 rack balls and
// the cue ball, radius 0.5, 96 DOF, over a ground box) with the balls on the ground, at the
// paper's settings: `longrange` at 18 vertices per ball (16 x 32 = 512 ball triangles),
// mu 1e-7, dt 0.04; its Derivatives (the implicit function theorem's backward pass, the step's
// minimiser reused); `ipc` at the same tessellation and dt; and MuJoCo on the same scene and dt.
// The seed-004 billiards optimisation needs 400 x 100 forward + backward steps (BM_BilliardsFrame
// times one). Counter `vs_mujoco` (on the longrange step) is the ratio of its time to the MuJoCo
// step's.
// The IP models run with the ground as its top face alone (ground_mesh=top, as the seed-004 task
// configs); `longrange_ground_box` is the default 12-triangle ground box for comparison.
// BM_BilliardsContact times one evaluation of longrange's contact terms alone (a Newton
// iterate's with Hessian, a line-search trial's value). The settled states are computed once.
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>

#include <tbb/task_arena.h>

#include "bench/bench_support.h"
#include "models/incremental_potential/contact_potential.h"
#include "models/longrange/longrange_contact.h"
#include "models/registry.h"
#include "scenes/longrange_scenes.h"

namespace arena {
namespace billiards_step_bench {

// 0.32 s after the drop. The balls' lowest mesh vertices sit about 0.1 m above the spheres'
// bottoms, so they fall about 0.2 m: after 8 steps they are on the ground and still bounce and
// roll (longrange: up to 0.44 m/s and 1.1 rad/s), and they rest after about 35 steps. The bench
// times a step of balls moving on the ground.
constexpr int kSettleSteps = 8;

// `variant`: a model name, or longrange_ground_box (longrange on the 12-triangle ground).
OptionMap ModelOptions(const std::string& variant) {
  if (variant == "mujoco") return {{"timestep", "0.04"}};
  OptionMap o{{"timestep", "0.04"}, {"sphere_vertices", "18"}, {"ground_mesh", "top"}};
  if (variant.rfind("longrange", 0) == 0) o["mu"] = "1e-7";
  if (variant == "longrange_ground_box") o["ground_mesh"] = "box";
  return o;
}

std::unique_ptr<Simulator> Make(const std::string& variant) {
  const std::string model = variant.rfind("longrange", 0) == 0 ? "longrange" : variant;
  return MakeSimulator(model, BilliardsScene(), ModelOptions(variant));
}

// The state kSettleSteps after the drop from 0.105 m above the ground, per variant (cached).
const State& Settled(const std::string& model) {
  static std::map<std::string, State> cache;
  auto it = cache.find(model);
  if (it != cache.end()) return it->second;
  auto sim = Make(model);
  State s = DefaultState(sim->scene());
  for (int i = 0; i < kSettleSteps; ++i) sim->Step(s, {});
  return cache.emplace(model, s).first->second;
}

// Seconds per MuJoCo step from the settled state (for the ratio counter).
double MujocoStepSeconds() {
  static const double seconds = [] {
    auto sim = Make("mujoco");
    return SecondsPerStep(*sim, Settled("mujoco"));
  }();
  return seconds;
}

void BM_BilliardsStep(benchmark::State& state, const std::string& model) {
  auto sim = Make(model);
  TimeStepsFrom(state, *sim, Settled(model));
  if (model.rfind("longrange", 0) == 0) {
    if (const SolveBreakdown* solve = sim->last_solve_breakdown()) {
      state.counters["newton"] = solve->newton_iterations;
      state.counters["line_search"] = solve->line_search_evaluations;
    }
    // (seconds per step) / (MuJoCo's seconds per step): the inverse of a rate.
    state.counters["vs_mujoco"] = benchmark::Counter(
        MujocoStepSeconds(), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  }
}
BENCHMARK_CAPTURE(BM_BilliardsStep, longrange, std::string("longrange"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BilliardsStep, longrange_ground_box, std::string("longrange_ground_box"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BilliardsStep, ipc, std::string("ipc"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BilliardsStep, mujoco, std::string("mujoco"))->Unit(benchmark::kMicrosecond);

// One evaluation of longrange's contact terms (mu P and the lagged friction) at the settled
// state, value only (a line search's trial) or with gradient and Hessian (a Newton iterate),
// alternating between the step's start and end so that warm starts are a step old.
void BM_BilliardsContact(benchmark::State& state, bool hessian) {
  auto sim = Make("longrange");
  MeshPotential& mesh = RequireMeshPotential(*sim);
  const State& start = Settled("longrange");
  State end = start;
  sim->Step(end, {});
  ContactConfiguration x[2];
  mesh.MeshConfiguration(start.q, &x[0]);
  mesh.MeshConfiguration(end.q, &x[1]);
  ContactPotential& contact = mesh.contact_potential();
  contact.BeginStep(x[0]);
  class NullSink final : public ContactDerivativeSink {
   public:
    void AddGradient(const MeshPoint&, const Vec3& g) override { sum += g.x(); }
    void AddHessian(const MeshPoint&, const MeshPoint&, const Mat3& b) override { sum += b(0, 0); }
    double sum = 0.0;
  } sink;
  int k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(contact.Evaluate(x[k], hessian ? &sink : nullptr, hessian, true));
    k = 1 - k;
  }
  state.counters["exact_pairs"] = contact.ActiveContacts();
}
BENCHMARK_CAPTURE(BM_BilliardsContact, value, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BilliardsContact, hessian, true)->Unit(benchmark::kMillisecond);

// Derivatives of the settled state's step: the step is solved once, then every iteration
// reuses its minimiser (as a forward-then-backward rollout does).
void BM_BilliardsDerivatives(benchmark::State& state, const std::string& model) {
  auto sim = Make(model);
  const State& start = Settled(model);
  State s = start;
  sim->Step(s, {});
  StepDerivatives d;
  for (auto _ : state) {
    sim->Derivatives(start, {}, &d);
    benchmark::DoNotOptimize(d.dv_dq.data());
  }
}
BENCHMARK_CAPTURE(BM_BilliardsDerivatives, longrange, std::string("longrange"))->Unit(benchmark::kMillisecond);

// One frame of the seed-004 billiards optimisation (Fig. 5): the step from the settled state and
// its Derivatives, the forward and backward work of each of its 100 frames x 400 iterations, on
// range(0) threads (1: the pair loops serial, as inside a sweep whose cases fill the cores).
// Wall-clock time. Counters: the step's Newton iterations and energy evaluations, and
// longrange's seconds per frame in each phase of its contact terms, summed over threads.
void BM_BilliardsFrame(benchmark::State& state, const std::string& model) {
  tbb::task_arena arena(static_cast<int>(state.range(0)));
  auto sim = Make(model);
  const State& start = Settled(model);
  StepDerivatives d;
  auto* longrange = dynamic_cast<LongRangeContact*>(&RequireMeshPotential(*sim).contact_potential());
  const LongRangePhaseSeconds before = longrange != nullptr ? longrange->phase_seconds() : LongRangePhaseSeconds{};
  for (auto _ : state) {
    arena.execute([&] {
      State s = start;
      sim->Step(s, {});
      sim->Derivatives(start, {}, &d);
    });
    benchmark::DoNotOptimize(d.dv_dq.data());
  }
  if (const SolveBreakdown* solve = sim->last_solve_breakdown()) {
    state.counters["newton"] = solve->newton_iterations;
    state.counters["energy_evals"] = solve->energy_evaluations;
    state.counters["derivative_evals"] = solve->derivative_evaluations;
  }
  if (longrange != nullptr) {
    const LongRangePhaseSeconds after = longrange->phase_seconds();
    const double frames = static_cast<double>(state.iterations());
    state.counters["potential_ms"] = 1e3 * (after.potential - before.potential) / frames;
    state.counters["friction_ms"] = 1e3 * (after.friction - before.friction) / frames;
    state.counters["assembly_ms"] = 1e3 * (after.assembly - before.assembly) / frames;
    state.counters["lag_ms"] = 1e3 * (after.lag - before.lag) / frames;
  }
}
BENCHMARK_CAPTURE(BM_BilliardsFrame, longrange, std::string("longrange"))
    ->Arg(1)->Arg(2)->ArgName("threads")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BilliardsFrame, ipc, std::string("ipc"))
    ->Arg(1)->ArgName("threads")->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace billiards_step_bench
}  // namespace arena
