// The problems of solver_compare (issue 18), after the test problems of the contact-solver
// comparison of Le Lidec et al. ("Contact models in robotics: a comparative analysis", T-RO
// 2024, Sec. VI): one body or a stack on the ground z <= 0, Z up, friction mu on every collider.
//
//   cube_on_ground  a 0.2 m cube of 1 kg (mu 0.5), `clearance` above the ground (resting or
//                   sliding: the experiment gives the velocity);
//   ball_on_ground  a ball of radius 0.1 m and 1 kg (mu 0.5), `clearance` above the ground
//                   (rolling: the experiment gives v = omega r);
//   ball_under_force the ball with a constant force at its centre besides its weight (gravity
//                   plus force / m: a drag along the ground, a lift off it);
//   box_tower       `boxes` 0.2 m cubes of 1 kg stacked, `clearance` between neighbours and
//                   above the ground (mu 0.5);
//   square_on_floor the cube's planar twin: a 0.2 m square of 1 kg (mu 0.5) on a planar joint,
//                   `clearance` above the floor y <= 0 (the planar models: silico, bilevel);
//   tilted_box      the cube on a slope whose tangent is `slope_over_mu` times mu: gravity is
//                   tilted instead of the ground (every model runs a horizontal half-space), so
//                   "down the slope" is +x. Below 1 static friction must hold the cube; above,
//                   it slides with acceleration g (sin a - mu cos a).
//   mass_ratio_stack  ContactBench's ill-conditioned stack: a 0.2 m cube of `light` kg on the
//                   ground (mu 0.9) under a 0.2 m cube of `heavy` kg (mu 0.95 between the cubes),
//                   `clearance` between them and above the ground; 1e-3 under 1e3 kg is the
//                   mass ratio 1e6 of Le Lidec et al.'s Sec. VI-B.
// A clearance > 0 lets the barrier models (ipc, longrange) start outside contact; every model
// gets the same one.
#pragma once

#include <memory>

#include "core/scene/scene.h"

namespace arena {

inline constexpr double kContactProblemFriction = 0.5;
inline constexpr double kContactProblemHalfSize = 0.1;  // m: the cubes' half side, the ball's radius

std::shared_ptr<const Scene> CubeOnGroundScene(double clearance);
std::shared_ptr<const Scene> BallOnGroundScene(double clearance);
/// The 1 kg ball under its weight and `force_n` (N) at its centre; throws InvalidArgument for a
/// non-finite force.
std::shared_ptr<const Scene> BallUnderForceScene(const Vec3& force_n, double clearance);
std::shared_ptr<const Scene> SquareOnFloorScene(double clearance);
/// Throws InvalidArgument for a non-positive mass or a clearance outside [0, 0.1] m.
std::shared_ptr<const Scene> MassRatioStackScene(double light_kg, double heavy_kg, double clearance);
inline constexpr double kMassRatioStackGroundFriction = 0.9;
inline constexpr double kMassRatioStackCubeFriction = 0.95;
/// Throws InvalidArgument for boxes outside [1, 50] or a negative clearance.
std::shared_ptr<const Scene> BoxTowerScene(int boxes, double clearance);
/// The slope's angle is atan(slope_over_mu * mu); throws InvalidArgument unless 0 <= ratio <= 1.9
/// (mu 0.5: up to 43.5 degrees).
std::shared_ptr<const Scene> TiltedBoxScene(double slope_over_mu, double clearance);

}  // namespace arena
