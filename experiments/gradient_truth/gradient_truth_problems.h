// The gradient_truth experiment's problems (issue 23): a scene (scenes/gradient_truth_scenes.h),
// its start state, the world coordinates differentiated at the end against those at the start,
// and the exact answer from experiments/gradient_truth/gradient_truth_closed_forms.h at the simulated horizon.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/scene/scene.h"
#include "experiments/gradient_truth/gradient_truth_closed_forms.h"
#include "trajectory/endpoint_jacobian.h"

namespace arena::gradient_truth {

struct TruthProblem {
  std::string name;
  std::shared_ptr<const Scene> scene;
  State start;
  int steps = 0;                          // horizon / dt, rounded
  std::vector<BodyCoordinate> outputs, inputs;
  std::vector<std::string> output_names, input_names;  // "x2", "v1"
  ClosedForm exact;                       // outputs and d outputs / d inputs at steps * dt
};

/// The scene-level problems: two_balls (the public Nimble report: equal balls, elastic),
/// two_balls_inelastic (e 0.5, masses 1 and 2 kg), ball_drop (e 0.5, state 0.6 s after a 1 m
/// drop), sliding_box (1 m/s, mu 0.5, to rest), two_discs (oblique, the normal moves).
const std::vector<std::string>& TruthProblemNames();

/// `box_clearance` (m): how far above the ground the sliding box is released (barrier models
/// cannot start in contact; the closed form includes the landing). Throws InvalidArgument for
/// an unknown name (listing the valid ones) or a non-positive dt.
TruthProblem MakeTruthProblem(const std::string& name, double dt, double box_clearance);

/// The control task: the cue speed v1 that puts the second ball of two_balls at `target` at
/// the horizon, found by gradient descent from `initial_speed`; the analytic optimum `optimum`.
struct CueTask {
  std::shared_ptr<const Scene> scene;
  State start;  // the cue ball at rest: the speed is the decision variable
  int steps = 0;
  int cue = 0, object = 1;  // bodies
  double target = 1.0, optimum = 0.0;
};
CueTask MakeCueTask(double dt, double target);

}  // namespace arena::gradient_truth
