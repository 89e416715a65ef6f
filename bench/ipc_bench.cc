// IPC kernels on tessellated spheres, one thread: the broad phase and the barrier potential with
// gradient and PSD-projected Hessian summed over all candidate pairs (Li et al., "Incremental
// Potential Contact", SIGGRAPH 2020, Sec. 4), at several triangle counts, and one evaluation of
// a 16-ball billiards rack of 6208 triangles (Ye et al., ICLR 2025, App. A.6.5, whose IPC
// baseline costs about 0.5 s per frame; the target is 0.1 s per frame, i.e. per Newton
// solve of several such evaluations).
//
// Spheres: Fibonacci points on a sphere of radius 28.6 mm (a billiard ball) and their convex hull
// (2V - 4 triangles). dhat = 1 mm, touching pairs 0.5 mm apart.
#include <benchmark/benchmark.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "core/geometry/convex_hull.h"
#include "core/geometry/mesh.h"
#include "core/geometry/mesh_distance.h"
#include "models/ipc/barrier.h"
#include "models/ipc/candidates.h"
#include "bench/bench_support.h"
#include "core/scene/scene_builder.h"
#include "models/registry.h"
#include "scenes/longrange_scenes.h"

namespace arena {
namespace ipc_bench {

using ipc::BarrierParameters;
using ipc::Candidates;
using ipc::SurfaceTopology;

constexpr double kRadius = 0.028575;  // m
constexpr double kDhat = 1e-3;        // m

struct Ball {
  PointsX3 vertices;  // world
  SurfaceTopology topology;
};

// V Fibonacci points on the sphere of radius r about `center`, and their hull.
Ball Sphere(int v, double r, const Vec3& center) {
  PointsX3 points(v, 3);
  const double golden = std::numbers::pi * (3.0 - std::sqrt(5.0));
  for (int i = 0; i < v; ++i) {
    const double z = 1.0 - 2.0 * (i + 0.5) / v;
    const double rho = std::sqrt(1.0 - z * z);
    points.row(i) =
        (center + r * Vec3(rho * std::cos(golden * i), rho * std::sin(golden * i), z)).transpose();
  }
  const ConvexHull hull = MakeConvexHull(points);
  TrianglesX3 tris(static_cast<int>(hull.data->triangles.size()), 3);
  for (int t = 0; t < tris.rows(); ++t) tris.row(t) = hull.data->triangles[t].transpose();
  Ball b;
  b.vertices = hull.data->vertices;
  b.topology = ipc::MakeSurfaceTopology(tris, static_cast<int>(b.vertices.rows()));
  return b;
}


struct Totals {
  double energy = 0.0;
  int active = 0;
};

// Sum of the pair potentials with gradient (accumulated per vertex) and projected Hessian.
Totals EvaluatePotential(const Ball& a, const Ball& b, const Candidates& c,
                         const BarrierParameters& params, VecX* grad_a, VecX* grad_b) {
  Totals out;
  ipc::Vec12 g;
  ipc::Mat12 h;
  const auto point_triangle = [&](const Ball& pb, const Ball& tb,
                                  const ipc::PointTriangleCandidate& pc, VecX* gp, VecX* gt) {
    const auto t = tb.topology.triangles.row(pc.triangle);
    const double e = ipc::PointTriangleBarrier(PointAt(pb.vertices, pc.vertex), PointAt(tb.vertices, t[0]),
                                               PointAt(tb.vertices, t[1]), PointAt(tb.vertices, t[2]),
                                               params, &g, &h, ipc::HessianMode::kProjected);
    if (e == 0.0) return;
    ++out.active;
    out.energy += e;
    gp->segment<3>(3 * pc.vertex) += g.segment<3>(0);
    for (int k = 0; k < 3; ++k) gt->segment<3>(3 * t[k]) += g.segment<3>(3 + 3 * k);
    benchmark::DoNotOptimize(h.data());
  };
  for (const auto& pc : c.point_a_triangle_b) point_triangle(a, b, pc, grad_a, grad_b);
  for (const auto& pc : c.point_b_triangle_a) point_triangle(b, a, pc, grad_b, grad_a);
  for (const auto& ec : c.edge_edge) {
    const int a0 = a.topology.edges(ec.edge_a, 0), a1 = a.topology.edges(ec.edge_a, 1);
    const int b0 = b.topology.edges(ec.edge_b, 0), b1 = b.topology.edges(ec.edge_b, 1);
    const Vec3 ea0 = PointAt(a.vertices, a0), ea1 = PointAt(a.vertices, a1), eb0 = PointAt(b.vertices, b0),
               eb1 = PointAt(b.vertices, b1);
    const double e = ipc::EdgeEdgeBarrier(ea0, ea1, eb0, eb1,
                                          ipc::EdgeEdgeMollifierThreshold(ea0, ea1, eb0, eb1),
                                          params, &g, &h, ipc::HessianMode::kProjected);
    if (e == 0.0) continue;
    ++out.active;
    out.energy += e;
    grad_a->segment<3>(3 * a0) += g.segment<3>(0);
    grad_a->segment<3>(3 * a1) += g.segment<3>(3);
    grad_b->segment<3>(3 * b0) += g.segment<3>(6);
    grad_b->segment<3>(3 * b1) += g.segment<3>(9);
    benchmark::DoNotOptimize(h.data());
  }
  return out;
}

// Two balls of V vertices each whose hulls are 0.5 dhat apart along x; the second is turned so
// that the contact is a generic point of both tessellations. state.range(0) = V,
// state.range(1) = dhat in units of 0.1 mm.
struct TwoBalls {
  Ball a, b;
  BarrierParameters params;
  TwoBalls(int v, double dhat) {
    params.dhat = dhat;
    a = Sphere(v, kRadius, Vec3::Zero());
    b = Sphere(v, kRadius, Vec3::Zero());
    const Mat3 r = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
    for (int i = 0; i < b.vertices.rows(); ++i)
      b.vertices.row(i) = (r * PointAt(b.vertices, i)).transpose();
    const TriangleMesh mesh_a = MakeTriangleMesh(a.vertices, a.topology.triangles);
    const TriangleMesh mesh_b = MakeTriangleMesh(b.vertices, b.topology.triangles);
    // Moving B along x by s changes the distance by at most s: converge on 0.5 dhat.
    double shift = 2.0 * kRadius + 0.5 * dhat;
    for (int it = 0; it < 20; ++it) {
      const double d =
          MeshDistance(*mesh_a.data, SE3(), *mesh_b.data, SE3::FromTranslation(Vec3(shift, 0, 0)))
              .distance;
      if (std::abs(d - 0.5 * dhat) < 1e-6 * dhat) break;
      shift -= d - 0.5 * dhat;
    }
    b.vertices.col(0).array() += shift;
  }
};

void BM_IpcCandidates(benchmark::State& state) {
  const TwoBalls s(static_cast<int>(state.range(0)), 1e-4 * static_cast<double>(state.range(1)));
  Candidates c;
  for (auto _ : state) {
    c = ipc::FindCandidates(s.a.vertices, s.a.topology, s.b.vertices, s.b.topology, s.params.dhat);
    benchmark::DoNotOptimize(c.edge_edge.data());
  }
  state.counters["triangles"] =
      static_cast<double>(s.a.topology.triangles.rows() + s.b.topology.triangles.rows());
  state.counters["candidates"] = c.size();
}
BENCHMARK(BM_IpcCandidates)
    ->ArgsProduct({{100, 196, 400, 1000, 2500, 5000}, {10}})
    ->Args({196, 50})
    ->Unit(benchmark::kMicrosecond);

void BM_IpcBarrierPotential(benchmark::State& state) {
  const TwoBalls s(static_cast<int>(state.range(0)), 1e-4 * static_cast<double>(state.range(1)));
  const Candidates c =
      ipc::FindCandidates(s.a.vertices, s.a.topology, s.b.vertices, s.b.topology, s.params.dhat);
  VecX ga = VecX::Zero(3 * s.a.vertices.rows()), gb = VecX::Zero(3 * s.b.vertices.rows());
  Totals t;
  for (auto _ : state) {
    ga.setZero();
    gb.setZero();
    t = EvaluatePotential(s.a, s.b, c, s.params, &ga, &gb);
    benchmark::DoNotOptimize(ga.data());
  }
  state.counters["triangles"] =
      static_cast<double>(s.a.topology.triangles.rows() + s.b.topology.triangles.rows());
  state.counters["candidates"] = c.size();
  state.counters["active"] = t.active;
  state.SetItemsProcessed(state.iterations() * c.size());
}
BENCHMARK(BM_IpcBarrierPotential)
    ->ArgsProduct({{100, 196, 400, 1000, 2500, 5000}, {10}})
    ->Args({196, 50})
    ->Args({1000, 50})
    ->Unit(benchmark::kMicrosecond);

// 16 balls of 388 triangles (6208 in total): a 15-ball triangle rack and the cue ball behind its
// apex. One evaluation: candidates between every pair of
// balls whose bounding spheres are within dhat, then the potentials as above.
void BM_IpcBilliards16(benchmark::State& state) {
  const int v = 196;  // 2 V - 4 = 388 triangles per ball
  // Centre spacing: the spheres 0.2 dhat apart, so the hulls (inside their spheres by at most the
  // tessellation's sagitta, 0.2 mm here) are 0.2 .. 0.64 mm apart where they face each other.
  const double pitch = 2.0 * kRadius + 0.2 * kDhat;
  std::vector<Vec3> centers;
  for (int row = 0; row < 5; ++row) {
    for (int k = 0; k <= row; ++k) {
      centers.emplace_back(row * pitch * std::sqrt(3.0) / 2.0, (k - 0.5 * row) * pitch, 0.0);
    }
  }
  centers.emplace_back(-pitch, 0.0, 0.0);
  std::vector<Ball> balls;
  for (size_t i = 0; i < centers.size(); ++i) {
    Ball b = Sphere(v, kRadius, Vec3::Zero());
    const Mat3 r = Eigen::AngleAxisd(0.3 * i, Vec3(1, 2, 3).normalized()).toRotationMatrix();
    for (int k = 0; k < b.vertices.rows(); ++k)
      b.vertices.row(k) = (r * PointAt(b.vertices, k) + centers[i]).transpose();
    balls.push_back(std::move(b));
  }
  BarrierParameters params;
  params.dhat = kDhat;
  std::vector<VecX> grads(balls.size());
  int pairs = 0, candidates = 0, active = 0;
  for (auto _ : state) {
    pairs = candidates = active = 0;
    for (auto& g : grads) g = VecX::Zero(3 * balls[0].vertices.rows());
    for (size_t i = 0; i < balls.size(); ++i) {
      for (size_t j = i + 1; j < balls.size(); ++j) {
        if ((centers[i] - centers[j]).norm() > 2.0 * kRadius + params.dhat) continue;
        ++pairs;
        const Candidates c = ipc::FindCandidates(balls[i].vertices, balls[i].topology,
                                                 balls[j].vertices, balls[j].topology, params.dhat);
        candidates += c.size();
        active += EvaluatePotential(balls[i], balls[j], c, params, &grads[i], &grads[j]).active;
      }
    }
    benchmark::DoNotOptimize(grads[0].data());
  }
  state.counters["triangles"] = 16.0 * static_cast<double>(balls[0].topology.triangles.rows());
  state.counters["ball_pairs"] = pairs;
  state.counters["candidates"] = candidates;
  state.counters["active"] = active;
}
BENCHMARK(BM_IpcBilliards16)->Unit(benchmark::kMicrosecond);

// The `ipc` model's step (models/ipc/ipc_simulator.h, default options: dt = 0.04 s, dhat = 1 mm,
// automatic kappa): a 0.4 m, 1 kg box settled on the ground (it starts 0.5 mm above and rests
// 0.25 s first; its corners and edges carry it inside dhat) sliding at 0.5 m/s, and the billiards
// scene of seed 004's Fig. 5 (scenes/longrange_scenes.h: 16 balls of 96 vertices on the ground,
// settled 0.5 s) with the cue ball rolling at 2 m/s towards the rack. Counters: Newton
// iterations and the last step's status.
State SettledIpc(Simulator& sim, State s, int steps) {
  for (int i = 0; i < steps; ++i) sim.Step(s, {});
  return s;
}

std::shared_ptr<const Scene> IpcBox() {
  SceneBuilder b("ipc_bench_box");
  b.SetGravity(Vec3(0.0, 0.0, -9.81));
  const Vec3 h = Vec3::Constant(0.2);
  const int box = b.AddFreeBody("box", SpatialInertia::SolidBox(1.0, h), SE3::FromTranslation(Vec3(0, 0, 0.2 + 5e-4)));
  b.AddCollider(box, Box{h}, SE3(), "box").friction = 0.5;
  b.AddGround(0.5);
  return b.Build();
}

void BM_IpcModelStep(benchmark::State& state, const std::string& which) {
  const bool box = which == "box";
  auto sim = MakeSimulator("ipc", box ? IpcBox() : BilliardsScene(), {});
  State s = SettledIpc(*sim, DefaultState(sim->scene()), box ? 6 : 12);
  if (box) {
    s.v[3] = 0.5;  // v_x of (omega, v)
  } else {
    s.v[6 * 15 + 4] = -2.0;  // the cue ball (the last body): v_y of (omega, v), towards the apex
  }
  TimeStepsFrom(state, *sim, s);
}
BENCHMARK_CAPTURE(BM_IpcModelStep, box, std::string("box"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_IpcModelStep, billiards, std::string("billiards"))->Unit(benchmark::kMillisecond);

void BM_IpcModelDerivatives(benchmark::State& state) {
  auto sim = MakeSimulator("ipc", IpcBox(), {});
  State s = SettledIpc(*sim, DefaultState(sim->scene()), 6);
  s.v[3] = 0.5;  // v_x of (omega, v)
  TimeStepAndDerivativesFrom(state, *sim, s);
}
BENCHMARK(BM_IpcModelDerivatives)->Unit(benchmark::kMillisecond);

}  // namespace ipc_bench
}  // namespace arena
