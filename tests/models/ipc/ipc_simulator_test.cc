// The `ipc` model (models/ipc/ipc_simulator.h): meshes never interpenetrate (the exact mesh
// distance of core/geometry/mesh_distance.h stays positive for every body pair at every step)
// when a box is dropped on the ground and when two boxes collide, with either barrier; the
// dropped box comes to rest inside the barrier's reach; the step's derivatives with friction
// between two moving bodies and the ground match Ridders differences; the automatic kappa is
// what its rule says; at rest the reported contact force carries the weight; a passed deadline
// stops the Newton solve; bad options are refused.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

#include "core/common/deadline.h"
#include "core/common/error.h"
#include "core/common/options.h"
#include "core/geometry/mesh.h"
#include "core/geometry/mesh_distance.h"
#include "models/finite_difference_derivatives.h"
#include "models/ipc/ipc_simulator.h"
#include "models/registry.h"
#include "scenes/force_profile_scenes.h"
#include "tests/models/ipc/ipc_test_scenes.h"

namespace arena {
namespace ipc_simulator_test {

using ipc_testing::BodyPoses;

// The smallest exact distance between meshes of different bodies (the ground included).
double SmallestGap(const IpcSimulator& sim, const VecX& q) {
  const std::vector<SE3> poses = BodyPoses(sim.scene(), q);
  const std::vector<ColliderMesh>& meshes = sim.meshes();
  double smallest = std::numeric_limits<double>::infinity();
  for (size_t a = 0; a < meshes.size(); ++a) {
    for (size_t b = a + 1; b < meshes.size(); ++b) {
      if (meshes[a].body == meshes[b].body) continue;
      const TriangleMesh A = MakeTriangleMesh(meshes[a].vertices, meshes[a].triangles);
      const TriangleMesh B = MakeTriangleMesh(meshes[b].vertices, meshes[b].triangles);
      const SE3 Xa = meshes[a].body == kWorldBody ? SE3() : poses[meshes[a].body];
      const SE3 Xb = meshes[b].body == kWorldBody ? SE3() : poses[meshes[b].body];
      smallest = std::min(smallest, MeshDistance(*A.data, Xa, *B.data, Xb).distance);
    }
  }
  return smallest;
}

std::shared_ptr<const Scene> DroppedBox() {
  SceneBuilder b("ipc_dropped_box");
  b.SetGravity(Vec3(0.0, 0.0, -9.81));
  const Vec3 h = Vec3::Constant(0.2);
  const Mat3 R = (Eigen::AngleAxisd(0.4, Vec3::UnitX()) * Eigen::AngleAxisd(-0.3, Vec3::UnitY())).toRotationMatrix();
  const int box = b.AddFreeBody("box", SpatialInertia::SolidBox(1.0, h), SE3(R, Vec3(0.0, 0.0, 0.6)));
  b.AddCollider(box, Box{h}, SE3(), "box").friction = 0.5;
  b.AddGround(0.5);
  return b.Build();
}

// Two boxes thrown at each other 0.5 m above the ground, off-centre and spinning.
std::shared_ptr<const Scene> CollidingBoxes() {
  SceneBuilder b("ipc_colliding_boxes");
  b.SetGravity(Vec3(0.0, 0.0, -9.81));
  const Vec3 h = Vec3::Constant(0.15);
  const int a = b.AddFreeBody("a", SpatialInertia::SolidBox(1.0, h),
                              SE3(Eigen::AngleAxisd(0.3, Vec3(1, 1, 0).normalized()).toRotationMatrix(), Vec3(-0.45, 0.0, 0.5)));
  b.AddCollider(a, Box{h}, SE3(), "a").friction = 0.4;
  const int c = b.AddFreeBody("b", SpatialInertia::SolidBox(0.7, h),
                              SE3(Eigen::AngleAxisd(-0.5, Vec3(0, 1, 1).normalized()).toRotationMatrix(), Vec3(0.45, 0.08, 0.55)));
  b.AddCollider(c, Box{h}, SE3(), "b").friction = 0.4;
  b.AddGround(0.6);
  return b.Build();
}

struct Rollout {
  double smallest_gap = std::numeric_limits<double>::infinity();
  double last_gap = 0.0;
  State last;
};

Rollout Simulate(IpcSimulator& sim, State s, int steps) {
  Rollout run;
  for (int i = 0; i < steps; ++i) {
    const StepReport r = sim.Step(s, {});
    EXPECT_EQ(r.status, StepStatus::kOk) << "step " << i << ": " << r.message;
    run.last_gap = SmallestGap(sim, s.q);
    run.smallest_gap = std::min(run.smallest_gap, run.last_gap);
    EXPECT_GT(run.last_gap, 0.0) << "step " << i;
  }
  run.last = s;
  return run;
}

class IpcSimulation : public ::testing::TestWithParam<IpcBarrier> {
 protected:
  IpcModelOptions Options() const {
    IpcModelOptions o;
    o.barrier = GetParam();
    return o;
  }
};

TEST_P(IpcSimulation, DroppedBoxNeverInterpenetratesAndComesToRest) {
  const auto scene = DroppedBox();
  IpcSimulator sim(scene, Options());
  State s = DefaultState(*scene);
  s.v << 0.5, -0.2, -1.0, 1.0, 2.0, -1.5;  // tumbling on its way down
  // 3 s at 25 Hz; the global barrier's every-pair sum is 100 times dearer: landing and bounces.
  const bool global = GetParam() == IpcBarrier::kGlobal;
  const Rollout run = Simulate(sim, s, global ? 25 : 75);
  RecordProperty("smallest_gap_m", options_detail::FormatDouble(run.smallest_gap));
  RecordProperty("last_gap_m", options_detail::FormatDouble(run.last_gap));
  if (global) return;
  EXPECT_LT(run.last_gap, sim.options().dhat);  // resting inside the barrier's reach
  EXPECT_LT(run.last.v.norm(), 1e-2);
  // At rest the barrier carries the box's weight: the ground's force on it (ContactForces).
  const std::vector<BodyPairForce> forces = sim.ContactForces();
  ASSERT_EQ(forces.size(), 1u);
  const BodyPairForce& f = forces[0].body_a == 0 ? forces[0] : BodyPairForce{0, kWorldBody, -forces[0].force_on_a};
  EXPECT_EQ(f.body_b, kWorldBody);
  EXPECT_NEAR(f.force_on_a.z(), 9.81, 0.02 * 9.81);
  EXPECT_LT(f.force_on_a.head<2>().norm(), 0.02 * 9.81);
  RecordProperty("resting_force_z_N", options_detail::FormatDouble(f.force_on_a.z()));
}

TEST_P(IpcSimulation, CollidingBoxesNeverInterpenetrate) {
  const auto scene = CollidingBoxes();
  IpcSimulator sim(scene, Options());
  State s = DefaultState(*scene);
  s.v << 3.0, 0.0, 0.5, 0.0, 1.0, 2.0,  // a: towards b, spinning
      -3.0, 0.0, 0.3, 1.5, 0.0, -1.0;   // b: towards a
  const Rollout run = Simulate(sim, s, GetParam() == IpcBarrier::kGlobal ? 12 : 40);  // they meet at 0.1 s
  RecordProperty("smallest_gap_m", options_detail::FormatDouble(run.smallest_gap));
  // They did meet: their velocities along x turned around or stopped.
  EXPECT_LT(run.last.q[0], 0.0);
  EXPECT_GT(run.last.q[7], run.last.q[0]);
}

TEST_P(IpcSimulation, StepDerivativesWithFrictionMatchRidders) {
  // With the global barrier (every pair, 100 times dearer) box A alone on its corner.
  const bool global = GetParam() == IpcBarrier::kGlobal;
  const auto scene = ipc_testing::TwoBoxesScene(!global);
  IpcSimulator sim(scene, Options());
  State s = DefaultState(*scene);
  s.v.head<6>() << 0.3, 0.1, -0.1, 0.2, -0.3, 0.1;                 // A sliding and turning on its corner
  if (!global) s.v.tail<6>() << 0.25, 0.05, -0.12, 0.1, 0.0, -0.2;  // B sliding on A
  StepDerivatives analytic;
  sim.Derivatives(s, {}, &analytic);
  EXPECT_GT(sim.ipc_contact().friction_pairs(), 0);
  // The global barrier gives every pair friction, some of them slipping within the mollifier's
  // eps_u = 40 um, and the step curves on that scale: Ridders from 10 um misses by 2e-2, forward
  // differences by 2e-3 at h = 1e-7 and 2e-4 at 1e-8, central ones by 2e-5 at 1e-7 and 2e-7 at
  // 1e-8 (converging to the analytical derivatives), so the global case uses the latter.
  FdOptions fd;
  if (global) {
    fd.step = 1e-8;
  } else {
    fd.method = FdMethod::kRidders;
    fd.ridders_step = 1e-5;
  }
  const StepDerivatives reference = FiniteDifferenceStepDerivatives(sim, s, {}, fd);
  const double error = MaxStepDerivativeError(analytic, reference);
  EXPECT_LE(error, 1e-6);
  RecordProperty("derivative_error", options_detail::FormatDouble(error));
}

INSTANTIATE_TEST_SUITE_P(Barriers, IpcSimulation, ::testing::Values(IpcBarrier::kClampedLog, IpcBarrier::kGlobal),
                         [](const auto& info) { return std::string(ToString(info.param)); });

TEST(IpcSimulator, AutomaticKappaCarriesTheMeanWeightWithOnePairAtHalfDhat) {
  const auto scene = CollidingBoxes();  // 1 kg and 0.7 kg
  const double dhat = 2e-3, s = dhat / 2, weight = 0.85 * 9.81;
  const double kappa = IpcSimulator::AutomaticKappa(*scene, dhat, IpcBarrier::kClampedLog);
  // A point s above a triangle: the force is kappa |db/ds| = kappa |b'(s^2)| 2 s.
  ipc::BarrierParameters barrier;
  barrier.dhat = dhat;
  ipc::Vec12 g;
  ipc::PointTriangleBarrier(Vec3(0.1, 0.1, s), Vec3::Zero(), Vec3(1, 0, 0), Vec3(0, 1, 0), barrier, &g);
  EXPECT_NEAR(kappa * std::abs(g[2]), weight, 1e-9 * weight);
  const double global = IpcSimulator::AutomaticKappa(*scene, dhat, IpcBarrier::kGlobal);
  EXPECT_NEAR(global / (s * s), weight, 1e-9 * weight);
}

// A passed wall-clock deadline (core/common/deadline.h) stops the step's Newton solve: Derivatives,
// which solves without Simulator::Step's own check, says so instead of differentiating.
TEST(IpcSimulator, NewtonHonoursThePassedDeadline) {
  const auto scene = ipc_testing::TwoBoxesScene();
  IpcSimulator sim(scene, {});
  const State s = DefaultState(*scene);
  StepDerivatives d;
  {
    const ScopedDeadline deadline(1e-9, "the test's budget");
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    try {
      sim.Derivatives(s, {}, &d);
      ADD_FAILURE() << "no error after the deadline";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("deadline"), std::string::npos) << e.what();
    }
    State t = s;
    const StepReport r = sim.Step(t, {});
    EXPECT_EQ(r.status, StepStatus::kError);
    EXPECT_EQ(t.q, s.q);
  }
  EXPECT_NO_THROW(sim.Derivatives(s, {}, &d));
}

// A start with crossing surfaces or one mesh inside another is refused (the barrier of
// primitive distances stays finite there), and the state is kept; a clear start steps.
TEST(IpcSimulator, IntersectingStartIsAFailedStep) {
  for (const Vec3& p : {Vec3(0.1, 0.05, 0.0), Vec3(0.0, 0.01, 0.0), Vec3(0.1, -0.06, 0.0)}) {  // crossing, inside
    auto sim = MakeSimulator("ipc", ForceProbeScene(), {{"timestep", "0.001"}});
    State s = DefaultState(sim->scene());
    s.q.head<3>() = p;
    const State start = s;
    const StepReport r = sim->Step(s, {});
    EXPECT_EQ(r.status, StepStatus::kError) << p.transpose();
    EXPECT_NE(r.message.find("infeasible"), std::string::npos) << r.message;
    EXPECT_EQ(s.q, start.q);
  }
  auto sim = MakeSimulator("ipc", ForceProbeScene(), {});
  State s = DefaultState(sim->scene());
  EXPECT_TRUE(sim->Step(s, {}).ok());
}

TEST(IpcSimulator, OptionsAreCheckedAndRegistered) {
  const ModelInfo& info = FindModel("ipc");
  EXPECT_THROW(info.validate({{"dhat", "0"}}), InvalidArgument);
  EXPECT_THROW(info.validate({{"kappa", "-1"}}), InvalidArgument);
  EXPECT_THROW(info.validate({{"barrier", "quadratic"}}), InvalidArgument);
  EXPECT_THROW(info.validate({{"friction_eps_v", "0"}}), InvalidArgument);
  EXPECT_NO_THROW(info.validate({{"barrier", "global"}, {"kappa", "1e-6"}, {"dhat", "2e-3"}}));
  auto sim = MakeSimulator("ipc", ipc_testing::TwoBoxesScene(), {{"kappa", "123"}});
  EXPECT_EQ(static_cast<IpcSimulator&>(*sim).kappa(), 123.0);
  EXPECT_FALSE(info.capabilities.smooth);
  EXPECT_TRUE(info.capabilities.has_derivatives());
}

}  // namespace ipc_simulator_test
}  // namespace arena
