// The planning problem of seed 000 Fig. 1 on the scene "grasp" (scenes/silico_scenes.h), as the
// authors' figure script sets it: turn the star from (1, 0.4, 0) to (1.5, 1.0, -0.6 pi) with the
// two fingertips; subgoals in x in [0, 2], y in [0.4, 2], theta in [-pi, pi]; a re-grasp puts the
// fingers' targets 0.15 m either side of the star's centre along the line between the fingers
// (inside the star: the springs squeeze it).
#pragma once

#include "core/scene/scene.h"
#include "trajectory/contact_rrt.h"

namespace arena {

/// The star's goal (x, y, theta).
Vec3 GraspGoal();

/// The problem on `scene` (the grasp scene: the star's and the fingers' coordinates are looked
/// up by body name; throws InvalidArgument for another scene).
ContactRrtProblem GraspProblem(const Scene& scene);

/// Position (m) and angle (rad) of the star's coordinates in q (problem.object: x, y, theta)
/// from the problem's goal.
double GraspPositionError(const ContactRrtProblem& problem, const VecX& q);
double GraspAngleError(const ContactRrtProblem& problem, const VecX& q);

}  // namespace arena
