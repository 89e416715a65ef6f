// One step of the seed-000 models (silico, bilevel) on the box_drop planar polygon resting on the floor at
// 100 Hz (rho 1e-4, cold start, the paper's Fig. 9 settings), and the silico IFT derivatives.
// The target: a planar silico step at most 50 us median on one core.
#include <benchmark/benchmark.h>

#include "bench/bench_support.h"
#include "core/scene/scene_builder.h"
#include "models/registry.h"
#include "scenes/box_drop_scenes.h"
#include "scenes/scene_registry.h"

namespace arena {
namespace silico_bench {

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

// A column of N 0.5 m cubes (1 kg, mu 0.5) resting on each other and on the ground, each lower
// one shifted 2 cm in x (stacking's configuration 0, stacked higher).
std::shared_ptr<const Scene> CubeColumn(int n) {
  SceneBuilder b("cube_column_" + std::to_string(n));
  const Vec3 h = Vec3::Constant(0.25);
  for (int i = 0; i < n; ++i) {
    const Vec3 centre((i % 2 == 0) ? 0.02 : 0.0, 0.0, 0.25 + 0.5 * i);
    const int body = b.AddFreeBody("cube" + std::to_string(i), SpatialInertia::SolidBox(1.0, h), SE3::FromTranslation(centre));
    b.AddCollider(body, Box{h}).friction = 0.5;
  }
  b.AddGround(0.5);
  return b.Build();
}

// silico's Newton system grows with the bodies and the contacts: the dense LU against Eigen's
// SparseLU (linear_solver) on a resting column of state.range(0) cubes (100 Hz, rho 1e-4).
void BM_SilicoColumnStep(benchmark::State& state, const std::string& linear_solver) {
  auto scene = CubeColumn(static_cast<int>(state.range(0)));
  auto sim = MakeSimulator("silico", scene,
                           {{"timestep", "0.01"}, {"rho", "1e-4"}, {"linear_solver", linear_solver}});
  TimeStepsFrom(state, *sim, DefaultState(*scene));
}
// (The dense LU at 16 cubes takes ~100 s a step, so it stops at 8; SparseLU ~1.9 s at 16.)
BENCHMARK_CAPTURE(BM_SilicoColumnStep, dense_lu, std::string("dense_lu"))->Arg(2)->Arg(4)->Arg(8)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SilicoColumnStep, sparse_lu, std::string("sparse_lu"))->Arg(2)->Arg(4)->Arg(8)->Arg(16)
    ->Unit(benchmark::kMillisecond);

}  // namespace silico_bench
}  // namespace arena
