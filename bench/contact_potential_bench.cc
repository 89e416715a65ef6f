// The incremental-potential models' contact potential as a step sees it (ContactPotential::
// Evaluate: value + gradient + per-term projected Hessian, friction lagged at the same state) on
// the registered billiards scene, for seed 004's Fig. 6 / App. A.6.5 comparison at a few sizes:
// longrange with its bounding-sphere hierarchy, longrange by brute force, and ipc. The same
// measurement as the potential_scaling experiment's eval_s (experiments/common/meters/potential_timing.h);
// longrange_bench.cc times the hierarchy's kernel without the model around it.
// state.range(0) = vertices per ball (16 (2V - 4) triangles: 18 -> 512, 66 -> 2048, 196 -> 6208).
#include <benchmark/benchmark.h>

#include <string>

#include "models/incremental_potential/contact_potential.h"
#include "models/registry.h"
#include "scenes/scene_registry.h"

namespace arena {
namespace contact_potential_bench {

class SumSink final : public ContactDerivativeSink {
 public:
  void AddGradient(const MeshPoint&, const Vec3& g) override { sum += g.sum(); }
  void AddHessian(const MeshPoint&, const MeshPoint&, const Mat3& h) override { sum += h.trace(); }
  double sum = 0.0;
};

void ContactPotentialAt(benchmark::State& state, const std::string& model, const std::string& brute_force) {
  const std::string v = std::to_string(state.range(0));
  OptionMap options{{"sphere_vertices", v}};
  if (model == "longrange") options["brute_force"] = brute_force;
  const auto scene = MakeScene("billiards");
  auto sim = MakeSimulator(model, scene, options);
  MeshPotential& mesh = RequireMeshPotential(*sim);
  ContactConfiguration x;
  mesh.MeshConfiguration(DefaultState(*scene).q, &x);
  mesh.contact_potential().BeginStep(x);
  for (auto _ : state) {
    SumSink sink;
    benchmark::DoNotOptimize(mesh.contact_potential().Evaluate(x, &sink, true, true));
    benchmark::DoNotOptimize(sink.sum);
  }
  state.counters["triangles"] = 16.0 * (2.0 * static_cast<double>(state.range(0)) - 4.0);
}

void BM_ContactPotentialBsh(benchmark::State& s) { ContactPotentialAt(s, "longrange", "false"); }
void BM_ContactPotentialBrute(benchmark::State& s) { ContactPotentialAt(s, "longrange", "true"); }
void BM_ContactPotentialIpc(benchmark::State& s) { ContactPotentialAt(s, "ipc", ""); }
BENCHMARK(BM_ContactPotentialBsh)->Arg(18)->Arg(66)->Arg(196)->Unit(benchmark::kMillisecond);
// Brute force grows with the square of the triangles: 512 and 1088 only (seconds beyond).
BENCHMARK(BM_ContactPotentialBrute)->Arg(18)->Arg(36)->Iterations(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ContactPotentialIpc)->Arg(18)->Arg(66)->Arg(196)->Unit(benchmark::kMillisecond);

}  // namespace contact_potential_bench
}  // namespace arena
