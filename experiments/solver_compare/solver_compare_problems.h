// The problems of solver_compare: a scene (scenes/solver_compare_scenes.h, or Atlas), its start
// state, and a closed-form outcome each run is judged against, measured with our kinematics.
//
//   cube_rest    the cube let down 1 mm (the clearance) onto the ground: it must stay where it
//                lands; outcome = its displacement along the ground.
//   cube_slide   the cube launched along x at slide_speed: it lands (a plastic impact whose
//                friction impulse takes mu v_land off its speed) and stops after
//                slide_speed t_land + (slide_speed - mu v_land)^2 / (2 mu g); outcome = the error
//                of the distance it travelled.
//   square_rest, square_slide   the same on the planar square (the planar models: silico, bilevel).
//   ball_roll    the ball rolling along x at slide_speed (omega = v / r): rolling needs no
//                friction, so it travels slide_speed T; outcome = the error of that distance.
//   tower        the stack of tower_boxes cubes: none may move along the ground; outcome = the
//                largest displacement of a box along the ground.
//   tilted_box   the cube on the slope at slope_over_mu of its threshold: below 1 it lands and
//                sticks after the 1 mm fall's drift g_x t_land^2 / 2; outcome = the error of
//                its displacement along the slope.
//   atlas_stand  Atlas (seed 002's scene, Y up) standing under zero motor torques from its
//                pose; outcome = its pelvis's displacement along the ground.
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
};

const std::vector<std::string>& ContactProblemNames();

/// Throws InvalidArgument naming the valid problems for an unknown one.
std::shared_ptr<const Scene> ContactProblemScene(const std::string& problem, const ContactProblemParams& params);
State ContactProblemStart(const std::string& problem, const Scene& scene, const ContactProblemParams& params);

/// The outcome's error (m) of a run of `duration_s` that ended in `end` (see above).
double ContactProblemOutcomeError(const std::string& problem, const Scene& scene, const State& start, const State& end,
                                  double duration_s, const ContactProblemParams& params);

}  // namespace arena
