// The scenes of the gradient_truth experiment (issue 23): contact events simple enough that the
// final state and its gradient have closed forms (experiments/gradient_truth/gradient_truth_closed_forms.h).
// Spatial, so that every 3D model runs them; the bodies start unrotated and no torque acts on
// them in the exact motion, so their world translation and velocity are the whole state.
// Initial velocities are the experiment's (a scene holds only the default configuration).
#pragma once

#include <memory>

#include "core/scene/scene.h"

namespace arena {

/// Two balls on the x axis, no gravity, no ground, frictionless, restitution e (both
/// colliders): masses m1, m2 and radii r1, r2, centres at (x1, 0, 0) and (x2, 0, 0).
struct BallsOnALineSpec {
  double m1 = 1.0, m2 = 1.0, r1 = 0.1, r2 = 0.1;
  double x1 = 0.0, x2 = 0.52;
  double restitution = 1.0;
};
std::shared_ptr<const Scene> BallsOnALineScene(const BallsOnALineSpec& spec);

/// Two balls in the plane z = 0, no gravity, frictionless, restitution e: the oblique
/// collision of two discs (their centres stay in the plane). Bodies "ball_1", "ball_2".
struct DiscsInAPlaneSpec {
  double m1 = 1.0, m2 = 1.0, r1 = 0.1, r2 = 0.1;
  double p1x = 0.0, p1y = 0.0, p2x = 0.5, p2y = 0.08;
  double restitution = 1.0;
};
std::shared_ptr<const Scene> DiscsInAPlaneScene(const DiscsInAPlaneSpec& spec);

/// A ball of radius r and mass m, its lowest point `clearance` above the ground z <= 0,
/// gravity -g z, frictionless, restitution e (ball and ground).
struct BallDropSpec {
  double mass = 1.0, radius = 0.1, clearance = 1.0, gravity = 9.81, restitution = 0.5;
};
std::shared_ptr<const Scene> BallDropScene(const BallDropSpec& spec);

/// A cube of side 2 h and mass m whose bottom face is `clearance` above the ground, Coulomb
/// friction mu (cube and ground), no restitution, gravity -g z.
struct SlidingBoxSpec {
  double mass = 1.0, half_size = 0.1, clearance = 0.0, gravity = 9.81, friction = 0.5;
};
std::shared_ptr<const Scene> SlidingBoxScene(const SlidingBoxSpec& spec);

}  // namespace arena
