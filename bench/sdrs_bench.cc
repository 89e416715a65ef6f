// The SDRS hull-pair potential (seed 003 Sec. IV-B): value + gradient + Hessian of one pair of
// 20-vertex hulls near contact (1 cm apart, well inside the barrier's 0.1 m support, so most
// vertices are active), cold (closest points, then Newton from the scaled middle plane) and
// warm-started from the plane of the previous evaluation at a slightly moved pose (what a
// Newton iterate of the step does), with the vertex Hessian or the twist Hessian the model's step
// uses. The target: <= 5 us per evaluation.
// Counters: Newton trials per solve, active vertices.
#include <limits>
#include <utility>

#include <benchmark/benchmark.h>

#include <Eigen/Geometry>

#include "bench/bench_support.h"
#include "core/common/random.h"
#include "core/scene/scene_builder.h"
#include "models/registry.h"
#include "models/sdrs/hull_pair_potential.h"
#include "models/sdrs/hull_pair_twist.h"
#include "models/sdrs/point_set_distance.h"

namespace arena::sdrs {
namespace sdrs_bench {

// Two 20-point sets in balls of radius 0.3, the second translated 1 cm below the first's hull.
std::pair<PointsX3, PointsX3> Pair20() {
  Rng rng(5);
  auto points = [&](const Vec3& center) {
    PointsX3 p(20, 3);
    for (int k = 0; k < 20; ++k) {
      Vec3 v(Uniform(rng, -1, 1), Uniform(rng, -1, 1), Uniform(rng, -1, 1));
      p.row(k) = (center + 0.3 * v.normalized()).transpose();
    }
    return p;
  };
  PointsX3 a = points(Vec3(0, 0, 1)), b = points(Vec3(0, 0, 0));
  for (int it = 0; it < 10; ++it) {
    const PointSetSeparation s = SeparatePointSets(a, b);
    b.rowwise() += ((s.distance - 0.01) * (s.point_a - s.point_b) / s.distance).transpose();
  }
  return {a, b};
}

// One evaluation as the model asks for it: with the 3K x 3K vertex Hessian (`twist` false), or
// with only its Schur factors contracted to the two bodies' 12 x 12 twist Hessian in O(K)
// (models/sdrs/hull_pair_twist.h; what the step's sink takes).
void Evaluate(const PointsX3& a, const PointsX3& b, const HullPairOptions& options, bool twist, Vec4* warm,
              HullPairResult* r) {
  ComputeHullPairPotential(a, b, DerivativeOrder::kHessian, options, warm, r);
  if (twist) {
    const Mat12 h = HullPairTwistHessian(*r, a, b, options.kappa);
    benchmark::DoNotOptimize(h.data());
  } else {
    benchmark::DoNotOptimize(r->hessian.data());
  }
}

void HullPair20Cold(benchmark::State& state, bool twist) {
  const auto [a, b] = Pair20();
  HullPairResult r;
  HullPairOptions options;
  options.dense_hessian = !twist;
  long trials = 0;
  for (auto _ : state) {
    Evaluate(a, b, options, twist, nullptr, &r);
    trials += r.stats.iterations;
  }
  state.counters["trials"] = benchmark::Counter(static_cast<double>(trials), benchmark::Counter::kAvgIterations);
  state.counters["active"] = static_cast<double>(r.active.size());
}

void HullPair20Warm(benchmark::State& state, bool twist) {
  const auto [a, b] = Pair20();
  // Alternate between two poses 0.1 mm apart, each warm-started from the other's plane.
  PointsX3 moved = b;
  moved.rowwise() += Vec3(1e-4, -5e-5, -1e-4).transpose();
  HullPairResult r;
  HullPairOptions options;
  options.initial_damping = 1e-6;  // what the model uses from a warm start (sdrs_contact.cc)
  options.dense_hessian = !twist;
  Vec4 warm = Vec4::Constant(std::numeric_limits<double>::quiet_NaN());
  ComputeHullPairPotential(a, b, DerivativeOrder::kValue, options, &warm, &r);
  long trials = 0;
  bool flip = false;
  for (auto _ : state) {
    Evaluate(a, flip ? b : moved, options, twist, &warm, &r);
    flip = !flip;
    trials += r.stats.iterations;
  }
  state.counters["trials"] = benchmark::Counter(static_cast<double>(trials), benchmark::Counter::kAvgIterations);
  state.counters["active"] = static_cast<double>(r.active.size());
}

void BM_SdrsHullPair20Cold(benchmark::State& state) { HullPair20Cold(state, false); }
BENCHMARK(BM_SdrsHullPair20Cold);
void BM_SdrsHullPair20Warm(benchmark::State& state) { HullPair20Warm(state, false); }
BENCHMARK(BM_SdrsHullPair20Warm);
void BM_SdrsHullPair20TwistCold(benchmark::State& state) { HullPair20Cold(state, true); }
BENCHMARK(BM_SdrsHullPair20TwistCold);
void BM_SdrsHullPair20TwistWarm(benchmark::State& state) { HullPair20Warm(state, true); }
BENCHMARK(BM_SdrsHullPair20TwistWarm);

// The model's step and derivatives on its home scene for the speed-regression suite (make perf):
// a 0.4 m, 1 kg box (8 hull vertices) resting on the ground at the gap where the CLogx barrier
// carries it (started 2 cm up, settled 0.25 s at the default 0.04 s step), sliding at 0.5 m/s.
std::shared_ptr<const Scene> SdrsBox() {
  SceneBuilder b("sdrs_bench_box");
  b.SetGravity(Vec3(0.0, 0.0, -9.81));
  const Vec3 h = Vec3::Constant(0.2);
  const int box = b.AddFreeBody("box", SpatialInertia::SolidBox(1.0, h), SE3::FromTranslation(Vec3(0, 0, 0.2 + 0.02)));
  b.AddCollider(box, Box{h}, SE3(), "box").friction = 0.5;
  b.AddGround(0.5);
  return b.Build();
}

State SlidingSdrsBox(Simulator& sim) {
  State s = DefaultState(sim.scene());
  for (int i = 0; i < 6; ++i) sim.Step(s, {});
  s.v[3] = 0.5;  // v_x of (omega, v)
  return s;
}

void BM_SdrsModelStep(benchmark::State& state) {
  auto sim = MakeSimulator("sdrs", SdrsBox(), {});
  TimeStepsFrom(state, *sim, SlidingSdrsBox(*sim));
}
BENCHMARK(BM_SdrsModelStep)->Unit(benchmark::kMillisecond);

void BM_SdrsModelDerivatives(benchmark::State& state) {
  auto sim = MakeSimulator("sdrs", SdrsBox(), {});
  TimeStepAndDerivativesFrom(state, *sim, SlidingSdrsBox(*sim));
}
BENCHMARK(BM_SdrsModelDerivatives)->Unit(benchmark::kMillisecond);

}  // namespace sdrs_bench
}  // namespace arena::sdrs
