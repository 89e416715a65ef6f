#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/common/error.h"
#include "core/scene/loader.h"

#include "tests/core/scene/scene_test_util.h"
#include "tests/test_paths.h"

namespace arena {
namespace urdf_loader_test {

using ::testing::HasSubstr;
using test::BodyPoses;
using test::ParseErrorMessage;

const std::string kData = ::arena::testing::TestDataDir() + "/scene/";

std::string AtlasPath() { return DartDataDir() + "/sdf/atlas/atlas_v3_no_head.urdf"; }


TEST(UrdfLoaderTest, AtlasWithoutMeshes) {
  UrdfOptions options;
  options.load_meshes = false;
  const Scene scene = LoadUrdf(AtlasPath(), options);
  // 34 links (a second <link name="utorso"> in the file is commented out), 27 revolute joints.
  EXPECT_EQ(scene.model.num_bodies(), 34);
  EXPECT_EQ(scene.nq(), 34);
  EXPECT_EQ(scene.nv(), 33);
  EXPECT_NEAR(scene.model.TotalMass(), 146.554, 1e-9);
  EXPECT_TRUE(scene.colliders.empty());
  EXPECT_EQ(scene.model.body(0).name, "pelvis");
  EXPECT_EQ(scene.model.body(0).joint.type, JointType::kFree);
  for (int i = 1; i < scene.model.num_bodies(); ++i) {
    EXPECT_LT(scene.model.body(i).parent, i);
  }
  const int kny = scene.model.FindJoint("r_leg_kny");
  ASSERT_GE(kny, 0);
  const JointModel& j = scene.model.body(kny).joint;
  EXPECT_EQ(j.type, JointType::kRevolute);
  EXPECT_EQ(scene.model.body(kny).name, "r_lleg");
  EXPECT_EQ(scene.model.body(scene.model.body(kny).parent).name, "r_uleg");
  EXPECT_DOUBLE_EQ(j.lower, 0.0);
  EXPECT_DOUBLE_EQ(j.upper, 2.38569);
  EXPECT_DOUBLE_EQ(j.effort_limit, 220.0);
  EXPECT_DOUBLE_EQ(j.velocity_limit, 12.0);
  EXPECT_DOUBLE_EQ(j.damping, 0.1);
  EXPECT_TRUE(j.axis.isApprox(Vec3::UnitY()));
  EXPECT_TRUE(j.placement.translation().isApprox(Vec3(-0.05, 0, -0.374)));
  // utorso keeps its inertial frame offset (the backpack variant: 52.007 kg).
  const auto& utorso = scene.model.body(scene.model.FindBody("utorso")).inertia;
  EXPECT_DOUBLE_EQ(utorso.mass(), 52.007);
  EXPECT_TRUE(utorso.com().isApprox(Vec3(-0.0923, 0, 0.3)));
  EXPECT_DOUBLE_EQ(utorso.inertia_com()(0, 2), 0.336);
}

TEST(UrdfLoaderTest, AtlasWithMeshes) {
  const Scene scene = LoadUrdf(AtlasPath());
  EXPECT_EQ(scene.nq(), 34);
  EXPECT_EQ(scene.nv(), 33);
  EXPECT_EQ(scene.model.num_bodies(), 34);
  // 29 collision meshes: one per link with geometry, two on utorso; the camera boxes are
  // visual only.
  ASSERT_EQ(scene.colliders.size(), 29u);
  for (const Collider& c : scene.colliders) {
    EXPECT_EQ(TypeOf(c.shape), ShapeType::kMesh) << c.name;
    EXPECT_NE(std::get<TriangleMesh>(c.shape).data, nullptr) << c.name;
    EXPECT_EQ(c.friction, 0.5);
  }
  const int utorso = scene.model.FindBody("utorso");
  int on_utorso = 0;
  for (const Collider& c : scene.colliders) on_utorso += c.body == utorso;
  EXPECT_EQ(on_utorso, 2);
  EXPECT_NEAR(scene.model.TotalMass(), 146.554, 1e-9);
}

TEST(UrdfLoaderTest, FixedBaseOption) {
  UrdfOptions options;
  options.floating_base = false;
  options.load_meshes = false;
  const Scene scene = LoadUrdf(AtlasPath(), options);
  EXPECT_EQ(scene.model.body(0).joint.type, JointType::kFixed);
  EXPECT_EQ(scene.nq(), 27);
  EXPECT_EQ(scene.nv(), 27);
}

TEST(UrdfLoaderTest, AllJointTypesAndShapes) {
  const Scene scene = LoadUrdf(kData + "pkg_demo/urdf/robot.urdf");
  EXPECT_EQ(scene.name, "all_joints");
  ASSERT_EQ(scene.model.num_bodies(), 7);
  // Parents first, children in the file's joint order (not urdfdom's alphabetical order).
  const std::vector<std::string> names = {"base", "link1", "link2", "link3", "link4", "link5",
                                          "link6"};
  for (int i = 0; i < 7; ++i) EXPECT_EQ(scene.model.body(i).name, names[i]);
  const auto& body = [&](const std::string& n) { return scene.model.body(scene.model.FindBody(n)); };
  EXPECT_EQ(body("base").joint.type, JointType::kFree);
  EXPECT_EQ(body("link1").joint.type, JointType::kRevolute);
  EXPECT_EQ(body("link2").joint.type, JointType::kRevolute);
  EXPECT_EQ(body("link3").joint.type, JointType::kPrismatic);
  EXPECT_EQ(body("link4").joint.type, JointType::kFixed);
  EXPECT_EQ(body("link5").joint.type, JointType::kPlanar);
  EXPECT_EQ(body("link6").joint.type, JointType::kFree);
  EXPECT_EQ(scene.nq(), 7 + 1 + 1 + 1 + 0 + 3 + 7);
  EXPECT_EQ(scene.nv(), 6 + 1 + 1 + 1 + 0 + 3 + 6);

  const JointModel& rev = body("link1").joint;
  EXPECT_EQ(rev.name, "z_rev");
  EXPECT_TRUE(rev.axis.isApprox(Vec3::UnitZ()));  // normalised from (0, 0, 2)
  EXPECT_EQ(rev.lower, -1.0);
  EXPECT_EQ(rev.upper, 2.0);
  EXPECT_EQ(rev.effort_limit, 10.0);
  EXPECT_EQ(rev.velocity_limit, 3.0);
  EXPECT_EQ(rev.damping, 0.5);
  const JointModel& cont = body("link2").joint;
  EXPECT_TRUE(std::isinf(cont.lower) && std::isinf(cont.upper));
  EXPECT_TRUE(cont.axis.isApprox(Vec3::UnitX()));
  EXPECT_EQ(body("link3").joint.lower, -0.5);

  // Inertial: 90 degrees about z swaps the x and y principal moments.
  const SpatialInertia& I = body("base").inertia;
  EXPECT_DOUBLE_EQ(I.mass(), 2.0);
  EXPECT_TRUE(I.com().isApprox(Vec3(0.1, 0, 0)));
  EXPECT_TRUE(I.inertia_com().isApprox(Vec3(2, 1, 3).asDiagonal().toDenseMatrix(), 1e-12));
  EXPECT_NEAR(scene.model.TotalMass(), 7.5, 1e-12);

  // Colliders: box half extents, cylinder half length, meshes via package:// and relative.
  ASSERT_EQ(scene.colliders.size(), 6u);
  EXPECT_EQ(scene.colliders[0].name, "base_box");
  EXPECT_TRUE(std::get<Box>(scene.colliders[0].shape).half_extents.isApprox(Vec3(0.1, 0.2, 0.3)));
  const auto& cyl = std::get<Cylinder>(scene.colliders[1].shape);
  EXPECT_DOUBLE_EQ(cyl.radius, 0.1);
  EXPECT_DOUBLE_EQ(cyl.half_length, 0.25);
  EXPECT_TRUE(scene.colliders[1].placement.translation().isApprox(Vec3(0, 0, 1)));
  EXPECT_DOUBLE_EQ(std::get<Sphere>(scene.colliders[2].shape).radius, 0.05);
  EXPECT_EQ(TypeOf(scene.colliders[3].shape), ShapeType::kMesh);
  EXPECT_EQ(scene.colliders[3].body, scene.model.FindBody("link1"));
  EXPECT_EQ(TypeOf(scene.colliders[4].shape), ShapeType::kMesh);
  EXPECT_EQ(scene.colliders[4].body, scene.model.FindBody("link2"));

  // The planar joint's normal is x: in the world, the link5 frame keeps the URDF pose at q = 0
  // (collider and COM where the URDF puts them), and the joint moves in the world yz-plane.
  const int l5 = scene.model.FindBody("link5");
  VecX q = scene.model.Neutral();
  std::vector<SE3> X_WB = BodyPoses(scene.model, q);
  const Collider& sphere5 = scene.colliders[5];
  EXPECT_EQ(sphere5.body, l5);
  EXPECT_TRUE((X_WB[l5] * sphere5.placement).translation().isApprox(Vec3(0, 1, 0.2), 1e-12));
  EXPECT_TRUE(X_WB[l5].Act(scene.model.body(l5).inertia.com()).isApprox(Vec3(0, 1, 0.1), 1e-12));
  const Mat3 R_WL = X_WB[l5].rotation() * sphere5.placement.rotation();
  EXPECT_TRUE(R_WL.isApprox(Mat3::Identity(), 1e-12));
  // URDF link5 inertia diag(0.01, 0.02, 0.03) in link axes, whatever our body axes are.
  const Mat3 R_WB = X_WB[l5].rotation();
  const Mat3 I_link = R_WB * scene.model.body(l5).inertia.inertia_com() * R_WB.transpose();
  EXPECT_TRUE(I_link.isApprox(Vec3(0.01, 0.02, 0.03).asDiagonal().toDenseMatrix(), 1e-12));
  const int iq = scene.model.body(l5).idx_q;
  q.segment<3>(iq) = Vec3(0.3, -0.2, 0.7);
  X_WB = BodyPoses(scene.model, q);
  const Vec3 moved = X_WB[l5].translation() - Vec3(0, 1, 0);
  EXPECT_NEAR(moved.x(), 0.0, 1e-12);  // no motion along the plane normal
  EXPECT_NEAR(moved.norm(), std::hypot(0.3, 0.2), 1e-12);
  // Rotation about the world x axis (the normal).
  const Mat3 R = X_WB[l5].rotation() * sphere5.placement.rotation();
  EXPECT_TRUE((R * Vec3::UnitX()).isApprox(Vec3::UnitX(), 1e-12));
  EXPECT_NEAR(std::atan2((R * Vec3::UnitY()).z(), (R * Vec3::UnitY()).y()), 0.7, 1e-12);
}

TEST(UrdfLoaderTest, WorldLinkIsTheWorld) {
  const Scene scene = LoadUrdf(kData + "world_root.urdf");
  ASSERT_EQ(scene.model.num_bodies(), 2);
  EXPECT_EQ(scene.model.body(0).name, "base");
  EXPECT_EQ(scene.model.body(0).parent, kWorldBody);
  EXPECT_EQ(scene.model.body(0).joint.type, JointType::kFixed);
  EXPECT_TRUE(scene.model.body(0).joint.placement.translation().isApprox(Vec3(0, 0, 0.5)));
  EXPECT_EQ(scene.nq(), 1);
  EXPECT_EQ(scene.model.body(1).joint.name, "shoulder");
}

TEST(UrdfLoaderTest, MimicJointIsRejected) {
  const std::string msg = ParseErrorMessage([] { LoadUrdf(kData + "mimic.urdf"); });
  EXPECT_THAT(msg, HasSubstr("mimic.urdf"));
  EXPECT_THAT(msg, HasSubstr("joint 'finger'"));
  EXPECT_THAT(msg, HasSubstr("mimic joints"));
}

TEST(UrdfLoaderTest, InvalidOptions) {
  UrdfOptions options;
  options.friction = -1.0;
  EXPECT_FALSE(options.Validate().empty());
  EXPECT_THROW(LoadUrdf(kData + "world_root.urdf", options), InvalidArgument);
}

TEST(UrdfLoaderTest, MalformedXmlNamesLine) {
  const std::string msg = ParseErrorMessage([] { LoadUrdf(kData + "bad_xml.urdf"); });
  EXPECT_THAT(msg, HasSubstr("bad_xml.urdf"));
  EXPECT_THAT(msg, HasSubstr("line 8"));
  EXPECT_THAT(msg, HasSubstr("malformed XML"));
}

TEST(UrdfLoaderTest, MissingAttributeIsReported) {
  const std::string msg = ParseErrorMessage([] { LoadUrdf(kData + "missing_attribute.urdf"); });
  EXPECT_THAT(msg, HasSubstr("missing_attribute.urdf"));
  EXPECT_THAT(msg, HasSubstr("urdfdom rejected"));
  EXPECT_THAT(msg, HasSubstr("shoulder"));  // urdfdom names the joint without a type
}

TEST(UrdfLoaderTest, JointToMissingLinkIsReported) {
  const std::string msg = ParseErrorMessage([] { LoadUrdf(kData + "missing_link.urdf"); });
  EXPECT_THAT(msg, HasSubstr("missing_link.urdf"));
  EXPECT_THAT(msg, HasSubstr("forearm"));
}

TEST(UrdfLoaderTest, MissingMeshNamesUrdfLinkAndMesh) {
  const std::string msg = ParseErrorMessage([] { LoadUrdf(kData + "missing_mesh.urdf"); });
  EXPECT_THAT(msg, HasSubstr("missing_mesh.urdf"));
  EXPECT_THAT(msg, HasSubstr("link 'base'"));
  EXPECT_THAT(msg, HasSubstr("meshes/does_not_exist.stl"));
  EXPECT_THAT(msg, HasSubstr("not found"));
  // Without meshes the same file loads.
  UrdfOptions options;
  options.load_meshes = false;
  EXPECT_NO_THROW(LoadUrdf(kData + "missing_mesh.urdf", options));
}

TEST(UrdfLoaderTest, MissingFile) {
  const std::string msg = ParseErrorMessage([] { LoadUrdf(kData + "no_such_file.urdf"); });
  EXPECT_THAT(msg, HasSubstr("no_such_file.urdf"));
  EXPECT_THAT(msg, HasSubstr("file not found"));
}

}  // namespace urdf_loader_test
}  // namespace arena
