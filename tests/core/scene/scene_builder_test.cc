#include "core/scene/scene_builder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/common/error.h"

namespace arena {
namespace scene_builder_test {

using ::testing::HasSubstr;

TEST(SceneBuilderTest, FreeAndPlanarBodiesSetDefaultQ) {
  SceneBuilder b("mixed");
  b.SetGravity({0, 0, -9.0});
  const SE3 X_WB(Eigen::AngleAxisd(0.3, Vec3::UnitX()).toRotationMatrix(), Vec3(1, 2, 3));
  const int box = b.AddFreeBody("box", SpatialInertia::SolidBox(2.0, Vec3(0.1, 0.2, 0.3)), X_WB);
  JointModel hinge;
  hinge.type = JointType::kRevolute;
  hinge.name = "hinge";
  hinge.axis = Vec3::UnitY();
  const int arm = b.AddBody("arm", box, hinge, SpatialInertia::SolidSphere(1.0, 0.1));
  b.AddCollider(box, Box{Vec3(0.1, 0.2, 0.3)}).friction = 0.2;
  b.AddGround(0.4);
  auto scene = b.Build();

  EXPECT_EQ(scene->nq(), 8);
  EXPECT_EQ(scene->nv(), 7);
  EXPECT_EQ(scene->model.gravity(), Vec3(0, 0, -9.0));
  ASSERT_EQ(scene->default_q.size(), 8);
  EXPECT_TRUE(scene->default_q.head<3>().isApprox(Vec3(1, 2, 3)));
  const Quat q(scene->default_q[3], scene->default_q[4], scene->default_q[5], scene->default_q[6]);
  EXPECT_TRUE(q.toRotationMatrix().isApprox(X_WB.rotation(), 1e-12));
  EXPECT_EQ(scene->default_q[7], 0.0);  // the hinge starts at its neutral angle
  EXPECT_EQ(arm, 1);

  ASSERT_EQ(scene->colliders.size(), 2u);
  EXPECT_EQ(scene->colliders[0].friction, 0.2);
  EXPECT_EQ(scene->colliders[1].body, kWorldBody);
  EXPECT_EQ(TypeOf(scene->colliders[1].shape), ShapeType::kHalfSpace);
  EXPECT_EQ(scene->colliders[1].friction, 0.4);
  EXPECT_TRUE(scene->colliders[1].placement.IsApprox(SE3::Identity()));
  // A body on a joint to the world still touches the ground.
  EXPECT_TRUE(scene->CanCollide(0, 1));
  EXPECT_FALSE(scene->IsPlanar());
}

TEST(SceneBuilderTest, PlanarScene) {
  SceneBuilder b("disks");
  const int d = b.AddPlanarBody("disk", 2.0, 0.01, Vec3(0.5, 1.0, 0.25));
  b.AddCollider(d, Disk2{0.1});
  b.AddGroundPlane2(0.3);
  auto scene = b.Build();
  EXPECT_EQ(scene->nq(), 3);
  EXPECT_EQ(scene->nv(), 3);
  EXPECT_TRUE(scene->default_q.isApprox(Vec3(0.5, 1.0, 0.25)));
  EXPECT_EQ(scene->model.body(d).joint.type, JointType::kPlanar);
  EXPECT_DOUBLE_EQ(scene->model.body(d).inertia.mass(), 2.0);
  EXPECT_DOUBLE_EQ(scene->model.body(d).inertia.inertia_com()(2, 2), 0.01);
  EXPECT_EQ(TypeOf(scene->colliders[1].shape), ShapeType::kHalfPlane2);
  EXPECT_TRUE(scene->IsPlanar());
  EXPECT_EQ(scene->CollisionPairs().size(), 1u);
}

TEST(SceneBuilderTest, SetDefaultJointPositionChecksSize) {
  SceneBuilder b("s");
  const int body = b.AddFreeBody("box", SpatialInertia::SolidSphere(1.0, 0.1), SE3());
  EXPECT_THROW(b.SetDefaultJointPosition(body, VecX::Zero(3)), InvalidArgument);
  EXPECT_THROW(b.SetDefaultJointPosition(4, VecX::Zero(7)), InvalidArgument);
}

TEST(SceneBuilderTest, ValidateRejectsNonPositiveMass) {
  SceneBuilder b("massless");
  b.AddFreeBody("ghost", SpatialInertia(), SE3());
  try {
    b.Build();
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("ghost"));
    EXPECT_THAT(e.what(), HasSubstr("mass"));
  }
}

TEST(SceneBuilderTest, MasslessChainBodyIsAllowed) {
  SceneBuilder b("chain");
  JointModel slide;
  slide.type = JointType::kPrismatic;
  slide.name = "x";
  slide.axis = Vec3::UnitX();
  const int carrier = b.AddBody("carrier", kWorldBody, slide, SpatialInertia());
  JointModel hinge;
  hinge.type = JointType::kRevolute;
  hinge.name = "theta";
  b.AddBody("pole", carrier, hinge, SpatialInertia::SolidSphere(1.0, 0.1));
  EXPECT_NO_THROW(b.Build());
}

TEST(SceneBuilderTest, ValidateRejectsPlanarShapeOnSpatialBody) {
  SceneBuilder b("mixed_dims");
  const int box = b.AddFreeBody("box", SpatialInertia::SolidSphere(1.0, 0.1), SE3());
  b.AddCollider(box, Disk2{0.1}, SE3(), "disk");
  try {
    b.Build();
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("disk"));
    EXPECT_THAT(e.what(), HasSubstr("2D shape"));
  }
}

TEST(SceneBuilderTest, ValidateRejectsActuatorOnMissingJoint) {
  SceneBuilder b("bad_actuator");
  b.AddFreeBody("box", SpatialInertia::SolidSphere(1.0, 0.1), SE3());
  Actuator a;
  a.name = "motor";
  a.body = 3;
  b.AddActuator(a);
  try {
    b.Build();
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("motor"));
    EXPECT_THAT(e.what(), HasSubstr("missing body"));
  }
  // A DOF beyond the joint's is rejected as well.
  SceneBuilder c("bad_dof");
  c.AddFreeBody("box", SpatialInertia::SolidSphere(1.0, 0.1), SE3());
  a.body = 0;
  a.dof = 6;
  c.AddActuator(a);
  EXPECT_THROW(c.Build(), InvalidArgument);
}

TEST(SceneBuilderTest, ColliderOnMissingBodyThrows) {
  SceneBuilder b("s");
  EXPECT_THROW(b.AddCollider(0, Sphere{0.1}), InvalidArgument);
}

TEST(SceneBuilderTest, ExcludedPairsAndParentChildFilter) {
  SceneBuilder b("filters");
  const int a = b.AddFreeBody("a", SpatialInertia::SolidSphere(1.0, 0.1), SE3());
  JointModel hinge;
  hinge.type = JointType::kRevolute;
  const int c = b.AddBody("c", a, hinge, SpatialInertia::SolidSphere(1.0, 0.1));
  const int d = b.AddFreeBody("d", SpatialInertia::SolidSphere(1.0, 0.1), SE3());
  b.AddCollider(a, Sphere{0.1});
  b.AddCollider(c, Sphere{0.1});
  b.AddCollider(d, Sphere{0.1});
  b.ExcludePair(d, a);
  auto scene = b.Build();
  EXPECT_FALSE(scene->CanCollide(0, 1));  // parent-child
  EXPECT_FALSE(scene->CanCollide(0, 2));  // excluded
  EXPECT_TRUE(scene->CanCollide(1, 2));
}

}  // namespace scene_builder_test
}  // namespace arena
