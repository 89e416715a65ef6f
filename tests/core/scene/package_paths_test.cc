// package:// resolution: the order (--package, ROS_PACKAGE_PATH, upward), the crawl below a
// ROS_PACKAGE_PATH entry, and error messages naming every place searched. Also the WAM of
// dart-doc, whose meshes are package://herb_description/..., loaded both ways.
#include "core/scene/package_paths.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/common/error.h"
#include "core/scene/loader.h"
#include "tests/core/scene/scene_test_util.h"

namespace arena {
namespace package_paths_test {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using test::ParseErrorMessage;
using test::ScratchDir;

void Touch(const std::string& path) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << "x";
}

// A package 'pkg' with meshes/m.stl in `dir`.
std::string MakePackage(const std::string& dir, bool manifest = true) {
  Touch(dir + "/meshes/m.stl");
  if (manifest) Touch(dir + "/package.xml");
  return dir;
}

PackageResolver::Result Resolve(const std::string& uri, const PackagePaths& paths, const std::string& urdf_dir) {
  PackageResolver resolver(paths, urdf_dir);
  return resolver.Resolve(uri);
}

PackagePaths Paths(std::map<std::string, std::string> folders, std::string ros) {
  PackagePaths p;
  p.folders = std::move(folders);
  p.ros_package_path = std::move(ros);
  return p;
}

// Three copies of 'pkg': one the user names, one on ROS_PACKAGE_PATH, one around the URDF.
// Each rule wins when the rules before it have nothing.
TEST(PackagePathsTest, ExplicitThenRosPackagePathThenUpward) {
  ScratchDir tmp;
  const std::string mine = MakePackage(tmp / "mine/pkg");
  const std::string ros = MakePackage(tmp / "ros/pkg");
  MakePackage(tmp / "robot/pkg");
  const std::string urdf_dir = tmp / "robot/pkg/urdf";
  fs::create_directories(urdf_dir);
  const std::string uri = "package://pkg/meshes/m.stl";

  EXPECT_EQ(Resolve(uri, Paths({{"pkg", mine}}, tmp / "ros"), urdf_dir).path, mine + "/meshes/m.stl");
  EXPECT_EQ(Resolve(uri, Paths({}, tmp / "ros"), urdf_dir).path, ros + "/meshes/m.stl");
  EXPECT_EQ(Resolve(uri, Paths({{"other", mine}}, ""), urdf_dir).path, tmp / "robot/pkg/meshes/m.stl");
}

// Below an entry: the entry itself, a folder NAME in it (no manifest needed), or a folder NAME
// with a package.xml up to kRosSearchDepth levels down; not inside another package, not in
// hidden or CATKIN_IGNOREd folders; entries are tried in order, missing ones skipped.
TEST(PackagePathsTest, RosPackagePathCrawl) {
  ScratchDir tmp;
  const std::string uri = "package://pkg/meshes/m.stl";
  const std::string nowhere = tmp / "nowhere";
  fs::create_directories(nowhere);
  auto found = [&](const std::string& ros) { return Resolve(uri, Paths({}, ros), nowhere).path; };

  MakePackage(tmp / "self/pkg");
  EXPECT_EQ(found(tmp / "self/pkg"), tmp / "self/pkg/meshes/m.stl");
  EXPECT_EQ(found(tmp / "self/pkg/"), tmp / "self/pkg/meshes/m.stl");

  MakePackage(tmp / "direct/pkg", /*manifest=*/false);
  EXPECT_EQ(found(tmp / "direct"), tmp / "direct/pkg/meshes/m.stl");

  MakePackage(tmp / "deep/a/b/c/pkg");  // depth 4
  EXPECT_EQ(found(tmp / "deep"), tmp / "deep/a/b/c/pkg/meshes/m.stl");
  MakePackage(tmp / "deeper/a/b/c/d/pkg");  // depth 5
  EXPECT_EQ(found(tmp / "deeper"), "");
  MakePackage(tmp / "nomanifest/src/pkg", /*manifest=*/false);
  EXPECT_EQ(found(tmp / "nomanifest"), "");
  MakePackage(tmp / "nested/src/other/pkg");
  Touch(tmp / "nested/src/other/package.xml");  // packages do not nest
  EXPECT_EQ(found(tmp / "nested"), "");
  MakePackage(tmp / "hidden/.cache/pkg");
  EXPECT_EQ(found(tmp / "hidden"), "");
  MakePackage(tmp / "ignored/build/pkg");
  Touch(tmp / "ignored/build/CATKIN_IGNORE");
  EXPECT_EQ(found(tmp / "ignored"), "");

  EXPECT_EQ(found(tmp / "missing:" + tmp / "deeper:" + tmp / "deep:" + tmp / "direct"),
            tmp / "deep/a/b/c/pkg/meshes/m.stl");
  EXPECT_EQ(found("::" + tmp / "direct" + ":"), tmp / "direct/pkg/meshes/m.stl");
}

// A package found by --package or ROS_PACKAGE_PATH decides: a missing file there is an error
// (naming the folder and how it was found), not a reason to look further.
TEST(PackagePathsTest, FoundPackageWithoutTheFileIsAnError) {
  ScratchDir tmp;
  MakePackage(tmp / "robot/pkg");
  const std::string urdf_dir = tmp / "robot/pkg";
  const std::string stale = MakePackage(tmp / "stale/pkg");
  const std::string uri = "package://pkg/meshes/new.stl";
  Touch(tmp / "robot/pkg/meshes/new.stl");

  const auto by_user = Resolve(uri, Paths({{"pkg", stale}}, ""), urdf_dir);
  EXPECT_EQ(by_user.path, "");
  EXPECT_THAT(by_user.problem, HasSubstr("package 'pkg' is " + stale + " (--package pkg=" + stale +
                                         "), which has no 'meshes/new.stl'"));
  const auto by_ros = Resolve(uri, Paths({}, tmp / "stale"), urdf_dir);
  EXPECT_EQ(by_ros.path, "");
  EXPECT_THAT(by_ros.problem, HasSubstr("(ROS_PACKAGE_PATH entry '" + tmp / "stale" + "')"));
  EXPECT_THAT(by_ros.problem, HasSubstr("--package pkg=DIR overrides it"));
  EXPECT_THAT(by_ros.problem, HasSubstr("before it, searched --package mappings: none given"));
}

// Unresolved: every --package name, every ROS_PACKAGE_PATH entry (and why it was passed over)
// and every folder walked upward are in the message.
TEST(PackagePathsTest, UnresolvedUriNamesEveryPlaceSearched) {
  ScratchDir tmp;
  const std::string urdf_dir = tmp / "robot/urdf";
  fs::create_directories(urdf_dir);
  Touch(tmp / "file");
  fs::create_directories(tmp / "empty");
  MakePackage(tmp / "other");
  const auto r = Resolve("package://pkg/meshes/m.stl",
                         Paths({{"other", tmp / "other"}, {"third", tmp / "other"}},
                               tmp / "empty:" + tmp / "gone:" + tmp / "file"),
                         urdf_dir);
  EXPECT_EQ(r.path, "");
  EXPECT_THAT(r.problem, HasSubstr("package 'pkg' not found"));
  EXPECT_THAT(r.problem, HasSubstr("--package mappings: only for other, third"));
  EXPECT_THAT(r.problem, HasSubstr("ROS_PACKAGE_PATH entries '" + tmp / "empty" + "', '" + tmp / "gone" +
                                   "' (does not exist), '" + tmp / "file" + "' (not a folder)"));
  EXPECT_THAT(r.problem, HasSubstr("no folder named 'pkg' holding 'meshes/m.stl' at or in " + urdf_dir +
                                   ", " + tmp / "robot" + ", " + tmp.path()));
  EXPECT_THAT(r.problem, HasSubstr(", /. Give --package pkg=DIR"));

  const auto unset = Resolve("package://pkg/m.stl", Paths({}, ""), urdf_dir);
  EXPECT_THAT(unset.problem, HasSubstr("--package mappings: none given; ROS_PACKAGE_PATH: empty"));
}

TEST(PackagePathsTest, MappingsAreParsedAndChecked) {
  EXPECT_EQ(ParsePackageMapping("a=/x=y"), (std::pair<std::string, std::string>{"a", "/x=y"}));
  for (const char* bad : {"a", "=/x", "a=", ""}) {
    try {
      ParsePackageMapping(bad);
      ADD_FAILURE() << bad;
    } catch (const InvalidArgument& e) {
      EXPECT_THAT(e.what(), HasSubstr("expected NAME=DIR")) << bad;
    }
  }
  ScratchDir tmp;
  PackagePaths paths;
  AddPackageMapping(&paths, "a=" + tmp.path());
  AddPackageMapping(&paths, "a=" + tmp.path());  // the same twice is harmless
  EXPECT_THROW(AddPackageMapping(&paths, "a=/elsewhere"), InvalidArgument);
  EXPECT_EQ(paths.Validate(), "");
  paths.folders["b"] = tmp / "missing";
  EXPECT_EQ(paths.Validate(), "package b=" + tmp / "missing" + ": " + tmp / "missing" + " does not exist");
  paths.folders.erase("b");
  paths.folders["c/d"] = tmp.path();
  EXPECT_THAT(paths.Validate(), HasSubstr("must be non-empty and hold no '/'"));
}

// The URDF loader reports the resolver's message under the URDF, the link and the URI.
TEST(PackagePathsTest, LoaderErrorNamesUrdfLinkAndUri) {
  ScratchDir tmp;
  const std::string urdf = tmp / "r.urdf";
  std::ofstream(urdf) << "<robot name='r'><link name='base'><inertial><mass value='1'/><inertia ixx='1' "
                         "iyy='1' izz='1' ixy='0' ixz='0' iyz='0'/></inertial><collision><geometry><mesh "
                         "filename='package://nopkg/m.stl'/></geometry></collision></link></robot>";
  UrdfOptions options;
  options.packages.ros_package_path = tmp / "ros";
  const std::string msg = ParseErrorMessage([&] { LoadUrdf(urdf, options); });
  EXPECT_THAT(msg, HasSubstr(urdf + ": link 'base' / collision 0 / mesh 'package://nopkg/m.stl': package 'nopkg' "
                                    "not found; searched --package mappings: none given; ROS_PACKAGE_PATH entries '" +
                             tmp / "ros" + "' (does not exist)"));
  // A mapping to a missing folder is rejected before any mesh is looked at.
  options.packages.folders["nopkg"] = tmp / "nowhere";
  EXPECT_THROW(LoadUrdf(urdf, options), InvalidArgument);
}

// dart-doc's WAM arm: its collision meshes are package://herb_description/meshes/wam/*.STL,
// its .dae meshes are visuals (ignored). The folder holding wam.urdf plays herb_description.
class WamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(urdf_)) GTEST_SKIP() << "no dart-doc WAM at " << urdf_;
  }
  static void ExpectWam(const Scene& scene) {
    EXPECT_EQ(scene.model.num_bodies(), 8);  // /wam_base welded to the world, /wam1 ... /wam7
    EXPECT_EQ(scene.model.body(0).name, "/wam_base");
    EXPECT_EQ(scene.model.body(0).joint.type, JointType::kFixed);
    EXPECT_EQ(scene.nq(), 7);
    ASSERT_EQ(scene.colliders.size(), 8u);
    for (const Collider& c : scene.colliders) EXPECT_EQ(TypeOf(c.shape), ShapeType::kMesh) << c.name;
  }
  const std::string dir_ = DartDataDir() + "/urdf/wam";
  const std::string urdf_ = dir_ + "/wam.urdf";
};

TEST_F(WamTest, WithoutAMappingTheMeshesAreNotFound) {
  UrdfOptions options;
  options.packages.ros_package_path = "";
  const std::string msg = ParseErrorMessage([&] { LoadUrdf(urdf_, options); });
  EXPECT_THAT(msg, HasSubstr("package 'herb_description' not found"));
  EXPECT_THAT(msg, HasSubstr("Give --package herb_description=DIR"));
}

TEST_F(WamTest, LoadsWithAnExplicitMapping) {
  SceneLoadOptions options;
  options.packages.folders["herb_description"] = dir_;
  options.packages.ros_package_path = "";
  const Scene scene = LoadScene(urdf_, options);
  ExpectWam(scene);
  // 28 collider pairs, 7 parent-child: 21 tested (MakeScene would also drop the 2 that overlap at
  // the default pose); none with self_collision = false.
  EXPECT_EQ(scene.CollisionPairs().size(), 21u);
  options.self_collision = false;
  EXPECT_EQ(LoadScene(urdf_, options).CollisionPairs().size(), 0u);
}

TEST_F(WamTest, LoadsThroughRosPackagePath) {
  ScratchDir tmp;
  // A symlink named after the package, directly in the entry.
  fs::create_directories(tmp / "flat");
  fs::create_directory_symlink(dir_, tmp / "flat/herb_description");
  UrdfOptions options;
  options.packages.ros_package_path = tmp / "flat";
  ExpectWam(LoadUrdf(urdf_, options));
  // A workspace: src/robots/herb_description with a package.xml and its meshes linked in.
  fs::create_directories(tmp / "ws/src/robots/herb_description");
  Touch(tmp / "ws/src/robots/herb_description/package.xml");
  fs::create_directory_symlink(dir_ + "/meshes", tmp / "ws/src/robots/herb_description/meshes");
  options.packages.ros_package_path = tmp / "missing:" + tmp / "ws";
  ExpectWam(LoadUrdf(urdf_, options));
}

}  // namespace package_paths_test
}  // namespace arena
