// The robots of Nimble (Werling et al., RSS 2021): the four of its Jacobian benchmark (Sec.
// VII-A, Tables II and III), the drone of Fig. 8 and the cartpoles of Fig. 7, used by the
// experiments, the engine benchmarks and tests. Registered as "atlas", "jump_worm",
// "catapult", "half_cheetah", "drone", "cartpole" and "double_cartpole"
// (scenes/scene_registry.h).
//
// Atlas: the scene of Nimble's Tables II and III (Werling et al., RSS 2021, Sec. VII-A), as
// Nimble's public benchmark code sets it up in DART:
//   - atlas_v3_no_head.urdf from the dart-doc data (free pelvis + 27 revolute joints, nv = 33,
//     the collision STL meshes), loaded with our LoadUrdf; friction 1 (DART's default, as the
//     URDF has none); no self-collision (a DART Skeleton's default);
//   - a Y-up world: gravity (0, -9.81, 0), the pelvis turned by -pi/2 about x, all other
//     q = 0, v = 0 (the script's setPosition(0, -pi/2));
//   - ground.urdf's fixed box, 25 x 0.05 x 25 m centred at y = -0.95 (top face y = -0.925), so
//     both soles start about 2 mm into the ground;
//   - one torque actuator (gear 1) on every DOF, floating base included, so that dv+/du is
//     Nimble's d(qdot')/d(tau) (33 x 33).
// Timestep: DART's default 0.001 s (the scene's timestep_hint).
#pragma once

#include <memory>

#include "core/scene/scene.h"

namespace arena {

/// Builds the scene (loads the URDF and its meshes from DartDataDir(); throws ParseError if
/// the dart-doc data is missing).
std::shared_ptr<const Scene> AtlasStandingScene();

/// Jump-Worm (Sec. VII-A and VII-D), as Nimble's public benchmark code sets it: a 0.1 m root
/// cube on a 2D translation joint (unactuated) and three revolute segments (torques +-100), Y
/// up, a floor box with its top at y = -0.575. Default state: Nimble's benchmark q = [0, -0.14,
/// 90, 90, 45 deg] (the benchmark then takes one step).
std::shared_ptr<const Scene> JumpWormScene();

/// Catapult (Sec. VII-A and VII-D), as Nimble's public benchmark code sets it: the same three
/// segments (torques +-1000) on a root welded at (0.5, -0.45), a 0.1 m projectile cube on a 2D
/// translation joint, a floor box 3.5 m long. Default state: Nimble's benchmark state,
/// projectile at (0, 0), segments [0.65, 0, 45 deg].
std::shared_ptr<const Scene> CatapultScene();

/// Half Cheetah as MuJoCo users know it: the OpenAI Gym MJCF shipped with dart-doc
/// (mjcf/openai/half_cheetah.xml.gz: planar root rootx/rootz/rooty, six hinges, capsules, a
/// plane, timestep 0.01 s, armature 0.1 and joint springs). Nimble's own Table III cheetah is
/// the half_cheetah.skel of its public benchmark code, which dart-doc does not ship; this is
/// the closest robot available here (9 DOF, 6 actuators, the same leg chain).
std::shared_ptr<const Scene> HalfCheetahScene();

/// A sphere on a prismatic joint along +y above a fixed floor box 5 x 1 x 5 m centred at the
/// origin (top face y = 0.5), as in Nimble's drone experiment (Sec. VII-C, Fig. 8) and the
/// saddle-point tests of its public code: frictionless, the sphere's restitution
/// `restitution` (the floor's 0), a force actuator on the joint limited to +-`force_limit`.
/// Default configuration: the sphere 1e-4 m into the floor (the experiments add v = -1e-4
/// m/s, into the floor, so that its contact clamps). Inertia: a solid sphere.
struct PrismaticBallOptions {
  double radius = 0.3;
  double mass = 0.1;
  Vec3 gravity = Vec3(0.0, -9.81, 0.0);
  double restitution = 0.0;
  double force_limit = 10.0;
};
std::shared_ptr<const Scene> PrismaticBallScene(const PrismaticBallOptions& options);

/// Cartpole of Nimble's Fig. 7 (Sec. VII-B), as Nimble's public example cartpole.py sets it: a
/// cart (box 0.5 x 0.1 x 0.1 m, 1 kg) on a prismatic x joint with a force actuator limited to
/// +-10 N, and a pole (box 0.1 x 1.0 x 0.1 m, 1 kg) on an unactuated revolute z joint at the
/// cart's centre, its centre of mass 0.5 m below the pivot, so q = 0 hangs down. Gravity -9.81
/// y, no colliders, timestep hint 0.01 s (Nimble's script). Default state: q = [1, 1], v = 0.
std::shared_ptr<const Scene> CartpoleScene();

/// The double-pendulum cartpole of Fig. 7, whose parameters the paper does not give (our
/// choice, see docs/deviations.md): CartpoleScene plus a second identical pole hinged at the
/// bottom end of the first. Default state: q = [1, 1, 0], v = 0.
std::shared_ptr<const Scene> DoubleCartpoleScene();

}  // namespace arena
