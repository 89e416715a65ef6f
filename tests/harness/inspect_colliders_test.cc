// `arena inspect --model`: what each kind of model makes of the colliders. sdrs flags a dented
// cube (not convex) and reports the volume its hull adds; ipc lists meshes; an engine says it
// takes the shapes as they are; an unknown model is an error.
#include "harness/inspect_colliders.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/common/error.h"
#include "core/geometry/mesh.h"
#include "core/scene/scene_builder.h"

namespace arena {
namespace contact_geometry_test {

using ::testing::HasSubstr;

// A unit cube whose top face is pushed in to a pyramid reaching its centre: volume 5/6, its
// hull the cube (volume 1), so the hull adds 20 %.
TriangleMesh DentedCube() {
  PointsX3 v(9, 3);
  for (int i = 0; i < 8; ++i) v.row(i) << ((i & 1) ? 0.5 : -0.5), ((i & 2) ? 0.5 : -0.5), ((i & 4) ? 0.5 : -0.5);
  v.row(8) << 0.0, 0.0, 0.0;
  TrianglesX3 t(14, 3);
  t << 0, 2, 3, 0, 3, 1,            // bottom
      4, 5, 8, 5, 7, 8, 7, 6, 8, 6, 4, 8,  // the dent
      0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3,  // front, back
      0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5;  // left, right
  return MakeTriangleMesh(v, t);
}

std::shared_ptr<const Scene> BlockScene(bool dented) {
  SceneBuilder b("contact_geometry");
  const Vec3 half = Vec3::Constant(0.5);
  const int body = b.AddFreeBody("block", SpatialInertia::SolidBox(1.0, half), SE3::FromTranslation(Vec3(0, 0, 1)));
  if (dented) {
    b.AddCollider(body, DentedCube(), SE3(), "dented");
  } else {
    b.AddCollider(body, Box{half}, SE3(), "box");
  }
  b.AddGround(0.5);
  return b.Build();
}

TEST(ContactGeometry, SdrsFlagsANonConvexColliderAndTheVolumeItsHullAdds) {
  const ContactGeometryTable t = DescribeContactGeometry(BlockScene(true), "sdrs", {});
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[0][0], "dented");
  EXPECT_EQ(t.rows[0][2], "9");  // mesh vertices
  EXPECT_EQ(t.rows[0][4], "8");  // hull vertices: the dent's apex is inside the hull
  EXPECT_EQ(t.rows[0].back(), "NOT convex: its hull, +20 % volume");
  EXPECT_EQ(t.rows[1].back(), "convex: the mesh itself");
  EXPECT_THAT(t.note, HasSubstr("1 collider(s) are not convex"));

  const ContactGeometryTable box = DescribeContactGeometry(BlockScene(false), "sdrs", {{"ground_mesh", "top"}});
  EXPECT_EQ(box.rows[0].back(), "convex: the mesh itself");
  EXPECT_EQ(box.rows[1].back(), "open mesh: the hull of its vertices");
  EXPECT_TRUE(box.note.empty());
}

TEST(ContactGeometry, OtherModels) {
  const ContactGeometryTable ipc = DescribeContactGeometry(BlockScene(false), "ipc", {{"sphere_vertices", "24"}});
  EXPECT_EQ(ipc.header, (std::vector<std::string>{"COLLIDER", "BODY", "VERTICES", "TRIANGLES"}));
  ASSERT_EQ(ipc.rows.size(), 2u);
  EXPECT_EQ(ipc.rows[0][3], "12");
  const ContactGeometryTable mujoco = DescribeContactGeometry(BlockScene(false), "mujoco", {});
  EXPECT_TRUE(mujoco.rows.empty());
  EXPECT_THAT(mujoco.note, HasSubstr("as they are"));
  EXPECT_THROW(DescribeContactGeometry(BlockScene(false), "no_such_model", {}), InvalidArgument);
  EXPECT_THROW(DescribeContactGeometry(BlockScene(false), "sdrs", {{"kappa", "-1"}}), InvalidArgument);
}

}  // namespace contact_geometry_test
}  // namespace arena
