// Robot files of the dart-doc data (issue 16): each loads, gets a ground under its lowest point
// (scenes/ground_below.h) and falls, unactuated, for 1 s in each model. The check is that the
// model copes with a real robot's collision meshes: every step succeeds, the state stays
// finite, and no collider ends more than a centimetre below the ground (nothing fell through).
// Each robot runs without self-collision (links against the ground only) and with it.
//
//   - drchubo (drchubo.urdf: floating base, 51 revolute joints, convex-hull STL meshes found
//     through package://drchubo/), Z up as the file is drawn;
//   - the KUKA KR5 (KR5 sixx R650.urdf: base bolted to the world, 6 revolute joints, one STL
//     mesh per link), Y up as its file bolts it (DART's convention, the data's ground.urdf);
//   - the Barrett WAM (wam.urdf: base welded to the world, 7 revolute joints, STL collision
//     meshes named package://herb_description/..., mapped to the file's folder as
//     `--package herb_description=...` does), Z up.
//
// Against the ground alone the pairs are mesh-half-space, which every model collides. With
// self-collision (every pair of links except parent-child pairs and pairs overlapping at the
// default pose, as scene files load) they are also mesh-mesh, which every model collides.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <ostream>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/common/error.h"
#include "core/scene/initial_overlaps.h"
#include "core/scene/loader.h"
#include "models/registry.h"
#include "scenes/ground_below.h"

namespace arena {
namespace robot_files_test {

constexpr double kSeconds = 1.0;
// m: how far a collider may end up under the ground. Only the end is checked: on impact the
// soft contacts let links in further (measured: MuJoCo 1.5 cm, penalty 1.3 cm, nimble 0.7 cm;
// MuJoCo 3 cm for drchubo with self-collision, its overlapping links pushed apart at the start).
constexpr double kBelowGround = 0.01;

// Each model's defaults, except penalty's: at its default 10 ms the first ground contact makes
// the state non-finite, at 1 ms the KR5's links end up spinning at |v| ~ 1700; at 0.2 ms the
// robots land. Its spring stiffness is a per-scene choice as in any penalty method: the fixed
// arms lie on a few vertex springs and at the default 1e4 N/m per point the 27 kg WAM sinks
// 2.3 cm, so they get 1e5 (WAM: 2.2 mm); drchubo keeps 1e4 (at 1e5 and 0.2 ms its light
// links go unstable) and steps at 0.1 ms: at 0.2 ms it became non-finite at step 4427 (0.89 s)
// after a change of round-off alone (the dynamics about each tree's root instead of the world
// origin), so its light links are at the edge of the explicit springs' stability there.
OptionMap OptionsFor(const std::string& model, bool floating_base) {
  if (model != "penalty") return {};
  if (floating_base) return {{"timestep", "0.0001"}};
  return {{"timestep", "0.0002"}, {"stiffness", "1e5"}};
}

// Cases that would take far longer than a unit test may (measured on the 2-core machine):
// nimble's LCP on drchubo's ground contacts, 70 s for the 1 s; DART on drchubo with
// self-collision, 2-4 s per step (795 contacts among the convex-hull links overlapping at the
// default pose, FCL colliding 110k triangles pairwise).
const std::set<std::string> kTooSlow = {"drchubo_nimble", "drchubo_dart_self_collision"};

// Cases that fail, measured and left as known limits: the limp drchubo folds onto itself, and its
// hand links (tens of grams) are squeezed between others at dozens of vertex contacts each.
// penalty at 0.2 ms: non-finite at step 2107 (0.42 s; the explicit springs need a smaller step
// for such light links); nimble: its LCP finds no valid solution at step 170 (reported as a
// failed step, violation 5.9e-3).
const std::set<std::string> kKnownFailures = {"drchubo_penalty_self_collision",
                                              "drchubo_nimble_self_collision"};

struct Robot {
  std::string name;
  std::string path;  // under DartDataDir()
  bool floating_base;
  Vec3 gravity;
  std::string package;         // a package:// name its meshes use, mapped to
  std::string package_folder;  // this folder under DartDataDir() ("": none)
};

const Robot kRobots[] = {
    {"drchubo", "/urdf/drchubo/drchubo.urdf", true, Vec3(0.0, 0.0, -9.81), "", ""},
    {"kr5", "/urdf/KR5/KR5 sixx R650.urdf", false, Vec3(0.0, -9.81, 0.0), "", ""},
    {"wam", "/urdf/wam/wam.urdf", false, Vec3(0.0, 0.0, -9.81), "herb_description", "/urdf/wam"},
};

struct Case {
  Robot robot;
  std::string model;
  bool self_collision;
};

std::string Name(const Case& c) {
  return c.robot.name + "_" + c.model + (c.self_collision ? "_self_collision" : "");
}
std::string CaseName(const ::testing::TestParamInfo<Case>& info) { return Name(info.param); }
void PrintTo(const Case& c, std::ostream* os) { *os << Name(c); }

// Without self-collision the links collide with the ground only (DART's Skeleton default, as
// the atlas scene sets it); with it, every pair the loader allows (all but parent-child).
std::shared_ptr<const Scene> RobotOnGround(const Robot& robot, bool self_collision) {
  constexpr std::uint32_t kGroundGroup = 1, kRobotGroup = 2;
  UrdfOptions urdf;
  urdf.floating_base = robot.floating_base;
  if (!robot.package.empty()) urdf.packages.folders[robot.package] = DartDataDir() + robot.package_folder;
  Scene scene = LoadUrdf(DartDataDir() + robot.path, urdf);
  scene.model.set_gravity(robot.gravity);
  if (!self_collision) {
    for (Collider& c : scene.colliders) {
      c.group = kRobotGroup;
      c.mask = kGroundGroup;
    }
  } else {  // as scene files load (scenes/scene_registry.h): self pairs overlapping at rest out
    scene.default_pose_overlaps = SelfPairsOverlappingAt(scene, DefaultState(scene).q);
  }
  Collider& ground = AddGroundBelow(scene);
  ground.group = kGroundGroup;
  scene.Validate();
  return std::make_shared<const Scene>(std::move(scene));
}

class RobotFiles : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    const std::string path = DartDataDir() + GetParam().robot.path;
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "no dart-doc data at " << path;
  }
};

TEST_P(RobotFiles, FallsOntoTheGroundWithoutGoingThrough) {
  const Case& c = GetParam();
  std::shared_ptr<const Scene> scene = RobotOnGround(c.robot, c.self_collision);
  if (kTooSlow.count(Name(c))) GTEST_SKIP() << Name(c) << " takes minutes (see kTooSlow)";
  if (kKnownFailures.count(Name(c))) GTEST_SKIP() << Name(c) << " fails, a known limit (see kKnownFailures)";
  const Collider& ground = scene->colliders.back();
  const Vec3 up = UpDirection(*scene);
  const double ground_height = ground.placement.translation().dot(up);
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, scene, OptionsFor(c.model, c.robot.floating_base));
  State s = DefaultState(*scene);
  const int steps = static_cast<int>(std::lround(kSeconds / sim->timestep()));
  double lowest_ever = 1e300;
  for (int i = 0; i < steps; ++i) {
    const StepReport r = sim->Step(s, {});
    ASSERT_TRUE(r.ok()) << c.model << " step " << i << ": " << r.message;
    if (i % 10 == 9) lowest_ever = std::min(lowest_ever, LowestPointAlongUp(*scene, s.q));
  }
  ASSERT_EQ(FirstNonFiniteEntry(s), "");
  const double lowest = LowestPointAlongUp(*scene, s.q);
  std::cout << "robot_files " << Name(c) << ": dt " << sim->timestep() << " s, ground " << ground_height
            << ", lowest point at the end " << lowest << " (lowest seen " << lowest_ever << "), final |v| "
            << s.v.norm() << "\n";
  EXPECT_GT(lowest, ground_height - kBelowGround);
}

// The cases that take 10-40 s on 2 cores run in the soak tier (SoakDartDoc/...).
const std::set<std::string> kSoakCases = {"kr5_nimble_self_collision", "drchubo_dart", "drchubo_penalty"};

std::vector<Case> AllCases(bool soak) {
  std::vector<Case> cases;
  for (const Robot& robot : kRobots) {
    for (bool self_collision : {false, true}) {
      for (const char* model : {"mujoco", "dart", "penalty", "nimble"}) {
        const Case c{robot, model, self_collision};
        if (kSoakCases.count(Name(c)) == (soak ? 1u : 0u)) cases.push_back(c);
      }
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(DartDoc, RobotFiles, ::testing::ValuesIn(AllCases(false)), CaseName);
INSTANTIATE_TEST_SUITE_P(SoakDartDoc, RobotFiles, ::testing::ValuesIn(AllCases(true)), CaseName);

}  // namespace robot_files_test
}  // namespace arena
