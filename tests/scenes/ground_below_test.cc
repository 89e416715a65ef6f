// AddGroundBelow: the ground's boundary passes `gap` under the lowest collider point along up
// (minus gravity), bodies bolted to the world do not collide with it, and scenes it cannot
// serve are rejected.
#include "scenes/ground_below.h"

#include <gtest/gtest.h>

#include "core/common/error.h"
#include "core/scene/scene_builder.h"

namespace arena {
namespace ground_below_test {

// A 0.2 m cube on a free joint, its centre at `at`, under `gravity`.
Scene FreeCube(const Vec3& at, const Vec3& gravity) {
  SceneBuilder b("cube");
  b.SetGravity(gravity);
  const int cube = b.AddFreeBody("cube", SpatialInertia::SolidBox(1.0, Vec3::Constant(0.1)), SE3::FromTranslation(at));
  b.AddCollider(cube, Box{Vec3::Constant(0.1)}, SE3(), "cube");
  b.Build();
  return b.scene();
}

TEST(GroundBelow, LiesUnderTheLowestPointAlongUp) {
  Scene z_up = FreeCube(Vec3(0.5, 0.0, 2.0), Vec3(0, 0, -9.81));
  EXPECT_DOUBLE_EQ(LowestPointAlongUp(z_up, DefaultState(z_up).q), 1.9);
  const Collider& ground = AddGroundBelow(z_up, 0.05, 0.8);
  EXPECT_EQ(ground.body, kWorldBody);
  EXPECT_EQ(TypeOf(ground.shape), ShapeType::kHalfSpace);
  EXPECT_DOUBLE_EQ(ground.friction, 0.8);
  EXPECT_LT((ground.placement.translation() - Vec3(0, 0, 1.85)).norm(), 1e-12);
  EXPECT_LT((ground.placement.rotation() * Vec3::UnitZ() - Vec3::UnitZ()).norm(), 1e-12);
  EXPECT_NO_THROW(z_up.Validate());
  EXPECT_EQ(z_up.CollisionPairs().size(), 1u);

  // Y up (DART's convention): the half-space's z axis turns onto +y.
  Scene y_up = FreeCube(Vec3(0.0, -0.3, 0.0), Vec3(0, -9.81, 0));
  const Collider& floor = AddGroundBelow(y_up);
  EXPECT_LT((floor.placement.translation() - Vec3(0, -0.4, 0)).norm(), 1e-12);
  EXPECT_LT((floor.placement.rotation() * Vec3::UnitZ() - Vec3::UnitY()).norm(), 1e-12);
}

TEST(GroundBelow, ABodyBoltedToTheWorldDoesNotTouchIt) {
  SceneBuilder b("bolted");
  JointModel weld;  // fixed
  const int base = b.AddBody("base", kWorldBody, weld, SpatialInertia::SolidBox(1.0, Vec3::Constant(0.1)));
  b.AddCollider(base, Box{Vec3::Constant(0.1)}, SE3(), "base");
  JointModel hinge;
  hinge.type = JointType::kRevolute;
  hinge.placement = SE3::FromTranslation(Vec3(0, 0, 0.5));
  const int arm = b.AddBody("arm", base, hinge, SpatialInertia::SolidBox(1.0, Vec3::Constant(0.1)));
  b.AddCollider(arm, Box{Vec3::Constant(0.1)}, SE3(), "arm");
  Scene scene = b.scene();
  AddGroundBelow(scene);  // under the base, touching it
  const auto pairs = scene.CollisionPairs();
  ASSERT_EQ(pairs.size(), 1u);  // the arm and the ground; base-arm is parent-child
  EXPECT_EQ(scene.colliders[pairs[0].first].name, "arm");
  EXPECT_EQ(scene.colliders[pairs[0].second].name, "ground");
}

TEST(GroundBelow, RejectsWhatItCannotServe) {
  Scene cube = FreeCube(Vec3::Zero(), Vec3(0, 0, -9.81));
  EXPECT_THROW(AddGroundBelow(cube, -0.1), InvalidArgument);
  SceneBuilder empty("empty");
  empty.AddFreeBody("body", SpatialInertia::SolidBox(1.0, Vec3::Constant(0.1)), SE3());
  EXPECT_THROW(AddGroundBelow(empty.scene()), InvalidArgument);
  SceneBuilder planar("planar");
  const int square = planar.AddPlanarBody("square", 1.0, 0.1, Vec3::Zero());
  planar.AddCollider(square, Disk2{0.1});
  EXPECT_THROW(AddGroundBelow(planar.scene()), InvalidArgument);
}

}  // namespace ground_below_test
}  // namespace arena
