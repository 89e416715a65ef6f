// WeldJoints: the welded scene keeps the bodies where configuration q put them, with no DOF,
// no actuators and no collision among its own bodies or with the world.
#include "scenes/weld_joints.h"

#include <gtest/gtest.h>

#include "core/common/error.h"
#include "core/multibody/data.h"
#include "core/multibody/kinematics.h"
#include "core/scene/scene_builder.h"

namespace arena {
namespace weld_joints_test {

// Two hinged links with a box each and a motor on the first hinge.
std::shared_ptr<const Scene> TwoLinks() {
  SceneBuilder b("two_links");
  JointModel hinge;
  hinge.type = JointType::kRevolute;
  hinge.axis = Vec3::UnitY();
  hinge.placement = SE3::FromTranslation(Vec3(0.0, 0.0, 1.0));
  const SpatialInertia inertia = SpatialInertia::SolidBox(1.0, Vec3(0.05, 0.05, 0.25));
  const int upper = b.AddBody("upper", kWorldBody, hinge, inertia);
  hinge.placement = SE3::FromTranslation(Vec3(0.0, 0.0, -0.5));
  const int lower = b.AddBody("lower", upper, hinge, inertia);
  b.AddCollider(upper, Box{Vec3(0.05, 0.05, 0.25)}, SE3::FromTranslation(Vec3(0, 0, -0.25)), "upper");
  b.AddCollider(lower, Box{Vec3(0.05, 0.05, 0.25)}, SE3::FromTranslation(Vec3(0, 0, -0.25)), "lower");
  Actuator motor;
  motor.body = upper;
  b.AddActuator(motor);
  return b.Build();
}

TEST(WeldJoints, KeepsThePoseAtQWithoutDofs) {
  const auto scene = TwoLinks();
  const Vec2 q(0.3, -0.7);
  const Scene welded = WeldJoints(*scene, q);
  EXPECT_NO_THROW(welded.Validate());
  EXPECT_EQ(welded.nq(), 0);
  EXPECT_EQ(welded.nv(), 0);
  EXPECT_EQ(welded.nu(), 0);
  ASSERT_EQ(welded.model.num_bodies(), 2);
  EXPECT_EQ(welded.model.body(1).name, "lower");
  EXPECT_EQ(welded.colliders.size(), scene->colliders.size());

  MultibodyData moving(scene->model), fixed(welded.model);
  ForwardKinematics(scene->model, moving, q);
  ForwardKinematics(welded.model, fixed, VecX());
  for (int b = 0; b < 2; ++b) {
    EXPECT_LT((moving.X_WB[b].translation() - fixed.X_WB[b].translation()).norm(), 1e-14);
    EXPECT_LT((moving.X_WB[b].rotation() - fixed.X_WB[b].rotation()).norm(), 1e-14);
  }
}

TEST(WeldJoints, NothingWeldedCollidesWithItselfOrTheWorld) {
  const auto links = TwoLinks();
  Scene welded = WeldJoints(*links, Vec2(0.0, 0.0));
  Collider floor;
  floor.shape = HalfSpace{};
  welded.colliders.push_back(floor);  // world geometry: the welded links must not touch it
  EXPECT_TRUE(welded.CollisionPairs().empty());
}

TEST(WeldJoints, RejectsAConfigurationOfTheWrongSize) {
  EXPECT_THROW(WeldJoints(*TwoLinks(), VecX::Zero(3)), InvalidArgument);
}

}  // namespace weld_joints_test
}  // namespace arena
