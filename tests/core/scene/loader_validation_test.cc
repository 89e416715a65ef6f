// Physically invalid robot files are rejected by every loader with the file, the element and
// the problem; files that cannot be read say why and what to do; the files the project uses
// still load. The physical rules themselves are Scene::Check's (scene_check_test.cc).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include <unistd.h>

#include "core/common/error.h"
#include "core/scene/loader.h"

#include "tests/core/scene/scene_test_util.h"
#include "tests/test_paths.h"

namespace arena {
namespace loader_validation_test {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using test::ParseErrorMessage;
using test::ScratchDir;

const std::string kData = ::arena::testing::TestDataDir() + "/scene/";
const std::string kInvalid = kData + "invalid/";

struct FileCase {
  const char* name;
  std::string text;                   // the file
  std::vector<std::string> expected;  // substrings of the message: element and problem
};

// A two-link URDF; each case replaces one attribute value. The arm hangs on a revolute joint.
std::string Urdf(const std::map<std::string, std::string>& set) {
  std::map<std::string, std::string> v = {
      {"BASE_MASS", "2"}, {"BASE_IXX", "0.1"}, {"BASE_IZZ", "0.1"},
      {"MASS", "1"}, {"IXX", "0.01"}, {"IYY", "0.01"}, {"IZZ", "0.01"}, {"IXY", "0"},
      {"INERTIAL_XYZ", "0 0 0"}, {"GEOMETRY", "<box size='0.1 0.1 0.1'/>"},
      {"COLLISION_XYZ", "0 0 0"}, {"JOINT_TYPE", "revolute"}, {"JOINT_XYZ", "0 0 -0.5"},
      {"AXIS", "0 1 0"}, {"LIMIT", "lower='-1' upper='1' effort='10' velocity='2'"},
      {"DYNAMICS", "damping='0.1' friction='0'"}, {"ARM_INERTIAL", ""}};
  for (const auto& [k, x] : set) v[k] = x;
  const std::string inertial =
      set.count("ARM_INERTIAL") ? v["ARM_INERTIAL"]
                                : "<inertial><origin xyz='" + v["INERTIAL_XYZ"] + "'/><mass value='" +
                                      v["MASS"] + "'/><inertia ixx='" + v["IXX"] + "' ixy='" + v["IXY"] +
                                      "' ixz='0' iyy='" + v["IYY"] + "' iyz='0' izz='" + v["IZZ"] +
                                      "'/></inertial>";
  return "<?xml version='1.0'?>\n<robot name='two'>\n"
         "<link name='base'><inertial><mass value='" + v["BASE_MASS"] + "'/><inertia ixx='" +
         v["BASE_IXX"] + "' ixy='0' ixz='0' iyy='0.1' iyz='0' izz='" + v["BASE_IZZ"] +
         "'/></inertial></link>\n"
         "<link name='arm'>" + inertial + "<collision><origin xyz='" + v["COLLISION_XYZ"] +
         "'/><geometry>" + v["GEOMETRY"] + "</geometry></collision></link>\n"
         "<joint name='elbow' type='" + v["JOINT_TYPE"] + "'><parent link='base'/><child link='arm'/>"
         "<origin xyz='" + v["JOINT_XYZ"] + "'/><axis xyz='" + v["AXIS"] + "'/><limit " + v["LIMIT"] +
         "/><dynamics " + v["DYNAMICS"] + "/></joint>\n</robot>\n";
}

// An MJCF body (on line 4) inside a fixed frame of options; `body` is its content.
std::string Mjcf(const std::string& body, const std::string& compiler = "") {
  return "<mujoco model='m'>\n<compiler " + compiler + "/>\n<worldbody>\n<body name='link'>" + body +
         "</body>\n</worldbody>\n</mujoco>\n";
}

void ExpectRejected(const std::vector<FileCase>& cases, const std::string& extension) {
  ScratchDir dir;
  for (const FileCase& c : cases) {
    const std::string path = dir / (std::regex_replace(c.name, std::regex("[^a-z0-9]+"), "_") + extension);
    std::ofstream(path) << c.text;
    const std::string message = ParseErrorMessage([&] { LoadScene(path); });
    EXPECT_THAT(message, HasSubstr(path)) << c.name;
    for (const std::string& part : c.expected) EXPECT_THAT(message, HasSubstr(part)) << c.name;
  }
}

TEST(LoaderValidationTest, InvalidUrdfIsRejectedNamingLinkAndProblem) {
  const std::string flat = kInvalid + "flat_plate.stl";
  ExpectRejected(
      {
          // Inertia: the file's values, at the inertial element.
          {"negative ixx", Urdf({{"IXX", "-1"}}), {"link 'arm' / inertial", "(-1, 0.01, 0.01)", "negative"}},
          {"triangle inequality", Urdf({{"IZZ", "0.05"}}),
           {"link 'arm' / inertial", "triangle inequality I1 + I2 >= I3 (0.02 < 0.05)"}},
          {"negative mass", Urdf({{"MASS", "-1"}}), {"link 'arm' / inertial", "mass -1"}},
          {"inertia without mass", Urdf({{"MASS", "0"}}), {"link 'arm' / inertial", "mass is 0"}},
          {"zero inertia on a free body", Urdf({{"BASE_IXX", "0"}, {"BASE_IZZ", "0"}}),
           {"link 'base' / inertial", "principal moments of inertia (0, 0, 0.1)", "triangle"}},
          {"point mass on a free body",
           "<robot name='p'><link name='puck'><inertial><mass value='1'/><inertia ixx='0' ixy='0' "
           "ixz='0' iyy='0' iyz='0' izz='0'/></inertial></link></robot>",
           {"link 'puck'", "mass matrix is singular", "free joint 'puck_root'"}},
          {"massless link at the end of a chain", Urdf({{"ARM_INERTIAL", ""}}),
           {"link 'arm'", "neither it nor any body below it has mass"}},
          // Values urdfdom cannot read: it logs an error and would drop the rest of the link.
          {"nan ixx", Urdf({{"IXX", "nan"}}), {"urdfdom rejected", "ixx", "arm"}},
          {"inf izz", Urdf({{"IZZ", "inf"}}), {"urdfdom rejected", "izz"}},
          {"overflowing mass", Urdf({{"MASS", "1e999"}}), {"urdfdom rejected", "mass"}},
          {"nan inertial origin", Urdf({{"INERTIAL_XYZ", "nan 0 0"}}), {"urdfdom rejected"}},
          {"nan joint origin", Urdf({{"JOINT_XYZ", "0 nan 0"}}), {"urdfdom rejected", "elbow"}},
          {"inf collision origin", Urdf({{"COLLISION_XYZ", "0 0 inf"}}), {"urdfdom rejected"}},
          {"nan limit", Urdf({{"LIMIT", "lower='nan' upper='1' effort='10' velocity='2'"}}),
           {"urdfdom rejected", "elbow"}},
          {"nan sphere radius", Urdf({{"GEOMETRY", "<sphere radius='nan'/>"}}), {"urdfdom rejected", "radius"}},
          // Geometry: at the collision element.
          {"box of size 0", Urdf({{"GEOMETRY", "<box size='0 0.1 0.1'/>"}}),
           {"link 'arm' / collision 0 / box", "box half extents (0, 0.05, 0.05) must be finite and > 0"}},
          {"sphere of radius -0.1", Urdf({{"GEOMETRY", "<sphere radius='-0.1'/>"}}),
           {"link 'arm' / collision 0 / sphere", "sphere radius -0.1"}},
          {"cylinder of length 0", Urdf({{"GEOMETRY", "<cylinder radius='0.1' length='0'/>"}}),
           {"link 'arm' / collision 0 / cylinder", "cylinder half length 0"}},
          {"cylinder of radius -1", Urdf({{"GEOMETRY", "<cylinder radius='-1' length='0.2'/>"}}),
           {"link 'arm' / collision 0 / cylinder", "cylinder radius -1"}},
          {"flat STL collider", Urdf({{"GEOMETRY", "<mesh filename='" + flat + "'/>"}}),
           {"link 'arm' / collision 0 / mesh", "mesh is flat"}},
          {"mesh scale 0", Urdf({{"GEOMETRY", "<mesh filename='" + flat + "' scale='1 0 1'/>"}}),
           {"link 'arm' / collision 0 / mesh", "scale components must be finite and nonzero"}},
          // Joints.
          {"zero axis", Urdf({{"AXIS", "0 0 0"}}), {"joint 'elbow' / axis", "(0, 0, 0) must be a finite non-zero vector"}},
          {"lower above upper", Urdf({{"LIMIT", "lower='1' upper='-1' effort='10' velocity='2'"}}),
           {"joint 'elbow' / limit", "lower limit 1 exceeds upper limit -1"}},
          {"negative effort", Urdf({{"LIMIT", "lower='-1' upper='1' effort='-10' velocity='2'"}}),
           {"joint 'elbow' / limit / effort", "effort limit -10"}},
          {"negative velocity", Urdf({{"LIMIT", "lower='-1' upper='1' effort='10' velocity='-2'"}}),
           {"joint 'elbow' / limit / velocity", "velocity limit -2"}},
          {"negative damping", Urdf({{"DYNAMICS", "damping='-0.1'"}}), {"joint 'elbow' / dynamics / damping", "damping -0.1"}},
          {"negative friction", Urdf({{"DYNAMICS", "friction='-1'"}}), {"joint 'elbow' / dynamics / friction", "friction -1"}},
          // Files that are not there.
          {"missing mesh", Urdf({{"GEOMETRY", "<mesh filename='no_such_mesh.stl'/>"}}),
           {"link 'arm' / collision 0 / mesh 'no_such_mesh.stl'", "file not found"}},
          {"missing package", Urdf({{"GEOMETRY", "<mesh filename='package://no_such_pkg/m.stl'/>"}}),
           {"mesh 'package://no_such_pkg/m.stl'", "package 'no_such_pkg' not found", "relative to the URDF"}},
          {"mesh is a directory", Urdf({{"GEOMETRY", "<mesh filename='" + kInvalid + "'/>"}}),
           {"link 'arm' / collision 0 / mesh", "is a directory, not a mesh file"}},
      },
      ".urdf");
}

TEST(LoaderValidationTest, InvalidMjcfIsRejectedNamingElementAndProblem) {
  ExpectRejected(
      {
          {"sphere of radius -0.1", Mjcf("<freejoint/><geom name='g' size='-0.1'/>"),
           {"<geom> 'g' (line 4) / size", "sizes must be > 0"}},
          {"box of size 0", Mjcf("<freejoint/><geom type='box' size='0 0.1 0.1'/>"), {"<geom> (line 4) / size"}},
          {"negative diaginertia", Mjcf("<freejoint/><inertial mass='1' diaginertia='-1 1 1'/>"),
           {"<inertial> (line 4) / diaginertia", "negative"}},
          {"fullinertia breaking the triangle inequality",
           Mjcf("<freejoint/><inertial mass='1' fullinertia='0.1 0.1 0.5 0 0 0'/>"),
           {"<inertial> (line 4) / fullinertia", "triangle inequality"}},
          {"inertia without mass", Mjcf("<freejoint/><inertial mass='0' diaginertia='1 1 1'/>"),
           {"<inertial> (line 4) / diaginertia", "mass is 0"}},
          {"zero inertia on a free body", Mjcf("<freejoint/><inertial mass='1' diaginertia='0 0 0'/>"),
           {"<body> 'link' (line 4)", "mass matrix is singular", "free joint"}},
          {"two hinges on one axis", Mjcf("<joint name='a'/><joint name='b'/><geom size='0.1'/>"),
           {"<body> 'link' (line 4)", "mass matrix is singular", "revolute joint 'b'"}},
          {"negative density", Mjcf("<freejoint/><geom size='0.1' density='-1000'/>"),
           {"<geom> (line 4) / density", "density must be >= 0"}},
          {"overflowing mass", Mjcf("<freejoint/><geom size='1e120'/>"), {"<geom> (line 4) / density", "overflows"}},
          {"non-integer contype", Mjcf("<freejoint/><geom size='0.1' contype='1.5'/>"),
           {"<geom> (line 4) / contype", "integer"}},
          {"huge conaffinity", Mjcf("<freejoint/><geom size='0.1' conaffinity='1e20'/>"),
           {"<geom> (line 4) / conaffinity", "integer"}},
          {"nan position", Mjcf("<freejoint/><geom size='0.1' pos='nan 0 0'/>"), {"<geom> (line 4) / pos", "not a finite number"}},
          {"inf gear",
           "<mujoco>\n<worldbody>\n<body><joint name='h'/><geom size='0.1'/></body>\n</worldbody>\n"
           "<actuator><motor joint='h' gear='inf'/></actuator>\n</mujoco>\n",
           {"<motor> (line 5) / gear", "not a finite number"}},
      },
      ".xml");
}

TEST(LoaderValidationTest, FilesThatCannotBeReadSayWhy) {
  ScratchDir dir;
  // A directory with a robot file's name: "is a directory", not the XML parser's "empty".
  for (const std::string name : {"x.urdf", "x.xml", "x.stl"}) {
    fs::create_directories(dir / name);
    const std::string message = ParseErrorMessage([&] { LoadScene(dir / name); });
    EXPECT_THAT(message, HasSubstr(dir / name));
    EXPECT_THAT(message, HasSubstr("is a directory, not a"));
    EXPECT_THAT(message, ::testing::Not(HasSubstr("XML_ERROR")));
  }
  std::ofstream(dir / "empty.urdf").flush();
  EXPECT_THAT(ParseErrorMessage([&] { LoadScene(dir / "empty.urdf"); }), HasSubstr("the file is empty"));
  std::ofstream(dir / "blank.xml") << " \n\t\n";
  EXPECT_THAT(ParseErrorMessage([&] { LoadScene(dir / "blank.xml"); }),
              HasSubstr("the file contains only white space; expected an MJCF <mujoco>"));
  EXPECT_THAT(ParseErrorMessage([&] { LoadScene(dir / "missing.xml"); }),
              HasSubstr("file not found; check the path of the MJCF file"));
  EXPECT_THAT(ParseErrorMessage([&] { LoadScene(dir / "robot.sdf"); }),
              HasSubstr("unknown scene file type; expected a robot description (.urdf"));
  if (::geteuid() != 0) {  // root reads anything
    std::ofstream(dir / "locked.urdf") << "<robot name='r'/>";
    fs::permissions(dir / "locked.urdf", fs::perms::none);
    EXPECT_THAT(ParseErrorMessage([&] { LoadScene(dir / "locked.urdf"); }),
                HasSubstr("cannot be opened for reading (Permission denied); check the file's permissions"));
  }
}

TEST(LoaderValidationTest, InvalidFilesInTheDataFolder) {
  EXPECT_THAT(ParseErrorMessage([] { LoadScene(kInvalid + "flat_collider.urdf"); }),
              HasSubstr("flat_collider.urdf: link 'paddle' / collision 0 / mesh: mesh is flat"));
  EXPECT_THAT(ParseErrorMessage([] { LoadScene(kInvalid + "triangle_inequality.urdf"); }),
              HasSubstr("triangle_inequality.urdf: link 'base' / inertial: principal moments of inertia "
                        "(0.1, 0.1, 0.5) break the triangle inequality"));
  EXPECT_THAT(ParseErrorMessage([] { LoadScene(kInvalid + "negative_radius.xml"); }),
              HasSubstr("negative_radius.xml: <geom> 'ball_geom' (line 6) / size: sizes must be > 0"));
  EXPECT_THAT(ParseErrorMessage([] { LoadScene(kInvalid + "flat_plate.stl"); }),
              HasSubstr("flat_plate.stl: the mesh encloses no volume"));
}

// Every file the project reads still loads, without errors; their warnings are listed here so
// that a new rule that would flag them is a visible decision. The ant starts its ankles at 0,
// outside their ranges (MuJoCo's qpos0 may be); pusher's and thrower's tiny goal or wrist
// geoms weigh 1e-10 and 2e-9 kg.
TEST(LoaderValidationTest, ProjectFilesStillLoad) {
  const std::string mjcf = DartDataDir() + "/mjcf/openai/";
  const std::vector<std::string> files = {
      DartDataDir() + "/sdf/atlas/atlas_v3_no_head.urdf",
      mjcf + "half_cheetah.xml.gz", mjcf + "ant.xml.gz", mjcf + "hopper.xml", mjcf + "pusher.xml.gz",
      mjcf + "thrower.xml.gz", mjcf + "reacher.xml", mjcf + "point.xml",
      mjcf + "inverted_pendulum.xml", mjcf + "inverted_double_pendulum.xml",
      kData + "features.xml", kData + "world_root.urdf", kData + "pkg_demo/urdf/robot.urdf",
      kData + "pkg_demo/meshes/tetra.stl"};
  const std::map<std::string, std::vector<std::string>> expected_warnings = {
      {mjcf + "ant.xml.gz",
       {"joint 'ankle_1' of body 'body3': default position 0 is outside the limits",
        "joint 'ankle_2' of body 'body6': default position 0 is outside the limits",
        "joint 'ankle_3' of body 'body9': default position 0 is outside the limits",
        "joint 'ankle_4' of body 'body12': default position 0 is outside the limits"}},
      {mjcf + "pusher.xml.gz", {"body 'goal': body masses span a ratio of 1.81e+10"}},
      {mjcf + "thrower.xml.gz", {"body 'r_wrist_flex_link': body masses span a ratio of 4.31e+07"}}};
  for (const std::string& file : files) {
    Scene scene;
    ASSERT_NO_THROW(scene = LoadScene(file)) << file;
    const auto it = expected_warnings.find(file);
    const std::vector<std::string> expected = it == expected_warnings.end() ? std::vector<std::string>{} : it->second;
    const std::vector<SceneIssue> issues = scene.Check();
    ASSERT_EQ(issues.size(), expected.size()) << file;
    for (size_t i = 0; i < issues.size(); ++i) {
      EXPECT_EQ(issues[i].severity, SceneIssue::Severity::kWarning) << file;
      EXPECT_THAT(scene.Describe(issues[i]) + ": " + issues[i].problem, HasSubstr(expected[i])) << file;
    }
  }
}

}  // namespace loader_validation_test
}  // namespace arena
