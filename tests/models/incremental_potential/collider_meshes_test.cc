// The IP models' meshes carry the scene's pair filter (Scene::CollisionPairs), so ipc and
// longrange test the pairs every other model tests: a parent and its child, excluded pairs and,
// with self_collision = false, one robot's links never meet.
#include "models/incremental_potential/collider_meshes.h"

#include <gtest/gtest.h>

#include "core/scene/scene_builder.h"
#include "core/scene/scene_options.h"
#include "models/registry.h"

namespace arena {
namespace collider_meshes_test {

// a (free) -> b (hinge) -> d (hinge), all three boxes at the same place (each overlaps the
// others), c a free box beside them, and the ground.
std::shared_ptr<Scene> OverlappingChain() {
  SceneBuilder builder("overlapping_chain");
  const Vec3 h = Vec3::Constant(0.1);
  const SpatialInertia inertia = SpatialInertia::SolidBox(1.0, h);
  JointModel hinge;
  hinge.type = JointType::kRevolute;
  hinge.axis = Vec3::UnitZ();
  const int a = builder.AddFreeBody("a", inertia, SE3::FromTranslation(Vec3(0, 0, 1)));
  const int b = builder.AddBody("b", a, hinge, inertia);
  const int d = builder.AddBody("d", b, hinge, inertia);
  const int c = builder.AddFreeBody("c", inertia, SE3::FromTranslation(Vec3(1, 0, 1)));
  for (int body : {a, b, d, c}) builder.AddCollider(body, Box{h});
  builder.AddGround();
  return std::make_shared<Scene>(*builder.Build());
}

TEST(ColliderMeshes, PartnersAreTheScenesCollisionPairs) {
  std::shared_ptr<Scene> scene = OverlappingChain();
  auto partners = [&] {
    std::vector<std::vector<int>> out;
    for (const ColliderMesh& m : BuildColliderMeshes(*scene, {})) out.push_back(m.partners);
    return out;
  };
  // Meshes 0 a, 1 b, 2 d, 3 c, 4 ground: a-b and b-d are parent and child.
  EXPECT_EQ(partners(), (std::vector<std::vector<int>>{{2, 3, 4}, {3, 4}, {3, 4}, {4}, {}}));
  SceneLoadOptions options;
  options.self_collision = false;
  options.excluded_pairs = {{"c", "world"}};
  ApplySceneOptions(options, scene.get());
  EXPECT_EQ(partners(), (std::vector<std::vector<int>>{{3, 4}, {3, 4}, {3, 4}, {}, {}}));
}

// With the chain's links overlapping from the start, a barrier model could not take a step if
// it tested them (its barrier is infinite at contact); it only tests the scene's pairs.
TEST(ColliderMeshes, BarrierModelsSkipTheFilteredPairs) {
  std::shared_ptr<Scene> scene = OverlappingChain();
  SceneLoadOptions options;
  options.self_collision = false;
  ApplySceneOptions(options, scene.get());
  for (const char* model : {"ipc", "longrange"}) {
    std::unique_ptr<Simulator> sim = MakeSimulator(model, scene, {});
    State state = DefaultState(*scene);
    const StepReport report = sim->Step(state, Control{});
    EXPECT_TRUE(report.ok()) << model << ": " << report.message;
    EXPECT_TRUE(state.q.allFinite()) << model;
  }
}

// ground_mesh=top keeps the ground box's top face only: two triangles at z = 0 whose normals
// point up (into the world), spanning the box's 100 m.
TEST(ColliderMeshes, GroundTopFaceAlone) {
  std::shared_ptr<Scene> scene = OverlappingChain();
  ColliderMeshOptions options;
  const ColliderMesh box = BuildColliderMeshes(*scene, options).back();
  EXPECT_EQ(box.triangles.rows(), 12);
  options.ground_mesh = GroundMesh::kTop;
  const ColliderMesh top = BuildColliderMeshes(*scene, options).back();
  ASSERT_EQ(top.triangles.rows(), 2);
  double area = 0.0;
  for (Eigen::Index t = 0; t < 2; ++t) {
    const Vec3 a = top.vertices.row(top.triangles(t, 0)).transpose();
    const Vec3 b = top.vertices.row(top.triangles(t, 1)).transpose();
    const Vec3 c = top.vertices.row(top.triangles(t, 2)).transpose();
    EXPECT_DOUBLE_EQ(a.z(), 0.0);
    EXPECT_DOUBLE_EQ(b.z(), 0.0);
    EXPECT_DOUBLE_EQ(c.z(), 0.0);
    const Vec3 n = (b - a).cross(c - a);
    EXPECT_GT(n.z(), 0.0);
    area += 0.5 * n.norm();
  }
  EXPECT_NEAR(area, 100.0 * 100.0, 1e-6);
}

}  // namespace collider_meshes_test
}  // namespace arena
