// Rigid-body algorithms on Atlas (atlas_v3_no_head.urdf from dart-doc: free base + 27 revolute
// joints, nv = 33). Target: each at most 20 us per call on one core.
#include <benchmark/benchmark.h>

#include <memory>

#include "core/multibody/configuration.h"
#include "core/multibody/dynamics.h"
#include "core/multibody/kinematics.h"
#include "core/scene/loader.h"

namespace arena {
namespace multibody_bench {

struct AtlasFixture {
  AtlasFixture() {
    UrdfOptions options;
    options.load_meshes = false;  // kinematics and dynamics only
    scene = std::make_unique<Scene>(LoadUrdf(DartDataDir() + "/sdf/atlas/atlas_v3_no_head.urdf", options));
    data = std::make_unique<MultibodyData>(scene->model);
    std::mt19937_64 rng(42);
    q = RandomConfiguration(scene->model, rng);
    v = VecX::LinSpaced(scene->nv(), -1.0, 1.0);
    a = VecX::LinSpaced(scene->nv(), 0.5, -0.5);
    tau = VecX::LinSpaced(scene->nv(), -10.0, 10.0);
  }
  std::unique_ptr<Scene> scene;
  std::unique_ptr<MultibodyData> data;
  VecX q, v, a, tau;
};

AtlasFixture& Atlas() {
  static AtlasFixture fixture;
  return fixture;
}

void BM_AtlasForwardKinematics(benchmark::State& state) {
  auto& f = Atlas();
  for (auto _ : state) {
    ForwardKinematics(f.scene->model, *f.data, f.q, f.v);
    benchmark::DoNotOptimize(f.data->X_WB.data());
  }
  state.counters["bodies"] = f.scene->model.num_bodies();
}
BENCHMARK(BM_AtlasForwardKinematics);

void BM_AtlasCrba(benchmark::State& state) {
  auto& f = Atlas();
  for (auto _ : state) {
    Crba(f.scene->model, *f.data, f.q);
    benchmark::DoNotOptimize(f.data->M.data());
  }
  state.counters["nv"] = f.scene->nv();
}
BENCHMARK(BM_AtlasCrba);

void BM_AtlasRnea(benchmark::State& state) {
  auto& f = Atlas();
  for (auto _ : state) benchmark::DoNotOptimize(Rnea(f.scene->model, *f.data, f.q, f.v, f.a).data());
  state.counters["nv"] = f.scene->nv();
}
BENCHMARK(BM_AtlasRnea);

void BM_AtlasAba(benchmark::State& state) {
  auto& f = Atlas();
  for (auto _ : state) benchmark::DoNotOptimize(Aba(f.scene->model, *f.data, f.q, f.v, f.tau).data());
  state.counters["nv"] = f.scene->nv();
}
BENCHMARK(BM_AtlasAba);

void BM_AtlasRneaDerivatives(benchmark::State& state) {
  auto& f = Atlas();
  for (auto _ : state) {
    RneaDerivatives(f.scene->model, *f.data, f.q, f.v, f.a);
    benchmark::DoNotOptimize(f.data->dtau_dq.data());
  }
}
BENCHMARK(BM_AtlasRneaDerivatives);

void BM_AtlasAbaDerivatives(benchmark::State& state) {
  auto& f = Atlas();
  for (auto _ : state) {
    AbaDerivatives(f.scene->model, *f.data, f.q, f.v, f.tau);
    benchmark::DoNotOptimize(f.data->dddq_dq.data());
  }
}
BENCHMARK(BM_AtlasAbaDerivatives);

}  // namespace multibody_bench
}  // namespace arena
