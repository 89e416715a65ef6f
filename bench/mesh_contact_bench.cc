// Mesh-mesh contact (models/point_contact/hull_contacts.h): one hull pair of 100 vertices each, overlapping
// (value and AD runs) and apart (culling by GJK), and a whole step of the drchubo robot (52
// mesh links, every self pair checked) for penalty and nimble.
#include <benchmark/benchmark.h>

#include <cmath>

#include "bench/bench_support.h"
#include "core/geometry/convex_hull.h"
#include "core/math/so3.h"
#include "core/scene/loader.h"
#include "models/point_contact/contact_kernels.h"
#include "models/point_contact/pose_twist_ad.h"
#include "models/registry.h"
#include "scenes/scene_registry.h"

namespace arena {
namespace mesh_contact_bench {

// n points of a Fibonacci sphere squashed into an ellipsoid: every point is a hull vertex.
ConvexHull EllipsoidHull(int n, const Vec3& radii) {
  PointsX3 points(n, 3);
  const double golden = M_PI * (3.0 - std::sqrt(5.0));
  for (int i = 0; i < n; ++i) {
    const double z = 1.0 - 2.0 * (i + 0.5) / n;
    const double r = std::sqrt(1.0 - z * z);
    points.row(i) = Vec3(r * std::cos(golden * i), r * std::sin(golden * i), z).cwiseProduct(radii).transpose();
  }
  return MakeConvexHull(points);
}

template <class T>
void HullPair(benchmark::State& state, double gap) {
  const auto a = contact::MakeColliderGeometry(EllipsoidHull(100, Vec3(0.1, 0.07, 0.05)));
  const auto b = contact::MakeColliderGeometry(EllipsoidHull(100, Vec3(0.06, 0.09, 0.08)));
  const SE3 XA(ExpSO3(Vec3(0.1, 0.2, 0.3)), Vec3::Zero());
  const SE3 XB(ExpSO3(Vec3(-0.3, 0.1, 0.2)), Vec3(0.0, 0.0, 0.05 + 0.08 + gap));
  std::vector<contact::ContactPointT<T>> out;
  for (auto _ : state) {
    out.clear();
    if constexpr (std::is_same_v<T, double>) {
      contact::Contacts<double>(a, {XA.rotation(), XA.translation()}, b, {XB.rotation(), XB.translation()}, &out);
    } else {
      contact::Contacts<T>(a, contact::SeedPose<12>(XA, 0), b, contact::SeedPose<12>(XB, 6), &out);
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["hull_vertices"] = static_cast<double>(a.hull->vertices.rows());
  state.counters["contacts"] = static_cast<double>(out.size());
}
void BM_HullPairOverlapping(benchmark::State& state) { HullPair<double>(state, -0.005); }
void BM_HullPairOverlappingAD(benchmark::State& state) { HullPair<contact::AdScalar<12>>(state, -0.005); }
void BM_HullPairApart(benchmark::State& state) { HullPair<double>(state, 0.005); }
BENCHMARK(BM_HullPairOverlapping);
BENCHMARK(BM_HullPairOverlappingAD);
BENCHMARK(BM_HullPairApart);

// One step of drchubo (dart-doc URDF, floating, no ground) from its default pose with a
// downward and spinning velocity, self-collision on (pairs overlapping at the default pose
// excluded, as file scenes are loaded).
void BM_DrchuboStep(benchmark::State& state, const std::string& model) {
  std::shared_ptr<const Scene> scene;
  try {
    scene = MakeScene(DartDataDir() + "/urdf/drchubo/drchubo.urdf");
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  auto sim = MakeSimulator(model, scene, {{"timestep", "0.001"}});
  TimeStepsFrom(state, *sim, DefaultState(*scene));
  state.counters["collision_pairs"] = static_cast<double>(scene->CollisionPairs().size());
}
BENCHMARK_CAPTURE(BM_DrchuboStep, penalty, std::string("penalty"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DrchuboStep, nimble, std::string("nimble"))->Unit(benchmark::kMicrosecond);

}  // namespace mesh_contact_bench
}  // namespace arena
