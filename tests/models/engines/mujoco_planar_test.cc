// Planar scenes on the `mujoco` model: a planar joint is MuJoCo's slide x, slide y, hinge z, and
// the 2D shapes are extruded (models/engines/mujoco/scene_to_mjcf.h). Pinned here: the state
// map (our body-frame planar velocity against MuJoCo's world rates) on free flight against
// `penalty` and the closed form, rest heights on the half-plane, PD targets on world
// coordinates, the torque MuJoCo cannot apply, and that the grasp scene steps.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/scene/scene_builder.h"
#include "models/engines/mujoco/mujoco_simulator.h"
#include "models/registry.h"
#include "scenes/silico_scenes.h"
#include "tests/models/engines/engine_test_support.h"

namespace arena {
namespace mujoco_planar_test {

using ::testing::HasSubstr;
using engine_test::MaxAbsDifference;
using engine_test::Simulate;
using engine_test::UnsupportedMessage;

// A 1 kg disk of radius 0.1 in the plane (no colliders below it: free flight).
std::shared_ptr<const Scene> PlanarPuck(const Vec3& gravity) {
  SceneBuilder b("puck");
  b.SetGravity(gravity);
  const int body = b.AddPlanarBody("puck", 1.0, 0.005, Vec3(0.1, 2.0, 0.7));
  b.AddCollider(body, Disk2{0.1}, SE3(), "puck");
  return b.Build();
}

// Without rotation both models are semi-implicit Euler on x and y: 100 steps agree to round-off,
// which needs the body-frame velocity to be turned into MuJoCo's world rates and back.
TEST(MujocoPlanar, TranslationMatchesPenalty) {
  auto scene = PlanarPuck(Vec3(0, -9.81, 0));
  State s = DefaultState(*scene);
  s.v << 0.0, 1.0, -0.5;  // omega, body-frame v at theta = 0.7
  auto penalty = MakeSimulator("penalty", scene, {{"timestep", "0.002"}});
  auto mujoco = MakeSimulator("mujoco", scene, {{"timestep", "0.002"}});
  const State p = Simulate(*penalty, s, 0.2), m = Simulate(*mujoco, s, 0.2);
  EXPECT_LT(MaxAbsDifference(p, m), 1e-12) << p.q.transpose() << " vs " << m.q.transpose();
}

// Spinning while translating, MuJoCo's origin moves on the straight line of its world velocity
// (its slides do not turn with the body), the angle grows at omega, and the velocity read back
// is that world velocity in the turned body frame.
TEST(MujocoPlanar, SpinningBodyMovesOnTheWorldLine) {
  auto scene = PlanarPuck(Vec3::Zero());
  State s = DefaultState(*scene);
  const double omega = 3.0;
  const Vec2 v_W(0.4, -0.3);
  s.v << omega, Eigen::Rotation2Dd(-s.q[2]) * v_W;
  auto mujoco = MakeSimulator("mujoco", scene, {{"timestep", "0.01"}});
  const State m = Simulate(*mujoco, s, 0.5);
  EXPECT_TRUE(m.q.head<2>().isApprox(s.q.head<2>() + 0.5 * v_W, 1e-12)) << m.q.transpose();
  EXPECT_NEAR(m.q[2], s.q[2] + 0.5 * omega, 1e-12);
  EXPECT_NEAR(m.v[0], omega, 1e-12);
  EXPECT_TRUE((Eigen::Rotation2Dd(m.q[2]) * m.v.segment<2>(1)).isApprox(v_W, 1e-12));
}

// A square (a prism in MuJoCo) and a disk (a cylinder) dropped on the half-plane y <= 0 rest at
// their height within MuJoCo's soft penetration (2 mm, as the spatial shapes).
TEST(MujocoPlanar, ShapesRestOnTheHalfPlane) {
  Eigen::Matrix<double, 4, 2> A;
  A << 1, 0, 0, 1, -1, 0, 0, -1;
  for (const bool disk : {false, true}) {
    SceneBuilder b(disk ? "disk" : "square");
    b.SetGravity(Vec3(0, -9.81, 0));
    const int body = b.AddPlanarBody("body", 1.0, 0.02, Vec3(0.0, 0.26, 0.0));
    if (disk) {
      b.AddCollider(body, Disk2{0.25}, SE3(), "body");
    } else {
      b.AddCollider(body, MakePolygon2(A, VecX::Constant(4, 0.25)), SE3(), "body");
    }
    b.AddGroundPlane2();
    auto scene = b.Build();
    auto sim = MakeSimulator("mujoco", scene, {});
    const State s = Simulate(*sim, DefaultState(*scene), 2.0);
    EXPECT_LT(s.q[1], 0.25) << (disk ? "disk" : "square");
    EXPECT_GT(s.q[1], 0.25 - 2e-3) << (disk ? "disk" : "square");
    EXPECT_NEAR(s.q[0], 0.0, 1e-4) << (disk ? "disk" : "square");
    EXPECT_LT(s.v.norm(), 1e-3) << (disk ? "disk" : "square");
  }
}

// PD targets on theta, x and y of a body turned by 2 rad settle it at the targets: x and y are
// world coordinates (actuation.h), pulled along the world axes whatever the body's angle.
TEST(MujocoPlanar, PdTargetsSettleOnWorldCoordinates) {
  SceneBuilder b("pd_puck");
  const int body = b.AddPlanarBody("puck", 1.0, 0.005, Vec3(0.0, 0.0, 2.0));
  b.AddCollider(body, Disk2{0.1}, SE3(), "puck");
  for (int dof : {0, 1, 2}) {
    Actuator a;
    a.name = "target" + std::to_string(dof);
    a.type = ActuatorType::kPdTarget;
    a.body = body;
    a.dof = dof;
    a.kp = dof == 0 ? 0.5 : 100.0;
    a.kd = dof == 0 ? 0.1 : 20.0;
    b.AddActuator(a);
  }
  auto scene = b.Build();
  const Control targets{Vec3(2.5, 0.3, -0.2)};  // theta, x, y
  for (const std::string model : {"mujoco", "penalty"}) {
    auto sim = MakeSimulator(model, scene, {{"timestep", "0.001"}});
    const State s = Simulate(*sim, DefaultState(*scene), 3.0, targets);
    EXPECT_TRUE(s.q.isApprox(Vec3(0.3, -0.2, 2.5), 1e-4)) << model << ": " << s.q.transpose();
  }
}

// MuJoCo's joint transmissions push along the plane's axes, not along a turning body's own.
TEST(MujocoPlanar, TorqueAlongTheBodyAxisIsUnsupported) {
  SceneBuilder b("thruster");
  const int body = b.AddPlanarBody("ship", 1.0, 0.005, Vec3::Zero());
  b.AddCollider(body, Disk2{0.1}, SE3(), "ship");
  Actuator a;
  a.name = "thrust";
  a.body = body;
  a.dof = 1;
  b.AddActuator(a);
  auto scene = b.Build();
  EXPECT_THAT(UnsupportedMessage([&] { MujocoSimulator sim(scene, MujocoOptions{}); }),
              HasSubstr("actuator 'thrust' pushes the planar body 'ship' along its own axis"));
}

// The grasp scene (seed 000 Fig. 1: prisms, cylinders or octagon prisms, a y-normal ground, PD
// fingertips) translates and holds the star on the ground: 1 s of small steps from the start.
TEST(MujocoPlanar, GraspSceneStepsAndTheStarRests) {
  for (const bool disks : {false, true}) {
    auto scene = GraspScene({.disk_fingertips = disks});
    auto sim = MakeSimulator("mujoco", scene, {{"timestep", "0.001"}});
    const State start = DefaultState(*scene);
    VecX u(6);
    u << start.q[3], start.q[4], start.q[5], start.q[6], start.q[7], start.q[8];
    const State s = Simulate(*sim, start, 1.0, Control{u});
    EXPECT_TRUE(s.q.allFinite());
    EXPECT_NEAR(s.q[0], start.q[0], 1e-3) << "the star stays put";
    EXPECT_LT(std::abs(s.q[2] - start.q[2]), 1e-3);
  }
}

}  // namespace mujoco_planar_test
}  // namespace arena
