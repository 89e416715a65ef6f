#include "scenes/scene_registry.h"

#include <filesystem>

#include "core/common/error.h"
#include "core/common/strings.h"
#include "core/scene/initial_overlaps.h"
#include "core/scene/loader.h"
#include "scenes/box_drop_scenes.h"
#include "scenes/box_on_arm_scenes.h"
#include "scenes/force_profile_scenes.h"
#include "scenes/tpush_scenes.h"
#include "scenes/gradient_truth_scenes.h"
#include "scenes/longrange_scenes.h"
#include "scenes/rod_scenes.h"
#include "scenes/rotating_chains_scenes.h"
#include "scenes/nimble_robots.h"
#include "scenes/reaching_chains_scenes.h"
#include "scenes/biped_scenes.h"
#include "scenes/spider_scenes.h"
#include "scenes/gripper_scenes.h"
#include "scenes/silico_scenes.h"
#include "scenes/solver_compare_scenes.h"
#include "scenes/stacking_scenes.h"

namespace arena {

namespace {

std::vector<std::string> Names() {
  std::vector<std::string> names;
  for (const SceneInfo& s : Scenes()) names.push_back(s.name);
  return names;
}

}  // namespace

const std::vector<SceneInfo>& Scenes() {
  static const std::vector<SceneInfo> scenes = {
      // seed 000 (Silico, Le Cleac'h et al., RA-L 2023)
      {"box", "box_drop's 0.5 m cube (1 kg, mu 0.2) on a free joint, 1 m above the ground z <= 0",
       "seed 000 Fig. 9 (our 3D variant)", [] { return BoxDropScene("spatial"); }},
      {"polygon", "box_drop's pentagon (1 kg, mu 0.2) on a planar joint, 1 m above the ground y <= 0",
       "seed 000 Fig. 9", [] { return BoxDropScene("planar"); }},
      {"tower", "stacking's two 0.5 m cubes (mu 0.5) at rest on the ground, the lower shifted 2 cm",
       "seed 000 Fig. 10 (our 3D variant)", [] { return StackingScene("spatial", 0); }},
      {"tower_planar", "stacking's two 0.5 m squares (mu 0.5) at rest on the floor, the lower shifted 2 cm",
       "seed 000 Figs. 8, 10", [] { return StackingScene("planar", 0); }},
      {"peg_in_hole", "a tapered planar peg tilted 0.3 rad above a hole with 2 mm clearance",
       "seed 000 Fig. 7", PegInHoleScene},
      {"convex_bundles", "a union of convex parts and a rounded rhombus above the floor (planar)",
       "seed 000 Fig. 2", ConvexBundlesScene},
      {"grasp", "a two-triangle star on the floor between two position-controlled disk fingertips (planar)",
       "seed 000 Fig. 1", [] { return GraspScene(); }},
      {"falling_square", "solve_time's unit square (1 kg, mu 0.1) on a planar joint, 2 m above the floor",
       "seed 000 Fig. 11", FallingSquareScene},
      // seed 002 (Nimble, Werling et al., RSS 2021)
      {"atlas", "Atlas (dart-doc URDF, 33 DOF, STL meshes) standing on a ground box, Y up, a motor per DOF",
       "seed 002 Tables II-III", AtlasStandingScene},
      {"half_cheetah", "Half Cheetah, the OpenAI Gym MJCF of dart-doc (9 DOF, 6 motors) on its floor plane",
       "seed 002 Tables II-III (stand-in)", HalfCheetahScene},
      {"jump_worm", "Jump-Worm: a cube on a 2D slider and three motorised hinged segments on a floor box",
       "seed 002 Tables II-III", JumpWormScene},
      {"catapult", "Catapult: three motorised hinged segments on a welded root beside a free projectile cube",
       "seed 002 Tables II-III, Fig. 7", CatapultScene},
      {"cartpole", "a cart on a rail (force +-10 N) with one hanging pole, no contact",
       "seed 002 Fig. 7", CartpoleScene},
      {"double_cartpole", "the cartpole with a second pole hinged below the first, no contact",
       "seed 002 Fig. 7 (our parameters)", DoubleCartpoleScene},
      {"drone", "a 0.3 m sphere on a vertical slider (thrust +-10 N) resting 0.1 mm into a floor box",
       "seed 002 Fig. 8", [] { return PrismaticBallScene({}); }},
      // seed 004 (long-range contact, Ye et al., ICLR 2025)
      {"book_stack", "20 planks 2.0 x 0.4 x 0.2 m (0.16 kg) in the harmonic overhang, 1 mm apart, on the ground",
       "seed 004 Fig. 4, Table 2", [] { return BookStackScene({}); }},
      {"billiards", "16 free balls of radius 0.5 m (a 15-ball rack and the cue ball) resting above the ground",
       "seed 004 Fig. 5-6", [] { return BilliardsScene(); }},
      {"push", "a rod on six velocity-driven joints 0.7 m from a 0.3 m cube on the ground",
       "seed 004 Fig. 7", [] { return PushScene(); }},
      {"gather", "ten 0.3 m cubes scattered over 4 m x 4 m and a rod driven in x, y, z and yaw",
       "seed 004 Fig. 8", [] { return GatherScene(); }},
      {"sort", "ten 0.3 m cubes scattered over 4 m x 4 m and a rod driven in x, y, z",
       "seed 004 Fig. 8", [] { return SortScene(); }},
      {"ball_pair", "two of the billiard balls 5 mm apart and 5 mm above the ground (derivatives near contact)",
       "seed 004 Sec. 6 (our check)", [] { return BallPairScene(); }},
      // issue 18 (solver_compare: the contact-solver comparison's problems), no paper
      {"cube_on_ground", "a 0.2 m cube (1 kg, mu 0.5) 1 mm above the ground z <= 0",
       "issue 18 (solver_compare)", [] { return CubeOnGroundScene(1e-3); }},
      {"ball_on_ground", "a ball of radius 0.1 m (1 kg, mu 0.5) 1 mm above the ground z <= 0",
       "issue 18 (solver_compare)", [] { return BallOnGroundScene(1e-3); }},
      {"square_on_floor", "the cube's planar twin: a 0.2 m square (1 kg, mu 0.5) 1 mm above the floor y <= 0",
       "issue 18 (solver_compare)", [] { return SquareOnFloorScene(1e-3); }},
      {"box_tower", "four 0.2 m cubes (1 kg, mu 0.5) stacked 1 mm apart on the ground",
       "issue 18 (solver_compare)", [] { return BoxTowerScene(4, 1e-3); }},
      {"tilted_box", "the 0.2 m cube on a slope at 0.95 of its friction threshold (gravity tilted: down the slope is +x)",
       "issue 18 (solver_compare)", [] { return TiltedBoxScene(0.95, 1e-3); }},
      {"sphere_probe", "a 1 kg sphere of radius 0.05 m near a fixed sphere of radius 0.1 m at the origin, no gravity, frictionless",
       "seed 001 Figs. 1, 5", [] { return ForceProbeScene(); }},
      {"tpush", "a 0.2 kg T (25 x 20 cm, 5 cm thick) on damped planar joints and a PD-driven sphere finger (r 1 cm), no gravity",
       "seed 001 Figs. 6-7", [] { return TPushScene(); }},
      // issue 16 (robot files: mesh-mesh contact), no paper
      {"box_on_arm", "a 6 cm mesh cube (0.5 kg) dropped 15 cm onto the elbow of the KR5 arm (dart-doc URDF, STL meshes) welded at home, Y up",
       "issue 16 (robot files)", [] { return BoxOnArmScene(FallingBoxShape::kMesh); }},
      {"box_on_arm_primitive", "box_on_arm with a Box shape for the cube (box-mesh contact instead of mesh-mesh)",
       "issue 16 (robot files)", [] { return BoxOnArmScene(FallingBoxShape::kBox); }},
      // issue 23 (gradient_truth: closed-form contact), no paper
      {"balls_on_a_line", "two 1 kg balls of radius 0.1 m on the x axis, 0.52 m apart, no gravity, frictionless, elastic",
       "issue 23 (gradient_truth)", [] { return BallsOnALineScene({}); }},
      {"discs_in_a_plane", "two elastic frictionless balls in the plane z = 0, the second 0.08 m off the first's line",
       "issue 23 (gradient_truth)", [] { return DiscsInAPlaneScene({}); }},
      {"ball_drop", "a ball of radius 0.1 m 1 m above the ground, restitution 0.5, frictionless",
       "issue 23 (gradient_truth)", [] { return BallDropScene({}); }},
      {"sliding_box", "a 0.2 m cube (1 kg, mu 0.5) 1 mm above the ground, to be launched sideways",
       "issue 23 (gradient_truth)", [] { return SlidingBoxScene({.clearance = 1e-3}); }},
      // seed 003 (SDRS, Ye et al., T-RO 2025)
      {"rotating_chains", "chain_cost's four chains of 4 capsule-hull links on ball joints (+-30 deg), three roots "
       "PD-driven along circles, over the floor", "seed 003 Fig. 9, App. A.6",
       [] { return RotatingChainsScene({.links = 4, .cap_points = 8}); }},
      {"reaching_chains", "chain_reach's three hanging chains of 8 capsule-hull links on ball joints (+-30 deg), the "
       "left one's base sliding along x", "seed 003 Fig. 10",
       [] { return ReachingChainsScene({}).scene; }},
      {"spider", "a 9-link, 16-DOF spider (4-DOF root, four legs of 2-DOF hips and knees, 24 PD and velocity-target "
       "actuators) on a 10-degree slope, each foot three 32-point hulls", "seed 003 Fig. 11",
       [] { return SpiderScene(); }},
      {"biped", "a 7-link, 12-DOF biped (6-DOF root, two legs of hip, knee and ankle hinges, 12 PD and "
       "velocity-target actuators) on flat ground, each foot three 32-point hulls", "seed 003 Figs. 12-13",
       [] { return BipedScene(); }},
      {"gripper", "grippers' single jaw (a wall of 3 x 3 convex box blocks on three PD-driven slides) above and "
       "beside a free X-shaped object (two crossed box hulls) on a table, mu 0.2: 9 DOF, 6 actuators",
       "seed 003 Figs. 14-18", [] { return GripperScene(); }},
      // seed 004 (long-range contact), on seed 003's spider
      {"ant_push", "the spider on flat ground and a free 0.3 m box 0.7 m in front of it: 22 DOF, 24 actuators on "
       "the 12 leg DOFs", "seed 004 Fig. 9, App. A.6",
       [] { return AntPushScene(); }},
  };
  return scenes;
}

const SceneInfo& FindScene(std::string_view name) {
  for (const SceneInfo& s : Scenes()) {
    if (s.name == name) return s;
  }
  throw InvalidArgument("unknown scene '" + std::string(name) + "'; valid: " + Join(Names()));
}

std::shared_ptr<const Scene> MakeScene(const std::string& name_or_path, const SceneLoadOptions& options) {
  for (const SceneInfo& s : Scenes()) {
    if (s.name != name_or_path) continue;
    std::shared_ptr<const Scene> built = s.build();
    if (options.IsDefault()) return built;
    // Package folders are checked although a built scene reads no URDF: a typo is still one.
    if (std::string problem = options.packages.Validate(); !problem.empty()) {
      throw InvalidArgument("--package: " + problem);
    }
    auto scene = std::make_shared<Scene>(*built);
    ApplySceneOptions(options, scene.get());
    return scene;
  }
  // An existing path goes to the loaders, which say what is wrong with it (a directory, an
  // unreadable or invalid file).
  std::error_code ec;
  if (!std::filesystem::exists(name_or_path, ec)) {
    throw InvalidArgument("scene '" + name_or_path + "' is neither a registered scene (" + Join(Names()) +
                          ") nor a scene file (URDF, MJCF, STL, OBJ)");
  }
  // The user's rules first (LoadScene applies them), so that only pairs still tested are
  // checked for overlapping at the default pose.
  Scene scene = LoadScene(name_or_path, options);
  if (options.skip_default_overlaps) scene.default_pose_overlaps = SelfPairsOverlappingAt(scene, DefaultState(scene).q);
  return std::make_shared<const Scene>(std::move(scene));
}

}  // namespace arena
