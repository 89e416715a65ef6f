// The scene registry: unique snake_case names, every scene builds and validates with the
// dimensions its paper gives, a file path works wherever a name does, and unknown names fail
// with the list of registered ones.
#include "scenes/scene_registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "core/common/error.h"
#include "scenes/box_drop_scenes.h"
#include "scenes/solver_compare_scenes.h"
#include "scenes/stacking_scenes.h"
#include "tests/test_paths.h"

namespace arena {
namespace scene_registry_test {

using ::testing::HasSubstr;

const std::string kData = ::arena::testing::TestDataDir() + "/scene/";

TEST(SceneRegistry, NamesAreUniqueSnakeCaseWithOneLineDescriptions) {
  ASSERT_FALSE(Scenes().empty());
  const std::regex snake_case("[a-z][a-z0-9]*(_[a-z0-9]+)*");
  std::set<std::string> seen;
  for (const SceneInfo& s : Scenes()) {
    EXPECT_TRUE(std::regex_match(s.name, snake_case)) << s.name;
    EXPECT_TRUE(seen.insert(s.name).second) << "duplicate " << s.name;
    EXPECT_FALSE(s.description.empty()) << s.name;
    EXPECT_EQ(s.description.find('\n'), std::string::npos) << s.name;
    // A paper's seed, or the issue a scene of no paper was made for.
    EXPECT_THAT(s.paper, ::testing::AnyOf(HasSubstr("seed "), HasSubstr("issue "))) << s.name;
    EXPECT_TRUE(s.build) << s.name;
    EXPECT_EQ(&FindScene(s.name), &s);
  }
}

// Each scene passes its own validation and its default state is a valid state; the planar
// scenes of seed 000 are planar.
TEST(SceneRegistry, EverySceneBuildsAndValidates) {
  const std::set<std::string> planar = {"polygon", "tower_planar", "peg_in_hole", "convex_bundles",
                                        "falling_square", "square_on_floor", "grasp"};
  for (const SceneInfo& info : Scenes()) {
    SCOPED_TRACE(info.name);
    std::shared_ptr<const Scene> scene;
    ASSERT_NO_THROW(scene = MakeScene(info.name));
    ASSERT_NE(scene, nullptr);
    EXPECT_NO_THROW(scene->Validate());
    EXPECT_NO_THROW(ValidateState(*scene, DefaultState(*scene)));
    EXPECT_EQ(scene->IsPlanar(), planar.count(info.name) == 1);
  }
}

// The dimensions the papers give: Nimble's Tables II-III (Atlas 33 DOF, Half Cheetah 9,
// Jump-Worm and Catapult 5), Fig. 7's cartpoles and Fig. 8's 1-DOF drone; seed 000's free
// cube (quaternion: nq = nv + 1) and planar bodies (3 DOF each); box_on_arm's welded arm has no DOF;
// seed 004's push: 12 DOF (the box and the rod), 6 of them driven; gather and sort: ten free cubes and
// the rod's 4 (3) driven DOF (the paper counts 66 DOF: ten cubes and a 6-DOF rod).
TEST(SceneRegistry, ScenesHaveTheirPapersDimensions) {
  struct Dims {
    int nq, nv, nu;
  };
  const std::map<std::string, Dims> expected = {
      {"box", {7, 6, 0}},          {"polygon", {3, 3, 0}},       {"tower", {14, 12, 0}},
      {"tower_planar", {6, 6, 0}}, {"peg_in_hole", {3, 3, 0}},   {"convex_bundles", {6, 6, 0}},
      {"falling_square", {3, 3, 0}}, {"atlas", {34, 33, 33}},    {"half_cheetah", {9, 9, 6}},
      {"jump_worm", {5, 5, 3}},    {"catapult", {5, 5, 3}},      {"cartpole", {2, 2, 1}},
      {"double_cartpole", {3, 3, 1}}, {"drone", {1, 1, 1}},
      {"book_stack", {140, 120, 0}},  {"billiards", {112, 96, 0}},
      {"ball_pair", {14, 12, 0}},     {"push", {13, 12, 6}},
      {"gather", {74, 64, 4}},       {"sort", {73, 63, 3}},
      {"box_on_arm", {7, 6, 0}},      {"box_on_arm_primitive", {7, 6, 0}},
      {"cube_on_ground", {7, 6, 0}},  {"ball_on_ground", {7, 6, 0}},  {"sphere_probe", {7, 6, 0}},
      {"tpush", {5, 5, 2}},
      {"box_tower", {28, 24, 0}},     {"tilted_box", {7, 6, 0}},  {"square_on_floor", {3, 3, 0}},
      {"balls_on_a_line", {14, 12, 0}}, {"discs_in_a_plane", {14, 12, 0}}, {"ball_drop", {7, 6, 0}},
      {"sliding_box", {7, 6, 0}},     {"rotating_chains", {49, 45, 9}},
      {"reaching_chains", {49, 49, 1}}, {"spider", {16, 16, 24}}, {"biped", {12, 12, 12}},
      {"gripper", {10, 9, 6}},
      {"ant_push", {23, 22, 24}},     {"grasp", {9, 9, 6}},
  };
  for (const auto& [name, dims] : expected) {
    SCOPED_TRACE(name);
    const std::shared_ptr<const Scene> scene = MakeScene(name);
    EXPECT_EQ(scene->nq(), dims.nq);
    EXPECT_EQ(scene->nv(), dims.nv);
    EXPECT_EQ(scene->nu(), dims.nu);
  }
  EXPECT_EQ(expected.size(), Scenes().size()) << "a registered scene without expected dimensions";
}

// The fixed scenes are instances of the parametrised builders the experiments call.
TEST(SceneRegistry, FixedScenesAreTheExperimentsInstances) {
  auto same = [](const Scene& a, const Scene& b) {
    return a.name == b.name && a.default_q == b.default_q && a.colliders.size() == b.colliders.size() &&
           a.model.num_bodies() == b.model.num_bodies();
  };
  EXPECT_TRUE(same(*MakeScene("box"), *BoxDropScene("spatial")));
  EXPECT_TRUE(same(*MakeScene("polygon"), *BoxDropScene("planar")));
  EXPECT_TRUE(same(*MakeScene("tower"), *StackingScene("spatial", 0)));
  EXPECT_TRUE(same(*MakeScene("tower_planar"), *StackingScene("planar", 0)));
  EXPECT_TRUE(same(*MakeScene("box_tower"), *BoxTowerScene(4, 1e-3)));
  EXPECT_TRUE(same(*MakeScene("tilted_box"), *TiltedBoxScene(0.95, 1e-3)));
}

// solver_compare's slope tilts gravity: tan(angle) = slope_over_mu * mu, down the slope along +x.
TEST(SolverCompareScenes, TiltedGravityAndBadParameters) {
  const Vec3 g = TiltedBoxScene(1.0, 1e-3)->model.gravity();
  EXPECT_NEAR(g.x() / -g.z(), kContactProblemFriction, 1e-12);
  EXPECT_NEAR(g.norm(), 9.81, 1e-12);
  EXPECT_THROW(TiltedBoxScene(2.0, 1e-3), InvalidArgument);
  EXPECT_THROW(BoxTowerScene(0, 1e-3), InvalidArgument);
  EXPECT_THROW(CubeOnGroundScene(-1e-3), InvalidArgument);
}

TEST(SceneRegistry, FilePathsLoadLikeLoadScene) {
  EXPECT_EQ(MakeScene(kData + "features.xml")->name, "features");
  EXPECT_EQ(MakeScene(kData + "pkg_demo/meshes/tetra.stl")->name, "tetra");
  EXPECT_EQ(MakeScene(kData + "pkg_demo/urdf/robot.urdf")->name, "all_joints");
  EXPECT_THROW(MakeScene(kData + "bad_xml.urdf"), ParseError);
}

// Scene-load options reach registered scenes too (a copy: the registry's builder is untouched).
TEST(SceneRegistry, LoadOptionsApplyToRegisteredScenes) {
  EXPECT_EQ(MakeScene("catapult")->CollisionPairs().size(), 7u);
  SceneLoadOptions options;
  options.excluded_pairs = {{"world", "projectile"}};
  options.self_collision = false;  // the segments already skip each other (group/mask)
  const auto scene = MakeScene("catapult", options);
  EXPECT_FALSE(scene->self_collision);
  EXPECT_EQ(scene->CollisionPairs().size(), 6u);
  EXPECT_TRUE(MakeScene("catapult")->self_collision);
  options.excluded_pairs = {{"catapult_segment1", "elbow"}};
  try {
    MakeScene("catapult", options);
    FAIL() << "accepted an unknown body";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("no body named 'elbow'; its bodies: world, projectile/x, projectile, "
                                    "catapult_root, catapult_segment1"));
  }
  SceneLoadOptions packages;
  packages.packages.folders["pkg"] = kData + "no_such_folder";
  EXPECT_THROW(MakeScene("catapult", packages), InvalidArgument);
  EXPECT_THROW(MakeScene(kData + "features.xml", packages), InvalidArgument);
}

TEST(SceneRegistry, UnknownNamesListTheRegisteredOnes) {
  for (const std::string& bad : std::vector<std::string>{"no_such_scene", kData + "missing.urdf"}) {
    try {
      MakeScene(bad);
      FAIL() << "accepted " << bad;
    } catch (const InvalidArgument& e) {
      EXPECT_THAT(e.what(), HasSubstr("'" + bad + "'"));
      for (const SceneInfo& s : Scenes()) EXPECT_THAT(e.what(), HasSubstr(s.name));
    }
  }
  try {
    FindScene("Box");
    FAIL() << "names are case-sensitive";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("unknown scene 'Box'"));
    EXPECT_THAT(e.what(), HasSubstr("box, polygon, tower"));
  }
  EXPECT_THROW(BoxDropScene("cubic"), InvalidArgument);
  EXPECT_THROW(StackingScene("cubic", 0), InvalidArgument);
}

}  // namespace scene_registry_test
}  // namespace arena
