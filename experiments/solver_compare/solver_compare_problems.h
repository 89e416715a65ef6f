// The problems of solver_compare: a scene (scenes/solver_compare_scenes.h, or Atlas), how a run
// starts, and a closed-form outcome each run is judged against, measured with our kinematics.
//
// Every run settles first: the bodies are let down from the clearance (so that the barrier
// models start outside contact) under plain gravity for settle_s, each model onto its own rest
// (a barrier's gap, a spring's sag); then the problem launches from that state (a start speed,
// the slope's or the force's field) and runs duration_s. The closed forms below are those of a
// start at rest on the ground, so the error measures the contact law, not the landing.
//
//   cube_rest    the cube must stay where it settled; outcome = its displacement along the ground.
//   cube_slide   the cube launched along x at slide_speed: Coulomb friction stops it after
//                slide_speed^2 / (2 mu g) (or it travels v T - mu g T^2 / 2 if the run ends
//                first); outcome = the error of the distance it travelled.
//   square_rest, square_slide   the same on the planar square (the planar models: silico, bilevel).
//   ball_roll    the ball launched rolling along x at slide_speed (omega = v / r): rolling needs
//                no friction, so it travels slide_speed T; outcome = the error of that distance.
//   ball_drag    the ball under a force of 1.5 mu m g along x at its centre: more than static
//                friction can hold, so it must move. Rolling without slip needs a friction force
//                of 2/7 of it (a solid ball), 0.43 mu m g, inside the cone: it rolls with
//                acceleration 5/7 F / m; outcome = the error of x = (5/7) F T^2 / (2 m).
//   ball_lift    the ball under a 10 N lift at its centre (its weight is 9.81 N): it must leave
//                the ground at (10 / m - g) = 0.19 m/s^2; outcome = the error of its rise.
//   tower        the stack of tower_boxes cubes: none may move along the ground; outcome = the
//                largest displacement of a box along the ground.
//   mass_ratio_stack  ContactBench's ill-conditioned stack: a cube of 1 / sqrt(r) kg under one of
//                sqrt(r) kg, r = mass_ratio (1e6: 1 g under 1 t); outcome = the largest distance
//                of a cube from its place in the exact stack (z = h + g and 3 h + 2 g, g the gap
//                the model's contact rests at: a barrier's, 0 for contact at touch), settling
//                included.
//   tilted_box   the cube, settled on level ground, then on the slope at slope_over_mu of its
//                threshold: below 1 static friction holds it (outcome = its displacement along
//                the slope); above 1 it slides (g_x - mu g_z) T^2 / 2.
//   atlas_stand  Atlas (seed 002's scene, Y up) standing under zero motor torques from its
//                settled pose; outcome = its pelvis's displacement along the ground.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/scene/scene.h"

namespace arena {

struct ContactProblemParams {
  double clearance_m = 1e-3;
  int tower_boxes = 4;
  double slope_over_mu = 0.95;
  double slide_speed = 1.0;  // m/s
  double mass_ratio = 1e6;   // mass_ratio_stack: heavy / light
  double rest_gap_m = 0.0;   // mass_ratio_stack: the gap the model's cubes rest at (a barrier's)
};

inline constexpr double kBallDragOverMuWeight = 1.5;  // ball_drag's force / (mu m g)
inline constexpr double kBallLiftN = 10.0;            // ball_lift's force (N)

const std::vector<std::string>& ContactProblemNames();

/// The scene the launched run steps. Throws InvalidArgument naming the valid problems for an
/// unknown one.
std::shared_ptr<const Scene> ContactProblemScene(const std::string& problem, const ContactProblemParams& params);
/// The scene the start settles in: the problem's bodies under plain gravity (the same bodies
/// and joints as ContactProblemScene's, so a state of one is a state of the other).
std::shared_ptr<const Scene> ContactProblemSettleScene(const std::string& problem, const ContactProblemParams& params);
/// Whether the launched run steps another field than the settling (ball_drag, ball_lift,
/// tilted_box): then it needs a simulator of its own scene.
bool ContactProblemLaunchesInAnotherField(const std::string& problem);
/// The start of the launched run from the settled state: the launch problems' velocities
/// (everything else at rest); the rest problems go on from the settled state as it is.
State ContactProblemLaunch(const std::string& problem, const State& settled, const ContactProblemParams& params);

/// The outcome's error (m) of a launched run of `duration_s` from `start` that ended in `end`.
double ContactProblemOutcomeError(const std::string& problem, const Scene& scene, const State& start, const State& end,
                                  double duration_s, const ContactProblemParams& params);

}  // namespace arena
