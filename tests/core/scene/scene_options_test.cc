// Scene-load options: self_collision = false (Scene::CanCollide's same-tree rule), excluded
// body pairs by name, SRDF <disable_collisions>, and MJCF <exclude> kept alongside.
#include "core/scene/scene_options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "core/common/error.h"
#include "core/scene/loader.h"
#include "core/scene/scene_builder.h"
#include "core/scene/srdf.h"
#include "tests/core/scene/scene_test_util.h"

namespace arena {
namespace scene_options_test {

using ::testing::HasSubstr;
using test::ParseErrorMessage;
using test::ScratchDir;

// Colliders: 0 base (welded to the world), 1 upper, 2 fore (a two-hinge arm on it), 3 box
// (free), 4 table (welded to the world: its own tree), 5 ground (the world's).
Scene ArmBoxTable() {
  SceneBuilder b("arm");
  const SpatialInertia inertia = SpatialInertia::SolidSphere(1.0, 0.1);
  JointModel fixed;
  fixed.type = JointType::kFixed;
  JointModel hinge;
  hinge.type = JointType::kRevolute;
  hinge.axis = Vec3::UnitY();
  const int base = b.AddBody("base", kWorldBody, fixed, inertia);
  const int upper = b.AddBody("upper", base, hinge, inertia);
  const int fore = b.AddBody("fore", upper, hinge, inertia);
  const int box = b.AddFreeBody("box", inertia, SE3::FromTranslation(Vec3(1, 0, 1)));
  const int table = b.AddBody("table", kWorldBody, fixed, inertia);
  for (int body : {base, upper, fore, box, table}) b.AddCollider(body, Sphere{0.1}).name = "c";
  b.AddGround();
  return *b.Build();
}

int CountExcluded(const Scene& s, PairExclusion why) {
  int n = 0;
  for (int a = 0; a < static_cast<int>(s.colliders.size()); ++a) {
    for (int b = a + 1; b < static_cast<int>(s.colliders.size()); ++b) n += s.Exclusion(a, b) == why;
  }
  return n;
}

// 15 collider pairs, 2 parent-child. Without self-collision the arm's base and forearm (one
// tree) skip each other; the arm still meets the box, the welded table and the ground.
TEST(SceneOptionsTest, SelfCollisionOffSkipsOneTreeOnly) {
  Scene scene = ArmBoxTable();
  EXPECT_TRUE(scene.self_collision);
  EXPECT_EQ(scene.CollisionPairs().size(), 13u);
  EXPECT_EQ(CountExcluded(scene, PairExclusion::kParentChild), 2);
  EXPECT_TRUE(scene.CanCollide(0, 2));

  SceneLoadOptions options;
  SetSceneOption(&options, "self_collision", "false");
  ApplySceneOptions(options, &scene);
  EXPECT_FALSE(scene.self_collision);
  EXPECT_EQ(scene.CollisionPairs().size(), 12u);
  EXPECT_EQ(scene.Exclusion(0, 2), PairExclusion::kSameTree);
  EXPECT_EQ(CountExcluded(scene, PairExclusion::kSameTree), 1);
  EXPECT_EQ(scene.Exclusion(0, 1), PairExclusion::kParentChild);  // counted under the first rule
  for (int arm : {0, 1, 2}) {
    for (int other : {3, 4, 5}) EXPECT_TRUE(scene.CanCollide(arm, other)) << arm << " " << other;
  }
  EXPECT_EQ(scene.TreeRoot(2), 0);
  EXPECT_EQ(scene.TreeRoot(3), 3);
  EXPECT_EQ(scene.TreeRoot(kWorldBody), kWorldBody);
  // CanCollide and CollisionPairs (precomputed roots) agree.
  for (const auto& [a, b] : scene.CollisionPairs()) EXPECT_TRUE(scene.CanCollide(a, b));
  // A scene key given as true on a scene built with it off turns it back on.
  SetSceneOption(&options, "self_collision", "true");
  ApplySceneOptions(options, &scene);
  EXPECT_EQ(scene.CollisionPairs().size(), 13u);
}

TEST(SceneOptionsTest, NamedExcludes) {
  Scene scene = ArmBoxTable();
  SceneLoadOptions options;
  options.excluded_pairs = {{"fore", "box"}, {"world", "box"}, {"box", "fore"}};
  ApplySceneOptions(options, &scene);
  EXPECT_EQ(scene.excluded_body_pairs.size(), 2u);  // the repeated pair once
  EXPECT_EQ(scene.Exclusion(2, 3), PairExclusion::kExcludedPair);
  EXPECT_EQ(scene.Exclusion(3, 5), PairExclusion::kExcludedPair);
  EXPECT_EQ(scene.CollisionPairs().size(), 11u);
  EXPECT_TRUE(scene.CanCollide(1, 3));
}

TEST(SceneOptionsTest, UnknownBodyListsTheBodies) {
  Scene scene = ArmBoxTable();
  SceneLoadOptions options;
  options.excluded_pairs = {{"fore", "elbow"}};
  try {
    ApplySceneOptions(options, &scene);
    ADD_FAILURE() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()), "excluded pair fore:elbow: scene 'arm' has no body named 'elbow'; "
                                     "its bodies: world, base, upper, fore, box, table");
  }
}

TEST(SceneOptionsTest, KeysAndPairsAreParsed) {
  EXPECT_EQ(SceneOptionKeys(), (std::vector<std::string>{"self_collision", "skip_default_overlaps"}));
  SceneLoadOptions options;
  EXPECT_TRUE(options.IsDefault());
  EXPECT_THROW(SetSceneOption(&options, "self_collision", "maybe"), InvalidArgument);
  try {
    SetSceneOption(&options, "gravity", "0");
    ADD_FAILURE();
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("unknown scene key 'gravity'; valid: self_collision"));
  }
  SetSceneOption(&options, "self_collision", "off");
  EXPECT_EQ(options.self_collision, false);
  EXPECT_FALSE(options.IsDefault());
  EXPECT_EQ(ParseExcludedPair("/wam1:/wam3"), (std::pair<std::string, std::string>{"/wam1", "/wam3"}));
  for (const char* bad : {"a", "a:", ":b", "a:b:c"}) EXPECT_THROW(ParseExcludedPair(bad), InvalidArgument) << bad;
}

std::string WriteText(const ScratchDir& dir, const std::string& name, const std::string& text) {
  const std::string path = dir / name;
  std::ofstream(path) << text;
  return path;
}

TEST(SceneOptionsTest, SrdfDisabledCollisions) {
  ScratchDir tmp;
  const std::string srdf = WriteText(tmp, "arm.srdf", R"(<?xml version="1.0"?>
<robot name="arm">
  <group name="arm"><chain base_link="base" tip_link="fore"/></group>
  <virtual_joint name="v" type="fixed" parent_frame="world" child_link="base"/>
  <disable_collisions link1="base" link2="fore" reason="Never"/>
  <disable_collisions link1="table" link2="upper" reason="Never"/>
</robot>
)");
  const auto pairs = ReadSrdfDisabledCollisions(srdf);
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[1].link1, "table");
  EXPECT_EQ(pairs[1].line, 6);
  Scene scene = ArmBoxTable();
  SceneLoadOptions options;
  options.srdf = srdf;
  ApplySceneOptions(options, &scene);
  EXPECT_EQ(scene.Exclusion(0, 2), PairExclusion::kExcludedPair);
  EXPECT_EQ(scene.Exclusion(1, 4), PairExclusion::kExcludedPair);
  EXPECT_EQ(scene.CollisionPairs().size(), 11u);
}

TEST(SceneOptionsTest, BadSrdfNamesFileAndElement) {
  ScratchDir tmp;
  struct Case {
    std::string text, expected;
  };
  const std::vector<Case> cases = {
      {"<robot><disable_collisions link1='a' link2='b'>", "bad.srdf: line 1: malformed XML"},
      {"<robt/>", "bad.srdf: <robt> (line 1): no <robot> root element"},
      {"<robot>\n<disable_collisions link1='base'/></robot>",
       "bad.srdf: <disable_collisions> (line 2) / link2: missing or empty"},
      {"<robot>\n<disable_default_collisions link='base'/></robot>",
       "bad.srdf: <disable_default_collisions> (line 2): not supported"},
      {"<robot>\n<disable_colisions link1='a' link2='b'/></robot>",
       "bad.srdf: <disable_colisions> (line 2): unknown SRDF element"},
      {"<robot>\n\n<disable_collisions link1='base' link2='elbow'/></robot>",
       "bad.srdf: <disable_collisions> (line 3) / link2: scene 'arm' has no link named 'elbow' (is this "
       "the SRDF of another robot?); its links: world, base, upper, fore, box, table"},
  };
  for (const Case& c : cases) {
    SceneLoadOptions options;
    options.srdf = WriteText(tmp, "bad.srdf", c.text);
    Scene scene = ArmBoxTable();
    const std::string msg = ParseErrorMessage([&] { ApplySceneOptions(options, &scene); });
    EXPECT_THAT(msg, HasSubstr(c.expected)) << c.text;
  }
  SceneLoadOptions missing;
  missing.srdf = tmp / "none.srdf";
  Scene scene = ArmBoxTable();
  EXPECT_THAT(ParseErrorMessage([&] { ApplySceneOptions(missing, &scene); }), HasSubstr("none.srdf"));
}

// The file's own <exclude> stays when the user adds pairs and turns self-collision off.
TEST(SceneOptionsTest, MjcfExcludeIsKept) {
  ScratchDir tmp;
  const std::string xml = WriteText(tmp, "two.xml", R"(<mujoco>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 .1"/>
    <body name="a" pos="0 0 1"><freejoint/><geom name="ga" size=".1"/>
      <body name="a2" pos="0 0 .3"><joint type="hinge"/><geom name="ga2" size=".1"/></body>
    </body>
    <body name="b" pos="1 0 1"><freejoint/><geom name="gb" size=".1"/></body>
    <body name="c" pos="2 0 1"><freejoint/><geom name="gc" size=".1"/></body>
  </worldbody>
  <contact><exclude body1="a2" body2="b"/></contact>
</mujoco>
)");
  const Scene plain = LoadScene(xml);
  // 10 pairs: a-a2 parent-child, a2-b the file's exclude.
  EXPECT_EQ(plain.CollisionPairs().size(), 8u);
  SceneLoadOptions options;
  options.self_collision = false;
  options.excluded_pairs = {{"b", "c"}};
  const Scene scene = LoadScene(xml, options);
  EXPECT_EQ(scene.excluded_body_pairs.size(), 2u);
  EXPECT_EQ(CountExcluded(scene, PairExclusion::kExcludedPair), 2);  // a2-b (file), b-c (user)
  EXPECT_EQ(CountExcluded(scene, PairExclusion::kParentChild), 1);
  EXPECT_EQ(CountExcluded(scene, PairExclusion::kSameTree), 0);  // a's tree has no third body
  EXPECT_EQ(scene.CollisionPairs().size(), 7u);
}

}  // namespace scene_options_test
}  // namespace arena
