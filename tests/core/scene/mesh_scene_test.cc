#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "core/common/error.h"
#include "core/scene/loader.h"
#include "tests/test_paths.h"

namespace arena {
namespace mesh_scene_test {

using ::testing::HasSubstr;

const std::string kData = ::arena::testing::TestDataDir() + "/scene/";

TEST(MeshSceneTest, TetrahedronMassProperties) {
  const Scene scene = LoadMeshScene(kData + "pkg_demo/meshes/tetra.stl");
  EXPECT_EQ(scene.name, "tetra");
  EXPECT_EQ(scene.model.num_bodies(), 1);
  EXPECT_EQ(scene.model.body(0).joint.type, JointType::kFree);
  ASSERT_EQ(scene.colliders.size(), 1u);
  EXPECT_EQ(TypeOf(scene.colliders[0].shape), ShapeType::kMesh);
  // Unit right tetrahedron: V = 1/6, COM (1/4, 1/4, 1/4); about the origin the covariance is
  // m/20 (1 + ones), so about the COM C = m/20 (1 + ones) - m c c^T and I = tr(C) 1 - C,
  // i.e. Ixx = 3 m / 40 and Ixy = m / 80.
  const SpatialInertia& I = scene.model.body(0).inertia;
  const double m = 1000.0 / 6.0;
  EXPECT_NEAR(I.mass(), m, 1e-9);
  EXPECT_TRUE(I.com().isApprox(Vec3::Constant(0.25), 1e-12));
  const Mat3 C = m / 20.0 * (Mat3::Identity() + Mat3::Ones()) -
                 m * Vec3::Constant(0.25) * Vec3::Constant(0.25).transpose();
  const Mat3 expected = C.trace() * Mat3::Identity() - C;
  EXPECT_TRUE(I.inertia_com().isApprox(expected, 1e-9));
  EXPECT_NEAR(I.inertia_com()(0, 0), 3.0 * m / 40.0, 1e-9);
  EXPECT_NEAR(I.inertia_com()(0, 1), m / 80.0, 1e-9);
}

TEST(MeshSceneTest, MalformedStlNamesFile) {
  try {
    LoadMeshScene(kData + "malformed.stl");
    FAIL() << "expected a ParseError";
  } catch (const ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("malformed.stl"));
  }
}

TEST(LoadSceneTest, DispatchOnExtension) {
  EXPECT_EQ(LoadScene(kData + "features.xml").name, "features");
  EXPECT_EQ(LoadScene(kData + "pkg_demo/meshes/tetra.stl").name, "tetra");
  EXPECT_EQ(LoadScene(kData + "pkg_demo/urdf/robot.urdf").name, "all_joints");
  EXPECT_EQ(LoadScene(DartDataDir() + "/mjcf/openai/half_cheetah.xml.gz").name, "cheetah");
  try {
    LoadScene(kData + "scene.toml");
    FAIL() << "expected a ParseError";
  } catch (const ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("scene.toml"));
    EXPECT_THAT(e.what(), HasSubstr("unknown scene file type"));
  }
}

TEST(LoadSceneTest, DartDataDirFollowsEnvironment) {
  const char* saved = std::getenv("ARENA_DART_DATA_DIR");
  const std::string before = saved ? saved : "";
  setenv("ARENA_DART_DATA_DIR", "/tmp/elsewhere", 1);
  EXPECT_EQ(DartDataDir(), "/tmp/elsewhere");
  if (saved) {
    setenv("ARENA_DART_DATA_DIR", before.c_str(), 1);
  } else {
    unsetenv("ARENA_DART_DATA_DIR");
    EXPECT_EQ(DartDataDir(), ARENA_DART_DATA_DIR);
  }
}

}  // namespace mesh_scene_test
}  // namespace arena
