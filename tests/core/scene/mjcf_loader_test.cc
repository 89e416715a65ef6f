#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numbers>
#include <random>
#include <sstream>

#include "core/common/error.h"
#include "core/scene/loader.h"

#include "tests/core/scene/scene_test_util.h"
#include "tests/test_paths.h"

namespace arena {
namespace mjcf_loader_test {

using ::testing::HasSubstr;
using test::BodyPoses;
using test::ParseErrorMessage;

const std::string kData = ::arena::testing::TestDataDir() + "/scene/";
constexpr double kDeg = std::numbers::pi / 180.0;

std::string HalfCheetahPath() { return DartDataDir() + "/mjcf/openai/half_cheetah.xml.gz"; }


const Collider& FindCollider(const Scene& scene, const std::string& name) {
  for (const Collider& c : scene.colliders) {
    if (c.name == name) return c;
  }
  ADD_FAILURE() << "no collider " << name;
  static const Collider none;
  return none;
}

SE3 Rot(double angle, const Vec3& axis) {
  return SE3::FromRotation(Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix());
}

TEST(MjcfLoaderTest, HalfCheetah) {
  const Scene scene = LoadMjcf(HalfCheetahPath());
  EXPECT_EQ(scene.name, "cheetah");
  EXPECT_EQ(scene.nq(), 9);
  EXPECT_EQ(scene.nv(), 9);
  EXPECT_EQ(scene.model.num_bodies(), 9);  // torso's three joints make a chain of three bodies
  EXPECT_NEAR(scene.model.TotalMass(), 14.0, 1e-12);
  EXPECT_DOUBLE_EQ(scene.timestep_hint, 0.01);
  EXPECT_TRUE(scene.model.gravity().isApprox(Vec3(0, 0, -9.81)));

  const std::vector<std::string> joints = {"rootx", "rootz", "rooty", "bthigh", "bshin",
                                           "bfoot", "fthigh", "fshin", "ffoot"};
  const std::vector<JointType> types = {JointType::kPrismatic, JointType::kPrismatic,
                                        JointType::kRevolute, JointType::kRevolute,
                                        JointType::kRevolute, JointType::kRevolute,
                                        JointType::kRevolute, JointType::kRevolute,
                                        JointType::kRevolute};
  for (size_t i = 0; i < joints.size(); ++i) {
    const int b = scene.model.FindJoint(joints[i]);
    ASSERT_GE(b, 0) << joints[i];
    EXPECT_EQ(scene.model.body(b).idx_v, static_cast<int>(i)) << joints[i];  // file order
    EXPECT_EQ(scene.model.body(b).joint.type, types[i]) << joints[i];
  }
  const JointModel& rootx = scene.model.body(scene.model.FindJoint("rootx")).joint;
  EXPECT_TRUE(rootx.axis.isApprox(Vec3::UnitX()));
  EXPECT_TRUE(std::isinf(rootx.lower));
  EXPECT_EQ(rootx.stiffness, 0.0);
  EXPECT_EQ(rootx.armature, 0.0);
  EXPECT_TRUE(rootx.placement.translation().isApprox(Vec3(0, 0, 0.7)));
  EXPECT_EQ(scene.model.body(scene.model.FindJoint("rootx")).inertia.mass(), 0.0);
  EXPECT_EQ(scene.model.body(scene.model.FindJoint("rooty")).name, "torso");

  // Per-joint values from the file (defaults: armature .1, damping .01, stiffness 8).
  struct Expected {
    const char* name;
    double stiffness, damping, lower, upper;
  };
  for (const Expected& e : {Expected{"bthigh", 240, 6, -.52, 1.05},
                            Expected{"bshin", 180, 4.5, -.785, .785},
                            Expected{"bfoot", 120, 3, -.4, .785},
                            Expected{"fthigh", 180, 4.5, -1, .7},
                            Expected{"fshin", 120, 3, -1.2, .87},
                            Expected{"ffoot", 60, 1.5, -.5, .5}}) {
    const JointModel& j = scene.model.body(scene.model.FindJoint(e.name)).joint;
    EXPECT_EQ(j.stiffness, e.stiffness) << e.name;
    EXPECT_EQ(j.damping, e.damping) << e.name;
    EXPECT_EQ(j.armature, 0.1) << e.name;
    EXPECT_EQ(j.lower, e.lower) << e.name;
    EXPECT_EQ(j.upper, e.upper) << e.name;
    EXPECT_TRUE(j.axis.isApprox(Vec3::UnitY())) << e.name;
  }

  ASSERT_EQ(scene.nu(), 6);
  const std::vector<double> gears = {120, 90, 60, 120, 60, 30};
  for (int i = 0; i < 6; ++i) {
    const Actuator& a = scene.actuators[i];
    EXPECT_EQ(a.type, ActuatorType::kTorque);
    EXPECT_EQ(a.gear, gears[i]);
    EXPECT_EQ(a.ctrl_lower, -1.0);
    EXPECT_EQ(a.ctrl_upper, 1.0);
    EXPECT_EQ(scene.model.body(a.body).joint.name, joints[3 + i]);
  }

  // 9 colliders: the floor and 8 capsules, friction .4 from the default class.
  ASSERT_EQ(scene.colliders.size(), 9u);
  const Collider& floor = FindCollider(scene, "floor");
  EXPECT_EQ(floor.body, kWorldBody);
  EXPECT_EQ(TypeOf(floor.shape), ShapeType::kHalfSpace);
  for (const Collider& c : scene.colliders) {
    EXPECT_EQ(c.friction, 0.4) << c.name;
    if (c.name != "floor") {
      EXPECT_EQ(TypeOf(c.shape), ShapeType::kCapsule) << c.name;
    }
  }
  // contype 1 / conaffinity 0 on the body geoms: they touch the floor but not each other.
  const auto pairs = scene.CollisionPairs();
  EXPECT_EQ(pairs.size(), 8u);
  for (const auto& [a, b] : pairs) {
    EXPECT_TRUE(scene.colliders[a].name == "floor" || scene.colliders[b].name == "floor");
  }
  // The torso capsule from fromto="-.5 0 0 .5 0 0": along x, half length .5.
  const Collider& torso = FindCollider(scene, "torso");
  const auto& cap = std::get<Capsule>(torso.shape);
  EXPECT_DOUBLE_EQ(cap.radius, 0.046);
  EXPECT_DOUBLE_EQ(cap.half_length, 0.5);
  EXPECT_TRUE((torso.placement.rotation() * Vec3::UnitZ()).isApprox(Vec3::UnitX(), 1e-12));
  // The head capsule: axisangle 0 1 0 .87 (radians), pos .6 0 .1.
  const Collider& head = FindCollider(scene, "head");
  EXPECT_TRUE(head.placement.IsApprox(SE3(Rot(0.87, Vec3::UnitY()).rotation(), Vec3(.6, 0, .1)),
                                      1e-12));

  // Mass distribution: density-weighted capsule volumes, scaled to 14 kg in total.
  auto capsule_volume = [](double r, double hl) {
    return std::numbers::pi * r * r * (2 * hl + 4.0 / 3.0 * r);
  };
  const double r = 0.046;
  const double torso_volume = capsule_volume(r, 0.5) + capsule_volume(r, 0.15);
  const double all_volume = torso_volume + capsule_volume(r, .145) + capsule_volume(r, .15) +
                            capsule_volume(r, .094) + capsule_volume(r, .133) +
                            capsule_volume(r, .106) + capsule_volume(r, .07);
  EXPECT_NEAR(scene.model.body(scene.model.FindBody("torso")).inertia.mass(),
              14.0 * torso_volume / all_volume, 1e-12);
  EXPECT_TRUE(scene.default_q.isZero());
}

TEST(MjcfLoaderTest, FeaturesFile) {
  const Scene scene = LoadMjcf(kData + "features.xml");
  EXPECT_EQ(scene.name, "features");
  EXPECT_DOUBLE_EQ(scene.timestep_hint, 0.005);
  EXPECT_TRUE(scene.model.gravity().isApprox(Vec3(0, 0, -9)));
  // base (free), hip/hip_z (massless), hip, shin, slider, ball.
  ASSERT_EQ(scene.model.num_bodies(), 6);
  EXPECT_EQ(scene.model.body(1).name, "hip/hip_z");
  EXPECT_EQ(scene.model.body(1).inertia.mass(), 0.0);
  EXPECT_EQ(scene.nq(), 7 + 2 + 1 + 1 + 4);
  EXPECT_EQ(scene.nv(), 6 + 2 + 1 + 1 + 3);

  // eulerseq="zyx" with euler="0 0 90": the last (x) rotation is 90 degrees.
  const Quat q_base(Eigen::AngleAxisd(90 * kDeg, Vec3::UnitX()));
  VecX q0(7);
  q0 << 0, 0, 1, q_base.w(), q_base.x(), q_base.y(), q_base.z();
  EXPECT_TRUE(scene.default_q.head<7>().isApprox(q0, 1e-12));
  const int hip_z = scene.model.FindJoint("hip_z");
  EXPECT_NEAR(scene.default_q[scene.model.body(hip_z).idx_q], 10 * kDeg, 1e-15);  // ref

  // Defaults: main class joint damping/armature, "leg" childclass stiffness and range.
  const JointModel& jz = scene.model.body(hip_z).joint;
  EXPECT_EQ(jz.damping, 0.5);
  EXPECT_EQ(jz.armature, 0.01);
  EXPECT_EQ(jz.stiffness, 3.0);
  EXPECT_NEAR(jz.lower, -45 * kDeg, 1e-15);
  EXPECT_NEAR(jz.upper, 45 * kDeg, 1e-15);
  const JointModel& knee = scene.model.body(scene.model.FindJoint("knee")).joint;
  EXPECT_TRUE(std::isinf(knee.lower));
  EXPECT_NEAR(knee.spring_reference, 5 * kDeg, 1e-15);
  const JointModel& slide = scene.model.body(scene.model.FindJoint("slide")).joint;
  EXPECT_EQ(slide.type, JointType::kPrismatic);
  EXPECT_EQ(slide.lower, -0.1);  // autolimits: range given, so limited; not in degrees
  EXPECT_EQ(slide.upper, 0.2);
  EXPECT_EQ(scene.model.body(scene.model.FindJoint("ball")).joint.type, JointType::kBall);

  // Masses: explicit mass, explicit inertial, density from the default class (500).
  const auto mass = [&](const std::string& n) {
    return scene.model.body(scene.model.FindBody(n)).inertia.mass();
  };
  EXPECT_DOUBLE_EQ(mass("base"), 4.0);
  EXPECT_DOUBLE_EQ(mass("hip"), 1.5);
  EXPECT_NEAR(mass("shin"), 500 * std::numbers::pi * 0.02 * 0.02 * 0.2 + 0.1, 1e-12);
  EXPECT_NEAR(mass("slider"), 500 * 4.0 / 3.0 * std::numbers::pi * 0.05 * 0.04 * 0.03, 1e-12);
  EXPECT_NEAR(mass("ball"), 500 * 4.0 / 3.0 * std::numbers::pi * std::pow(0.05, 3), 1e-12);

  // Colliders: the visual-only marker is dropped.
  EXPECT_EQ(scene.colliders.size(), 7u);
  EXPECT_EQ(FindCollider(scene, "torso").friction, 0.7);
  EXPECT_EQ(FindCollider(scene, "thigh").friction, 0.3);  // childclass "leg"
  EXPECT_EQ(FindCollider(scene, "shin").friction, 0.9);   // class "foot"
  EXPECT_EQ(FindCollider(scene, "puck").friction, 0.7);
  EXPECT_TRUE(FindCollider(scene, "floor").placement.IsApprox(
      SE3(Rot(10 * kDeg, Vec3::UnitX()).rotation(), Vec3(0, 0, -0.1)), 1e-12));
  EXPECT_TRUE(FindCollider(scene, "puck").placement.rotation().isApprox(
      Rot(90 * kDeg, Vec3::UnitZ()).rotation(), 1e-12));
  EXPECT_TRUE(std::get<Ellipsoid>(FindCollider(scene, "puck").shape).radii.isApprox(
      Vec3(0.05, 0.04, 0.03)));

  // Collision filter: MuJoCo's (contype, conaffinity) rule, parent filter across the
  // two-joint chain, and the explicit exclude.
  auto can = [&](const std::string& a, const std::string& b) {
    int ia = -1, ib = -1;
    for (int i = 0; i < static_cast<int>(scene.colliders.size()); ++i) {
      if (scene.colliders[i].name == a) ia = i;
      if (scene.colliders[i].name == b) ib = i;
    }
    return scene.CanCollide(ia, ib);
  };
  EXPECT_TRUE(can("floor", "thigh"));
  EXPECT_TRUE(can("wall", "shin"));
  EXPECT_FALSE(can("floor", "wall"));
  EXPECT_FALSE(can("thigh", "shin"));   // contype 2 / conaffinity 1 on both
  EXPECT_FALSE(can("torso", "thigh"));  // MJCF parent and child
  EXPECT_FALSE(can("torso", "shin"));   // <exclude>
  EXPECT_TRUE(can("torso", "puck") == false);  // parent and child
  EXPECT_TRUE(can("thigh", "puck"));
  EXPECT_TRUE(can("torso", "bob") == false);

  // Actuators.
  ASSERT_EQ(scene.nu(), 3);
  EXPECT_EQ(scene.actuators[0].name, "m_hip");
  EXPECT_EQ(scene.actuators[0].gear, 50);
  EXPECT_EQ(scene.actuators[0].ctrl_lower, -2);
  EXPECT_EQ(scene.actuators[0].body, hip_z);
  EXPECT_TRUE(std::isinf(scene.actuators[1].ctrl_upper));
  EXPECT_EQ(scene.actuators[2].type, ActuatorType::kPdTarget);
  EXPECT_EQ(scene.actuators[2].kp, 100);
  EXPECT_EQ(scene.actuators[2].kd, 5);
  EXPECT_EQ(scene.actuators[2].ctrl_lower, -0.1);
  EXPECT_EQ(scene.actuators[2].ctrl_upper, 0.2);
}

// World poses of the geoms against MuJoCo's own composition rule: a body with joints j_k at
// anchors p_k moves by prod_k T(p_k) G_k(q_k - ref_k) T(-p_k).
TEST(MjcfLoaderTest, FeaturesKinematicsMatchMujocoConvention) {
  const Scene scene = LoadMjcf(kData + "features.xml");
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 20; ++trial) {
    VecX q = scene.model.Neutral();
    for (int i = 0; i < q.size(); ++i) q[i] = u(rng);
    const Quat base_quat = Quat(q[3], q[4], q[5], q[6]).normalized();
    const int ib = scene.model.body(scene.model.FindJoint("ball")).idx_q;
    const Quat ball_quat = Quat(q[ib], q[ib + 1], q[ib + 2], q[ib + 3]).normalized();
    auto qof = [&](const std::string& j) { return q[scene.model.body(scene.model.FindJoint(j)).idx_q]; };
    const std::vector<SE3> X_WB = BodyPoses(scene.model, q);
    auto world_pose = [&](const std::string& geom) {
      const Collider& c = FindCollider(scene, geom);
      return X_WB[c.body] * c.placement;
    };
    // MuJoCo's composition, from the file.
    const SE3 base(base_quat.toRotationMatrix(), q.head<3>());
    const SE3 hip = base * SE3::FromTranslation(Vec3(0.2, 0, 0)) *
                    SE3::FromTranslation(Vec3(0, 0, 0.05)) *
                    Rot(qof("hip_z") - 10 * kDeg, Vec3::UnitZ()) *
                    SE3::FromTranslation(Vec3(0, 0, -0.05)) *
                    SE3::FromTranslation(Vec3(0.02, 0, 0)) * Rot(qof("hip_y"), Vec3::UnitY()) *
                    SE3::FromTranslation(Vec3(-0.02, 0, 0));
    const SE3 thigh(Quat::FromTwoVectors(Vec3::UnitZ(), Vec3::UnitX()).toRotationMatrix(),
                    Vec3(0.15, 0, 0));
    EXPECT_TRUE(world_pose("thigh").IsApprox(hip * thigh, 1e-10));
    const SE3 shin = hip * SE3::FromTranslation(Vec3(0.3, 0, 0)) * Rot(qof("knee"), Vec3::UnitY());
    EXPECT_TRUE(world_pose("shin").IsApprox(shin * Rot(90 * kDeg, Vec3::UnitY()), 1e-10));
    const SE3 slider = base * SE3::FromTranslation(Vec3(-0.2 + qof("slide"), 0, 0));
    EXPECT_TRUE(world_pose("puck").IsApprox(slider * Rot(90 * kDeg, Vec3::UnitZ()), 1e-10));
    const SE3 ball = base * SE3::FromTranslation(Vec3(0, 0.3, 0.1)) *
                     SE3::FromRotation(ball_quat.toRotationMatrix()) *
                     SE3::FromTranslation(Vec3(0, 0, -0.1));
    EXPECT_TRUE(world_pose("bob").IsApprox(
        ball * SE3::FromTranslation(Vec3(0, 0, -0.2)) * Rot(30 * kDeg, Vec3::UnitX()), 1e-10));
    // The hip's explicit inertial sits at (0.1, 0, 0) in the MJCF hip frame.
    const int hip_body = scene.model.FindBody("hip");
    EXPECT_TRUE(X_WB[hip_body].Act(scene.model.body(hip_body).inertia.com())
                    .isApprox(hip.Act(Vec3(0.1, 0, 0)), 1e-10));
  }
}

// hopper.xml uses the legacy coordinate="global": poses, anchors and axes in the world.
TEST(MjcfLoaderTest, HopperGlobalCoordinates) {
  const Scene scene = LoadMjcf(DartDataDir() + "/mjcf/openai/hopper.xml");
  EXPECT_EQ(scene.nq(), 6);
  EXPECT_EQ(scene.nv(), 6);
  EXPECT_EQ(scene.nu(), 3);
  EXPECT_DOUBLE_EQ(scene.timestep_hint, 0.002);
  const int rootz = scene.model.FindJoint("rootz");
  EXPECT_DOUBLE_EQ(scene.default_q[scene.model.body(rootz).idx_q], 1.25);  // ref
  const JointModel& thigh = scene.model.body(scene.model.FindJoint("thigh_joint")).joint;
  EXPECT_TRUE(thigh.axis.isApprox(-Vec3::UnitY()));
  EXPECT_NEAR(thigh.lower, -150 * kDeg, 1e-15);
  EXPECT_EQ(thigh.upper, 0.0);
  EXPECT_EQ(FindCollider(scene, "foot_geom").friction, 2.0);
  EXPECT_EQ(FindCollider(scene, "floor").friction, 1.0);  // condim is not interpreted

  auto geom_center = [&](const VecX& q, const std::string& name) {
    const std::vector<SE3> X_WB = BodyPoses(scene.model, q);
    const Collider& c = FindCollider(scene, name);
    return (X_WB[c.body] * c.placement).translation();
  };
  VecX q = scene.default_q;
  // At qpos0 the geoms are where the file puts them.
  EXPECT_TRUE(geom_center(q, "torso_geom").isApprox(Vec3(0, 0, 1.25), 1e-12));
  EXPECT_TRUE(geom_center(q, "leg_geom").isApprox(Vec3(0, 0, 0.35), 1e-12));
  EXPECT_TRUE(geom_center(q, "foot_geom").isApprox(Vec3(0.065, 0, 0.1), 1e-12));
  EXPECT_DOUBLE_EQ(std::get<Capsule>(FindCollider(scene, "foot_geom").shape).half_length, 0.195);
  // rooty turns everything about its anchor (0, 0, 1.25) and the world y axis.
  const double theta = 0.4;
  q[scene.model.body(scene.model.FindJoint("rooty")).idx_q] = theta;
  const Vec3 anchor(0, 0, 1.25);
  const Vec3 expected = anchor + Rot(theta, Vec3::UnitY()).rotation() * (Vec3(0.065, 0, 0.1) - anchor);
  EXPECT_TRUE(geom_center(q, "foot_geom").isApprox(expected, 1e-12));
  // leg_joint (axis -y at (0, 0, 0.6)) turns the foot about that point.
  q = scene.default_q;
  q[scene.model.body(scene.model.FindJoint("leg_joint")).idx_q] = theta;
  const Vec3 knee(0, 0, 0.6);
  const Vec3 foot = knee + Rot(theta, -Vec3::UnitY()).rotation() * (Vec3(0.065, 0, 0.1) - knee);
  EXPECT_TRUE(geom_center(q, "foot_geom").isApprox(foot, 1e-12));
}

std::string WriteTempFile(const std::string& name, const std::string& text) {
  static const test::ScratchDir dir;  // this process's own, removed at exit
  const std::string path = dir / name;
  std::ofstream(path) << text;
  return path;
}

// Oracle: MuJoCo's filter (contype_a & conaffinity_b) || (contype_b & conaffinity_a) against
// Scene::CanCollide on random bitmasks, one free body per geom.
TEST(MjcfLoaderTest, CollisionFilterMatchesMujocoRule) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> bits(0, 7);
  for (int trial = 0; trial < 10; ++trial) {
    std::vector<std::pair<int, int>> masks;
    std::ostringstream xml;
    xml << "<mujoco><worldbody>\n";
    for (int i = 0; i < 12; ++i) {
      const int contype = bits(rng), conaffinity = bits(rng);
      masks.emplace_back(contype, conaffinity);
      xml << "<body name='b" << i << "' pos='" << i << " 0 1'><freejoint/>"
          << "<geom name='g" << i << "' size='0.1' contype='" << contype << "' conaffinity='"
          << conaffinity << "'/></body>\n";
    }
    xml << "</worldbody></mujoco>\n";
    const Scene scene = LoadMjcf(WriteTempFile("filter.xml", xml.str()));
    std::vector<int> geom_of_collider;
    for (const Collider& c : scene.colliders) geom_of_collider.push_back(std::stoi(c.name.substr(1)));
    int visual_only = 0;
    for (const auto& [t, a] : masks) visual_only += t == 0 && a == 0;
    ASSERT_EQ(scene.colliders.size(), masks.size() - visual_only);
    for (size_t i = 0; i < scene.colliders.size(); ++i) {
      for (size_t j = i + 1; j < scene.colliders.size(); ++j) {
        const auto [ti, ai] = masks[geom_of_collider[i]];
        const auto [tj, aj] = masks[geom_of_collider[j]];
        const bool mujoco = (ti & aj) || (tj & ai);
        EXPECT_EQ(scene.CanCollide(static_cast<int>(i), static_cast<int>(j)), mujoco)
            << "contype/conaffinity " << ti << "/" << ai << " vs " << tj << "/" << aj;
      }
    }
  }
}

TEST(MjcfLoaderTest, UnsupportedPhysicsIsNamed) {
  struct Case {
    const char* body;
    const char* expected;
  };
  const std::vector<Case> cases = {
      {"<body><joint type='hinge' frictionloss='0.1'/><geom size='0.1'/></body>", "frictionloss"},
      {"<body><joint type='ball' damping='1'/><geom size='0.1'/></body>", "damping on a ball joint"},
      {"<body><joint type='slide'/><freejoint/><geom size='0.1'/></body>", "free joint must be the only"},
      {"<body><body><freejoint/><geom size='0.1'/></body></body>", "child of <worldbody>"},
      {"<body><joint/><geom type='mesh' mesh='m'/></body>", "geom type 'mesh'"},
      {"<body><joint/><geom type='plane' size='1 1 1'/></body>", "planes are only supported"},
      {"<body><joint/></body>", "moves but has no mass"},
      {"<body><joint class='nope'/><geom size='0.1'/></body>", "unknown default class 'nope'"},
      {"<body><joint/><geom size='0.1' quat='1 0 0 0' euler='0 0 1'/></body>", "more than one of"},
      {"<body><joint range='1 0'/><geom size='0.1'/></body>", "lower limit exceeds upper"},
      {"<body><composite type='grid'/></body>", "unsupported element <composite>"},
  };
  for (const Case& c : cases) {
    const std::string path = WriteTempFile(
        "unsupported.xml", std::string("<mujoco>\n<worldbody>\n") + c.body + "\n</worldbody>\n</mujoco>\n");
    const std::string msg = ParseErrorMessage([&] { LoadMjcf(path); });
    EXPECT_THAT(msg, HasSubstr(c.expected)) << c.body;
    EXPECT_THAT(msg, HasSubstr("unsupported.xml")) << c.body;
    EXPECT_THAT(msg, HasSubstr("line 3")) << c.body;
  }
  // Actuators: a missing joint, a multi-DOF joint, a force-limited motor.
  const std::string bodies =
      "<worldbody><body><joint name='h'/><joint name='b' type='ball'/><geom size='0.1'/></body>"
      "</worldbody>";
  for (const auto& [actuator, expected] :
       std::vector<std::pair<std::string, std::string>>{
           {"<motor joint='x'/>", "no joint named 'x'"},
           {"<motor joint='b'/>", "not a hinge or slide"},
           {"<motor joint='h' forcerange='-1 1'/>", "force limits"},
           {"<general joint='h'/>", "unsupported element <general>"}}) {
    const std::string path = WriteTempFile(
        "actuator.xml", "<mujoco>" + bodies + "<actuator>" + actuator + "</actuator></mujoco>");
    EXPECT_THAT(ParseErrorMessage([&] { LoadMjcf(path); }), HasSubstr(expected)) << actuator;
  }
}

// <velocity kv=...> is a velocity target, tau = kv (u - qdot); kv defaults to 1 as in MuJoCo.
TEST(MjcfLoaderTest, VelocityActuatorIsAVelocityTarget) {
  const std::string path = WriteTempFile(
      "velocity.xml",
      "<mujoco><worldbody><body><joint name='h'/><geom size='0.1'/></body></worldbody><actuator>"
      "<velocity name='servo' joint='h' kv='7' ctrlrange='-2 2'/><velocity joint='h'/></actuator></mujoco>");
  const Scene scene = LoadMjcf(path);
  ASSERT_EQ(scene.nu(), 2);
  EXPECT_EQ(scene.actuators[0].type, ActuatorType::kVelocityTarget);
  EXPECT_EQ(scene.actuators[0].kd, 7);
  EXPECT_EQ(scene.actuators[0].kp, 0);
  EXPECT_EQ(scene.actuators[0].ctrl_upper, 2);
  EXPECT_EQ(scene.actuators[1].kd, 1);
  const std::string bad = WriteTempFile(
      "velocity_gear.xml",
      "<mujoco><worldbody><body><joint name='h'/><geom size='0.1'/></body></worldbody><actuator>"
      "<velocity joint='h' gear='2'/></actuator></mujoco>");
  EXPECT_THAT(ParseErrorMessage([&] { LoadMjcf(bad); }), HasSubstr("gear != 1"));
}

TEST(MjcfLoaderTest, UnknownPhysicsElementNamesElementAndLine) {
  const std::string msg = ParseErrorMessage([] { LoadMjcf(kData + "unknown_element.xml"); });
  EXPECT_THAT(msg, HasSubstr("unknown_element.xml"));
  EXPECT_THAT(msg, HasSubstr("<equality>"));
  EXPECT_THAT(msg, HasSubstr("line 12"));
  EXPECT_THAT(msg, HasSubstr("unsupported element"));
}

TEST(MjcfLoaderTest, BadNumberNamesGeomAndAttribute) {
  const std::string msg = ParseErrorMessage([] { LoadMjcf(kData + "bad_number.xml"); });
  EXPECT_THAT(msg, HasSubstr("bad_number.xml"));
  EXPECT_THAT(msg, HasSubstr("<geom> 'box_geom' (line 5)"));
  EXPECT_THAT(msg, HasSubstr("size"));
  EXPECT_THAT(msg, HasSubstr("'0.3x' is not a finite number"));
}

TEST(MjcfLoaderTest, UnknownAttributeIsRejected) {
  const std::string msg = ParseErrorMessage([] { LoadMjcf(kData + "unknown_attribute.xml"); });
  EXPECT_THAT(msg, HasSubstr("unknown_attribute.xml"));
  EXPECT_THAT(msg, HasSubstr("shellinertia"));
  EXPECT_THAT(msg, HasSubstr("line 5"));
}

TEST(MjcfLoaderTest, MalformedXmlAndMissingFile) {
  EXPECT_THAT(ParseErrorMessage([] { LoadMjcf(kData + "bad_xml.urdf"); }),
              HasSubstr("malformed XML"));
  EXPECT_THAT(ParseErrorMessage([] { LoadMjcf(kData + "nothing_here.xml"); }),
              HasSubstr("file not found"));
  EXPECT_THAT(ParseErrorMessage([] { LoadMjcf(kData + "missing_link.urdf"); }),
              HasSubstr("<mujoco>"));
}

}  // namespace mjcf_loader_test
}  // namespace arena
