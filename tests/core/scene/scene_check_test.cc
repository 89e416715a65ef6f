// Scene::Check's rules on scenes built in code: every physically invalid scene is rejected by
// SceneBuilder::Build naming the body, joint, collider or actuator and the problem, and the
// warnings flag legal but suspicious scenes. The same rules run on loaded files
// (loader_validation_test.cc).
#include "core/scene/scene.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <limits>

#include "core/common/error.h"
#include "core/geometry/mesh.h"
#include "core/scene/scene_builder.h"

namespace arena {
namespace scene_check_test {

using ::testing::HasSubstr;

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

JointModel Joint(JointType type, const std::string& name, const Vec3& axis = Vec3::UnitZ()) {
  JointModel j;
  j.type = type;
  j.name = name;
  j.axis = axis;
  return j;
}

// A valid base scene: a free box with a box collider over the ground, and a hinged arm below it
// with a torque actuator; each case breaks one thing.
struct BaseScene {
  SceneBuilder b{"case"};
  int box = -1;
  int arm = -1;
  BaseScene() {
    box = b.AddFreeBody("box", SpatialInertia::SolidBox(1.0, Vec3::Constant(0.1)),
                        SE3::FromTranslation(Vec3(0, 0, 1)));
    b.AddCollider(box, Box{Vec3::Constant(0.1)}, SE3(), "lid");
    b.AddGround();
    arm = b.AddBody("arm", box, Joint(JointType::kRevolute, "elbow", Vec3::UnitY()),
                    SpatialInertia::SolidSphere(0.5, 0.05));
    Actuator a;
    a.name = "motor";
    a.body = arm;
    b.AddActuator(a);
  }
};

TriangleMesh FlatSquare() {
  PointsX3 V(4, 3);
  V << 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0;
  TrianglesX3 T(2, 3);
  T << 0, 1, 2, 0, 2, 3;
  return MakeTriangleMesh(V, T);
}

struct Case {
  const char* name;
  std::function<void(BaseScene&)> breakit;
  std::vector<std::string> expected;  // substrings of the message: the element and the problem
};

// Runs `c` and returns the InvalidArgument message (AddBody rejects non-finite inertias itself;
// everything else comes from Build's Scene::Validate).
std::string BuildError(const Case& c) {
  try {
    BaseScene s;
    c.breakit(s);
    s.b.Build();
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "";
}

TEST(SceneCheckTest, CodeBuiltScenesAreRejectedNamingTheElementAndTheProblem) {
  const auto set_inertia = [](const SpatialInertia& I) {
    return [I](BaseScene& s) { s.b.scene().model.set_inertia(s.box, I); };
  };
  const auto set_lid = [](const Shape& shape) {
    return [shape](BaseScene& s) { s.b.scene().colliders[0].shape = shape; };
  };
  const auto add_arm2 = [](const JointModel& j) {
    return [j](BaseScene& s) { s.b.AddBody("arm2", s.arm, j, SpatialInertia::SolidSphere(0.1, 0.02)); };
  };
  JointModel nan_axis = Joint(JointType::kRevolute, "wrist", Vec3(kNan, 0, 0));
  JointModel nan_limit = Joint(JointType::kRevolute, "wrist");
  nan_limit.lower = kNan;
  JointModel inf_lower = Joint(JointType::kPrismatic, "wrist");
  inf_lower.lower = kInf;
  JointModel negative_effort = Joint(JointType::kRevolute, "wrist");
  negative_effort.effort_limit = -1.0;
  JointModel nan_velocity = Joint(JointType::kRevolute, "wrist");
  nan_velocity.velocity_limit = kNan;
  JointModel negative_damping = Joint(JointType::kRevolute, "wrist");
  negative_damping.damping = -0.1;
  JointModel inf_armature = Joint(JointType::kRevolute, "wrist");
  inf_armature.armature = kInf;
  JointModel nan_spring = Joint(JointType::kRevolute, "wrist");
  nan_spring.spring_reference = kNan;
  JointModel limited_ball = Joint(JointType::kBall, "wrist");
  limited_ball.lower = -1.0;
  limited_ball.upper = 1.0;
  JointModel nan_placement = Joint(JointType::kRevolute, "wrist");
  nan_placement.placement = SE3::FromTranslation(Vec3(0, kNan, 0));
  JointModel skewed = Joint(JointType::kRevolute, "wrist");
  skewed.placement = SE3(2.0 * Mat3::Identity(), Vec3::Zero());

  const std::vector<Case> cases = {
      // Inertia.
      {"negative moment", set_inertia(SpatialInertia(1.0, Vec3::Zero(), Vec3(-1, 0.1, 0.1).asDiagonal())),
       {"inertia of body 'box'", "negative"}},
      {"triangle inequality", set_inertia(SpatialInertia(1.0, Vec3::Zero(), Vec3(0.1, 0.1, 0.5).asDiagonal())),
       {"inertia of body 'box'", "triangle inequality", "0.2 < 0.5"}},
      {"not symmetric", set_inertia(SpatialInertia(1.0, Vec3::Zero(), (Mat3() << 1, 0.1, 0, 0, 1, 0, 0, 0, 1).finished())),
       {"inertia of body 'box'", "not a symmetric matrix"}},
      {"inertia without mass", set_inertia(SpatialInertia(0.0, Vec3::Zero(), Mat3::Identity())),
       {"inertia of body 'box'", "mass is 0 but the rotational inertia is not"}},
      {"nan inertia", [](BaseScene& s) {
         s.b.AddBody("nan", kWorldBody, Joint(JointType::kFree, "nan_free"),
                     SpatialInertia(1.0, Vec3::Zero(), Vec3(kNan, 1, 1).asDiagonal()));
       }, {"body 'nan'", "finite"}},
      {"negative mass", [](BaseScene& s) {
         s.b.AddBody("neg", kWorldBody, Joint(JointType::kFree, "neg_free"),
                     SpatialInertia(-1.0, Vec3::Zero(), Mat3::Identity()));
       }, {"body 'neg'", "mass"}},
      // Mass distribution over the tree.
      {"zero inertia on a free body", [](BaseScene& s) {
         s.b.AddFreeBody("puck", SpatialInertia(1.0, Vec3::Zero(), Mat3::Zero()), SE3());
       }, {"body 'puck'", "mass matrix is singular", "rotation about x", "free joint 'puck'", "point mass"}},
      {"point mass on a ball joint", [](BaseScene& s) {
         s.b.AddBody("bob", s.arm, Joint(JointType::kBall, "shoulder"), SpatialInertia(1.0, Vec3::Zero(), Mat3::Zero()));
       }, {"body 'bob'", "mass matrix is singular", "ball joint 'shoulder'"}},
      {"massless leaf", [](BaseScene& s) {
         s.b.AddBody("ghost", s.arm, Joint(JointType::kPrismatic, "slide"), SpatialInertia());
       }, {"body 'ghost'", "neither it nor any body below it has mass"}},
      {"two hinges on one axis", [](BaseScene& s) {
         const int link = s.b.AddBody("link", s.arm, Joint(JointType::kRevolute, "a"), SpatialInertia());
         s.b.AddBody("tip", link, Joint(JointType::kRevolute, "b"), SpatialInertia::SolidSphere(1.0, 0.1));
       }, {"body 'tip'", "mass matrix is singular", "revolute joint 'b'"}},
      {"overflowing mass matrix", [](BaseScene& s) {
         s.b.AddFreeBody("far", SpatialInertia(1e300, Vec3(1e10, 0, 0), Mat3::Identity() * 1e300), SE3());
       }, {"mass matrix at the default configuration is not finite"}},
      // Joints.
      {"nan axis", add_arm2(nan_axis), {"joint 'wrist' of body 'arm2'", "axis (nan, 0, 0)"}},
      {"nan limit", add_arm2(nan_limit), {"joint 'wrist'", "limits [nan, inf]"}},
      {"lower limit +inf", add_arm2(inf_lower), {"joint 'wrist'", "limits [inf, inf]"}},
      {"negative effort limit", add_arm2(negative_effort), {"joint 'wrist'", "effort limit -1"}},
      {"nan velocity limit", add_arm2(nan_velocity), {"joint 'wrist'", "velocity limit nan"}},
      {"negative damping", add_arm2(negative_damping), {"joint 'wrist'", "damping -0.1"}},
      {"infinite armature", add_arm2(inf_armature), {"joint 'wrist'", "armature inf"}},
      {"nan spring reference", add_arm2(nan_spring), {"joint 'wrist'", "spring reference nan"}},
      {"limits on a ball joint", add_arm2(limited_ball), {"joint 'wrist'", "limits on a ball joint"}},
      {"nan joint placement", add_arm2(nan_placement), {"joint 'wrist'", "placement", "not finite"}},
      {"joint placement not a rotation", add_arm2(skewed), {"joint 'wrist'", "not a rotation matrix"}},
      // Colliders.
      {"box of size 0", set_lid(Box{Vec3(0, 0.1, 0.1)}), {"collider 'lid'", "box half extents (0, 0.1, 0.1)"}},
      {"sphere of radius -0.1", set_lid(Sphere{-0.1}), {"collider 'lid'", "sphere radius -0.1"}},
      {"capsule of radius nan", set_lid(Capsule{kNan, 0.1}), {"collider 'lid'", "capsule radius nan"}},
      {"cylinder of length 0", set_lid(Cylinder{0.1, 0.0}), {"collider 'lid'", "cylinder half length 0"}},
      {"ellipsoid of radius inf", set_lid(Ellipsoid{Vec3(1, kInf, 1)}), {"collider 'lid'", "ellipsoid radii"}},
      {"cone of height -1", set_lid(Cone{0.1, -1.0}), {"collider 'lid'", "cone height -1"}},
      {"hull without data", set_lid(ConvexHull{}), {"collider 'lid'", "convex hull without data"}},
      {"flat mesh on a moving body", set_lid(FlatSquare()), {"collider 'lid'", "flat"}},
      {"disk on a free body", set_lid(Disk2{0.1}), {"collider 'lid'", "2D shape"}},
      {"nan placement", [](BaseScene& s) { s.b.scene().colliders[0].placement = SE3::FromTranslation(Vec3(kNan, 0, 0)); },
       {"collider 'lid'", "placement: position (nan, 0, 0)"}},
      {"negative friction", [](BaseScene& s) { s.b.scene().colliders[0].friction = -0.5; },
       {"collider 'lid'", "friction -0.5"}},
      {"nan friction", [](BaseScene& s) { s.b.scene().colliders[0].friction = kNan; }, {"collider 'lid'", "friction nan"}},
      {"restitution 2", [](BaseScene& s) { s.b.scene().colliders[0].restitution = 2.0; },
       {"collider 'lid'", "restitution 2"}},
      // Actuators and design parameters.
      {"nan gear", [](BaseScene& s) { s.b.scene().actuators[0].gear = kNan; }, {"actuator 'motor'", "gear nan"}},
      {"negative kp", [](BaseScene& s) { s.b.scene().actuators[0].kp = -1.0; }, {"actuator 'motor'", "kp -1"}},
      {"empty control range", [](BaseScene& s) {
         s.b.scene().actuators[0].ctrl_lower = 1.0;
         s.b.scene().actuators[0].ctrl_upper = 0.0;
       }, {"actuator 'motor'", "control range [1, 0]"}},
      {"missing dof", [](BaseScene& s) { s.b.scene().actuators[0].dof = 1; }, {"actuator 'motor'", "DOF 1"}},
      {"nan design value", [](BaseScene& s) { s.b.AddDesignParameter("mass", kNan); },
       {"design parameter 'mass'", "value nan"}},
      {"design value out of bounds", [](BaseScene& s) { s.b.AddDesignParameter("mass", 2.0).upper = 1.0; },
       {"design parameter 'mass'", "outside its bounds"}},
      // The scene.
      {"nan gravity", [](BaseScene& s) { s.b.SetGravity(Vec3(0, 0, kNan)); }, {"gravity (0, 0, nan)"}},
      {"negative timestep hint", [](BaseScene& s) { s.b.scene().timestep_hint = -1e-3; }, {"timestep hint -0.001"}},
      {"non-unit quaternion", [](BaseScene& s) {
         VecX q(7);
         q << 0, 0, 1, 2, 0, 0, 0;
         s.b.SetDefaultJointPosition(s.box, q);
       }, {"joint 'box' of body 'box'", "norm 2"}},
      {"nan default position", [](BaseScene& s) { s.b.SetDefaultJointPosition(s.arm, VecX::Constant(1, kNan)); },
       {"joint 'elbow' of body 'arm'", "default position is not finite"}},
  };
  for (const Case& c : cases) {
    const std::string message = BuildError(c);
    ASSERT_FALSE(message.empty()) << c.name << ": accepted";
    EXPECT_THAT(message, HasSubstr("scene 'case'")) << c.name;
    for (const std::string& part : c.expected) EXPECT_THAT(message, HasSubstr(part)) << c.name;
  }
}

TEST(SceneCheckTest, ValidEdgeCasesAreAccepted) {
  BaseScene s;
  // A flat plate exactly on the triangle inequality (I1 + I2 = I3), rotated: rounding only.
  const SE3 R(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix(), Vec3::Zero());
  const int plate = s.b.AddBody("plate", s.arm, Joint(JointType::kRevolute, "tilt"),
                                SpatialInertia(1.0, Vec3::Zero(), Vec3(1, 2, 3).asDiagonal()).Transformed(R));
  // A flat mesh fixed to the world is a surface (terrain), not a solid; a massless link inside
  // a chain is fine; a point mass on a prismatic joint needs no rotational inertia.
  s.b.AddCollider(kWorldBody, FlatSquare(), SE3(), "terrain");
  const int link = s.b.AddBody("link", plate, Joint(JointType::kPrismatic, "x", Vec3::UnitX()), SpatialInertia());
  s.b.AddBody("bead", link, Joint(JointType::kPrismatic, "y", Vec3::UnitY()), SpatialInertia(0.1, Vec3::Zero(), Mat3::Zero()));
  s.b.AddCollider(s.box, Capsule{0.05, 0.0}, SE3(), "round");  // a capsule of length 0 is a sphere
  EXPECT_NO_THROW(s.b.Build());
}

// The warnings: legal, so Build accepts the scene; Check lists them.
TEST(SceneCheckTest, WarningsFlagSuspiciousButLegalScenes) {
  const auto warnings = [](const Scene& scene) {
    std::vector<std::string> out;
    for (const SceneIssue& i : scene.Check()) {
      EXPECT_EQ(i.severity, SceneIssue::Severity::kWarning) << i.problem;
      out.push_back(scene.Describe(i) + ": " + i.problem);
    }
    return out;
  };
  {
    BaseScene s;
    EXPECT_TRUE(warnings(*s.b.Build()).empty());
  }
  BaseScene s;
  JointModel frozen = Joint(JointType::kRevolute, "frozen");
  frozen.lower = frozen.upper = 0.5;
  const int hub = s.b.AddBody("hub", s.arm, frozen, SpatialInertia());
  s.b.AddBody("rim", hub, Joint(JointType::kRevolute, "spin", Vec3::UnitX()), SpatialInertia::SolidSphere(1e-5, 0.01));
  // Links of an MJCF multi-joint body ("<body>/<joint>") are massless by design: no warning.
  const int chain = s.b.AddBody("leg/hip_x", s.box, Joint(JointType::kRevolute, "hip_x", Vec3::UnitX()), SpatialInertia());
  s.b.AddBody("leg", chain, Joint(JointType::kRevolute, "hip_y", Vec3::UnitY()), SpatialInertia::SolidSphere(1.0, 0.1));
  s.b.AddCollider(s.box, Sphere{1e-4}, SE3(), "speck");
  s.b.scene().actuators[0].gear = 0.0;
  const std::vector<std::string> w = warnings(*s.b.Build());
  const std::string all = ::testing::PrintToString(w);
  EXPECT_EQ(w.size(), 6u) << all;
  EXPECT_THAT(all, HasSubstr("body 'hub': moves but has no mass of its own"));
  EXPECT_THAT(all, HasSubstr("joint 'frozen' of body 'hub': limits [0.5, 0.5] leave no range"));
  EXPECT_THAT(all, HasSubstr("default position 0 is outside the limits [0.5, 0.5]"));
  EXPECT_THAT(all, HasSubstr("body masses span a ratio of 1e+05 (heaviest 'box' 1 kg, lightest 'rim' 1e-05 kg)"));
  EXPECT_THAT(all, HasSubstr("collider 'speck': its size is 0.0002 m"));
  EXPECT_THAT(all, HasSubstr("actuator 'motor': gear 0"));
  EXPECT_THAT(all, ::testing::Not(HasSubstr("leg/hip_x")));
}

TEST(SceneCheckTest, InertiaRules) {
  EXPECT_EQ(ValidateInertia(SpatialInertia()), "");                                   // massless
  EXPECT_EQ(ValidateInertia(SpatialInertia(1.0, Vec3::Zero(), Mat3::Zero())), "");    // point mass
  EXPECT_EQ(ValidateInertia(SpatialInertia::SolidBox(2.0, Vec3(1, 0.01, 0.3))), "");
  // The tolerance: a lamina printed to six digits passes, a 1e-5 break does not.
  EXPECT_EQ(ValidateInertia(SpatialInertia(1.0, Vec3::Zero(), Vec3(1, 2, 3.000001).asDiagonal())), "");
  EXPECT_THAT(ValidateInertia(SpatialInertia(1.0, Vec3::Zero(), Vec3(1, 2, 3.00003).asDiagonal())),
              HasSubstr("triangle inequality"));
  EXPECT_THAT(ValidateInertia(SpatialInertia(1.0, Vec3(0, kInf, 0), Mat3::Identity())),
              HasSubstr("centre of mass (0, inf, 0) is not finite"));
  EXPECT_THAT(ValidateInertia(SpatialInertia(kNan, Vec3::Zero(), Mat3::Identity())), HasSubstr("mass nan"));
}

}  // namespace scene_check_test
}  // namespace arena
