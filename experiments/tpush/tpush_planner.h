// Plans the T-push experiment's open-loop finger commands on mujoco (seed 001 Sec. V: five
// sequences optimised in MJX with VP-STO, each pushing the T to its own goal and making and
// breaking contact at least twice, then replayed open-loop with SCM). VP-STO is not reproduced:
// here each sequence is two pushes, each one a face of the T, a point along it, a direction
// within 30 degrees of the face's inward normal and a depth; between pushes the finger retreats
// and goes round the T on a circle clear of it. The cross-entropy method (solvers/
// cross_entropy.h; the face a coordinate in [0, 8) whose floor picks it) searches the parameters
// that bring the T (replayed on mujoco at 2 ms) closest to the goal, among the plans whose
// replay makes and breaks contact at least twice. Deterministic given the seed.
//
// `arena plan-pushes` runs it and writes experiments/tpush/tpush_pushes.csv.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "experiments/experiment.h"
#include "experiments/tpush/tpush_pushes.h"

namespace arena {

struct PushPlannerOptions {
  int population = 32;
  int elites = 6;
  int iterations = 8;
  std::uint64_t seed = 1;
  double timestep = 0.002;  // s, the mujoco replays'
};

struct PlannedPushes {
  PushSequence sequence;
  Vec3 reached = Vec3::Zero();  // the T's final pose in the mujoco replay
  int contacts_made = 0, contacts_broken = 0;
  double cost = 0.0;            // position error / 1 cm + yaw error / 5 deg (+ penalties)
};

/// The five goals (x m, y m, yaw rad) from the T's start at the origin.
std::vector<Vec3> DefaultPushGoals();

/// One planned sequence per goal, numbered from 1. `progress` (optional) gets a line per goal.
std::vector<PlannedPushes> PlanPushSequences(const std::vector<Vec3>& goals, const PushPlannerOptions& options,
                                             const std::function<void(const std::string&)>& progress = {});

/// `arena plan-pushes [--out CSV] [--population N] [--iterations N] [--seed S]`: plans the
/// sequences for DefaultPushGoals on mujoco and writes them as CSV (default: the committed
/// experiments/tpush/tpush_pushes.csv, which the experiment replays). TPushExperiment offers it.
ExperimentCommand PlanPushesCommand();

}  // namespace arena
