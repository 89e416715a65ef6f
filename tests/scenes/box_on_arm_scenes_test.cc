// box_on_arm's construction: the arm has no DOF and touches nothing but the box, the box
// starts 15 cm above the elbow's top face (y = 0.246 m, measured from the KR5 meshes), and the
// mesh variant's cube is a closed mesh.
#include "scenes/box_on_arm_scenes.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/geometry/mesh.h"

namespace arena {
namespace box_on_arm_scenes_test {

class BoxOnArmScenes : public testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(Kr5UrdfPath())) GTEST_SKIP() << "no dart-doc data at " << Kr5UrdfPath();
  }
};

TEST_F(BoxOnArmScenes, OnlyTheBoxMovesAndTouches) {
  for (FallingBoxShape shape : {FallingBoxShape::kMesh, FallingBoxShape::kBox}) {
    const auto scene = BoxOnArmScene(shape);
    EXPECT_EQ(scene->nv(), 6);
    const int box = scene->model.FindBody("box");
    ASSERT_GE(box, 0);
    const auto pairs = scene->CollisionPairs();
    EXPECT_EQ(pairs.size(), 8u);  // seven links and the ground
    for (const auto& [a, b] : pairs) {
      EXPECT_TRUE(scene->colliders[a].body == box || scene->colliders[b].body == box);
    }
    const Collider& cube = scene->colliders.back();
    if (shape == FallingBoxShape::kMesh) {
      ASSERT_EQ(TypeOf(cube.shape), ShapeType::kMesh);
      EXPECT_TRUE(IsClosed(*std::get<TriangleMesh>(cube.shape).data));
    } else {
      EXPECT_EQ(TypeOf(cube.shape), ShapeType::kBox);
    }
  }
}

TEST_F(BoxOnArmScenes, TheBoxStartsAboveTheElbowTop) {
  const BoxOnArmLayout layout = ComputeBoxOnArmLayout();
  EXPECT_EQ(layout.landing_link, "elbow");
  EXPECT_NEAR(layout.surface_height, 0.246, 1e-3);
  const auto scene = BoxOnArmScene(FallingBoxShape::kMesh);
  const Vec3 start = scene->default_q.head<3>();
  EXPECT_EQ(start, layout.drop_position);
  EXPECT_NEAR(start.y() - layout.box_half_extent - layout.surface_height, 0.15, 1e-12);
  EXPECT_GT(start.x(), layout.landing_bounds.lower.x());
  EXPECT_LT(start.x(), layout.landing_bounds.upper.x());
}

}  // namespace box_on_arm_scenes_test
}  // namespace arena
