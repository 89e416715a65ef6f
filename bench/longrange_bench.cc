// The long-range contact potential (Ye et al., arXiv 2509.20917): value + gradient + Hessian
// between tessellated spheres, hierarchical (Algorithm 1) against brute force (Eq. 3), one
// thread. The paper's billiards scene has 16 balls of diameter 1 with 18 to 196 vertices each
// (512 to 6208 triangles in all); targets for one evaluation of the whole scene at 6208
// triangles: <= 0.3 s with the BSH, brute force / BSH >= 150, BSH log-log slope <= 0.8.
// Counters: triangles (per sphere or in the scene), exact pair solves, node pairs visited,
// Newton trials per exact solve, Hessian blocks. The brute-force scene at 96 to 196 vertices per
// ball runs only with ARENA_BENCH_LONG=1 (minutes).
#include <cstdlib>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include <Eigen/Geometry>
#include <benchmark/benchmark.h>

#include "models/longrange/bounding_sphere_hierarchy.h"
#include "core/geometry/sphere_mesh.h"
#include "models/longrange/long_range_potential.h"

namespace arena::longrange {
namespace longrange_bench {

// Sphere meshes of the paper's ball resolutions, built once per vertex count.
const BoundingSphereHierarchy& Ball(int vertices) {
  static std::vector<std::pair<int, std::unique_ptr<BoundingSphereHierarchy>>> cache;
  for (const auto& [n, bsh] : cache) {
    if (n == vertices) return *bsh;
  }
  const SphereMesh mesh = FibonacciSphere(vertices, 0.5);
  cache.emplace_back(vertices,
                     std::make_unique<BoundingSphereHierarchy>(mesh.vertices, mesh.triangles));
  return *cache.back().second;
}

Mat3 Rotation(int k) {
  return Eigen::AngleAxisd(0.7 * k + 0.3, Vec3(1.0, 0.2 * k, -0.5).normalized()).toRotationMatrix();
}

void SetCounters(benchmark::State& state, const LongRangeData& d, int triangles) {
  state.counters["triangles"] = triangles;
  state.counters["exact_pairs"] = d.stats.exact_pairs;
  state.counters["node_pairs"] = d.stats.node_pairs;
  state.counters["trials_per_solve"] =
      d.stats.exact_pairs > 0 ? static_cast<double>(d.stats.newton_iterations) / d.stats.exact_pairs
                              : 0.0;
  state.counters["hessian_blocks"] = d.stats.hessian_blocks;
}

// Two balls 1.07 apart (gap 0.07, the rack's diagonal neighbours), P + gradient + Hessian.
void TwoBalls(benchmark::State& state, bool brute_force, DerivativeOrder order) {
  const BoundingSphereHierarchy& bsh = Ball(static_cast<int>(state.range(0)));
  BshPose a, b;
  PoseRigid(bsh, Rotation(1), Vec3::Zero(), &a);
  PoseRigid(bsh, Rotation(2), Vec3(0.605, 0.88, 0.0), &b);
  LongRangeOptions options;
  options.brute_force = brute_force;
  options.derivatives = order;
  LongRangeData d;
  for (auto _ : state) {
    ComputeLongRangePotential(bsh, a, bsh, b, options, &d);
    benchmark::DoNotOptimize(d.value);
  }
  SetCounters(state, d, bsh.num_triangles());
}
void BM_TwoBallsBsh(benchmark::State& state) { TwoBalls(state, false, DerivativeOrder::kHessian); }
void BM_TwoBallsBshGradient(benchmark::State& state) {
  TwoBalls(state, false, DerivativeOrder::kGradient);
}
void BM_TwoBallsBshValue(benchmark::State& state) {
  TwoBalls(state, false, DerivativeOrder::kValue);
}
void BM_TwoBallsBrute(benchmark::State& state) { TwoBalls(state, true, DerivativeOrder::kHessian); }
BENCHMARK(BM_TwoBallsBsh)
    ->Arg(18)
    ->Arg(48)
    ->Arg(96)
    ->Arg(144)
    ->Arg(196)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TwoBallsBshGradient)->Arg(48)->Arg(196)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TwoBallsBshValue)->Arg(48)->Arg(196)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TwoBallsBrute)
    ->Arg(18)
    ->Arg(48)
    ->Arg(96)
    ->Arg(144)
    ->Arg(196)
    ->Unit(benchmark::kMillisecond);

// The billiards rack: 15 balls in 5 rows (in-row gap 0.21, diagonal gap 0.07) and the cue ball,
// every one of the 120 pairs, poses from rigid transforms (as an IP solver would provide).
// `jiggle` moves every ball by ~1e-3 m and 1e-3 rad (two nearby configurations, as consecutive
// Newton iterates of an incremental-potential step).
struct Rack {
  explicit Rack(int vertices) : bsh(Ball(vertices)), poses(16) {
    const double rho = 0.55;
    for (int i = 0; i < 5; ++i) {
      for (int j = 0; j <= i; ++j) {
        centers.emplace_back(1.1 * rho * (4 - i) + 2.2 * rho * j, -1.6 * rho * i, 1.1 * rho);
      }
    }
    centers.emplace_back(4.4 * rho, 4.4 * rho, 1.1 * rho);
  }
  void Pose(bool jiggle = false) {
    for (int k = 0; k < 16; ++k) {
      const double e = jiggle ? 1e-3 : 0.0;
      const Mat3 R = Rotation(k) * Eigen::AngleAxisd(e, Vec3(0.3, -0.5, 1.0).normalized());
      PoseRigid(bsh, R, centers[k] + e * Vec3(0.6, -0.8, 0.1 * (k % 3)), &poses[k]);
    }
  }
  const BoundingSphereHierarchy& bsh;
  std::vector<Vec3> centers;
  std::vector<BshPose> poses;
};

// One evaluation of the whole scene per iteration: P, dP/dx and d2P/dx2 of all 120 pairs.
// `fast`: initial damping 1e-6 and warm starts (one LongRangeData per body pair), alternating
// between two nearby configurations.
void Billiards(benchmark::State& state, bool brute_force, bool fast) {
  Rack rack(static_cast<int>(state.range(0)));
  LongRangeOptions options;
  options.brute_force = brute_force;
  if (fast) {
    options.pair.initial_damping = 1e-6;
    options.warm_start = true;
  }
  std::vector<LongRangeData> data(fast ? 120 : 1);
  LongRangeStats total;
  bool jiggle = false;
  for (auto _ : state) {
    rack.Pose(jiggle);
    jiggle = fast && !jiggle;
    double value = 0.0;
    total.Reset();
    int pair = 0;
    for (int i = 0; i < 16; ++i) {
      for (int j = i + 1; j < 16; ++j, ++pair) {
        LongRangeData& d = data[fast ? pair : 0];
        ComputeLongRangePotential(rack.bsh, rack.poses[i], rack.bsh, rack.poses[j], options, &d);
        value += d.value;
        total.exact_pairs += d.stats.exact_pairs;
        total.node_pairs += d.stats.node_pairs;
        total.newton_iterations += d.stats.newton_iterations;
        total.hessian_blocks += d.stats.hessian_blocks;
      }
    }
    benchmark::DoNotOptimize(value);
  }
  data[0].stats = total;
  SetCounters(state, data[0], 16 * rack.bsh.num_triangles());
}
void BM_BilliardsBsh(benchmark::State& state) { Billiards(state, false, false); }
void BM_BilliardsBshFastOptions(benchmark::State& state) { Billiards(state, false, true); }
void BM_BilliardsBrute(benchmark::State& state) { Billiards(state, true, false); }
BENCHMARK(BM_BilliardsBsh)->Arg(18)->Arg(48)->Arg(96)->Arg(144)->Arg(196)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BilliardsBshFastOptions)->Arg(18)->Arg(196)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BilliardsBrute)->Arg(18)->Arg(48)->Iterations(1)->Unit(benchmark::kMillisecond);
// Brute force at 96 to 196 vertices per ball takes 20 s to 90 s (196: 120 x 388^2 = 18e6 pair
// solves); registered only when ARENA_BENCH_LONG is set. BM_TwoBallsBrute times one pair.
const bool kLongBruteForce = [] {
  if (std::getenv("ARENA_BENCH_LONG") != nullptr) {
    benchmark::RegisterBenchmark("BM_BilliardsBrute", BM_BilliardsBrute)
        ->Arg(96)->Arg(144)->Arg(196)->Iterations(1)->Unit(benchmark::kMillisecond);
  }
  return true;
}();

// One exact triangle-pair solve with its Hessian (Sec. 4): two facing triangles of a ball pair
// 0.07 apart, from the closest-point bisector (cold) or from the previous plane (warm).
void PairSolve(benchmark::State& state, bool warm) {
  const Triangle a = {Vec3(0, 0, 0), Vec3(0.2, 0, 0.01), Vec3(0.05, 0.18, -0.01)};
  const Triangle b = {Vec3(0.02, 0.03, -0.07), Vec3(0.19, -0.04, -0.08), Vec3(0.1, 0.2, -0.09)};
  TrianglePairOptions options;
  TrianglePairResult r;
  Vec4 plane = Vec4::Constant(std::numeric_limits<double>::quiet_NaN());
  ComputeTrianglePairPotential(a, b, DerivativeOrder::kHessian, options, &plane, &r);
  const Vec4 solved = plane;
  for (auto _ : state) {
    plane = warm ? solved : Vec4::Constant(std::numeric_limits<double>::quiet_NaN());
    ComputeTrianglePairPotential(a, b, DerivativeOrder::kHessian, options, &plane, &r);
    benchmark::DoNotOptimize(r.value);
  }
  state.counters["trials"] = r.stats.iterations;
}
void BM_TrianglePairCold(benchmark::State& state) { PairSolve(state, false); }
void BM_TrianglePairWarm(benchmark::State& state) { PairSolve(state, true); }
BENCHMARK(BM_TrianglePairCold);
BENCHMARK(BM_TrianglePairWarm);

void BM_BshBuild(benchmark::State& state) {
  const SphereMesh mesh = FibonacciSphere(static_cast<int>(state.range(0)), 0.5);
  for (auto _ : state) {
    BoundingSphereHierarchy bsh(mesh.vertices, mesh.triangles);
    benchmark::DoNotOptimize(bsh.root());
  }
  state.counters["triangles"] = static_cast<double>(mesh.triangles.rows());
}
BENCHMARK(BM_BshBuild)->Arg(196)->Unit(benchmark::kMicrosecond);

}  // namespace longrange_bench
}  // namespace arena::longrange
