// The single-scene planar experiments of seed 000 (Silico, Le Cleac'h et al. 2023). Planar:
// bodies on planar joints in the world xy-plane, gravity -9.81 y, the floor y <= 0. Registered
// as "peg_in_hole", "convex_bundles" and "falling_square" (scenes/scene_registry.h).
#pragma once

#include <memory>

#include "core/scene/scene.h"

namespace arena {

/// Fig. 7, as the authors' public figure script (figure_peg_in_hole.jl) sets it: a tapered peg
/// above a hole with 2 mm clearance. Peg faces +-x, +-y, (1, -0.2), (-1, -0.2) (unit
/// normals), b = 0.249 (1, 3, 1, 1, 0.9, 0.9): 0.498 m wide, y in [-0.249, 0.747], tapering to
/// +-0.179 at the bottom; m = 1 kg, J = 0.2 kg m^2, mu = 0.03. The hole walls are two boxes of
/// half-size (0.25, 0.5) fixed at (-+0.5, 0.5) on the floor (gap 0.5 m). Default state: the peg
/// at (0, 1.5) tilted 0.3 rad, at rest.
std::shared_ptr<const Scene> PegInHoleScene();

/// Fig. 2, as the authors' public demo script (diverse_collision.jl) sets it: non-convex bodies
/// as unions of convex parts and a Minkowski sum above the floor.
///   body 1: union of a triangle (faces (0, 1), (2.5, -1), (-2.5, -1), unit normals, b = 0.3), a
///           capsule of length 4 and radius 0.15 along x, and two disks of radius 0.15 at (+-2, 0);
///   body 2: a rhombus (faces (+-5, 1), (1, +-5), unit normals, b = 0.3) (+) a disk of radius 0.3.
///   m = 1 kg, J = 0.2 kg m^2, mu = 0.6; default configuration: body 1 at (0, 1.5, -0.2), body 2
///   at (-1.8, 3.5, 0.75) (the paper's script also turns body 1 at -1 rad/s: the experiment's
///   initial state).
std::shared_ptr<const Scene> ConvexBundlesScene();

/// Fig. 1, as the authors' public code sets it up: a star (the union
/// of two triangles, faces (0, -1), (+-sin 60, cos 60) with b = (0.4, 0.1, 0.1), and the same
/// faces negated) of m = 0.5 kg, J = 0.2 kg m^2 resting on the floor at (1, 0.4, 0), and two
/// fingertips of radius 0.1 m at (0.25, 0.4) and (1.75, 0.4), each position-controlled in x, y
/// and theta by a spring of K = 100 (PD actuators with kd = 0, their targets the controls
/// u = (x, y, theta) of the left finger, then the right). Friction: object-finger 0.5, floor
/// 0.5 / 3 (a pair takes the smaller coefficient). As in the authors' quasi-static grasp model,
/// the fingertips touch only the star (collider groups: not the floor, not each other). The
/// paper's fingertips are massless disks
/// that feel no gravity; ours weigh kGraspFingerMass (their springs hold them 0.1 mm below
/// target) and are regular octagons of inradius 0.1 m by default: silico's alpha-scaled disk
/// constraint is quadratic in alpha, and its solves stall on most grasp steps with disk
/// fingertips (docs/deviations.md, "grasp fingertips"); `disk_fingertips` gives the paper's.
struct GraspOptions {
  bool disk_fingertips = false;
};
std::shared_ptr<const Scene> GraspScene(const GraspOptions& options = {});
inline constexpr double kGraspFingerMass = 1e-3;  // kg: the spring's dt K (5 N s/m) dwarfs m / dt

/// Fig. 11's scene (solve time): a unit square (A = [+-e_x, +-e_y], b = 0.5) above the floor,
/// m = 1 kg, J = 0.2 kg m^2, mu = 0.1; default configuration (0, 2, 0).
std::shared_ptr<const Scene> FallingSquareScene();

}  // namespace arena
