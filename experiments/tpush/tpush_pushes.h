// The finger's open-loop push sequences of the T-push experiment (seed 001 Figs. 6-7): each a
// piecewise-linear path of finger targets in time, planned once on mujoco (experiments/tpush/
// tpush_planner.h, `arena plan-pushes`) and committed as data (experiments/tpush/
// tpush_pushes.csv, compiled into the binary), so every model replays the very same commands, as
// the paper replays its MJX-optimised sequences with SCM.
#pragma once

#include <string>
#include <vector>

#include "core/math/types.h"

namespace arena {

struct FingerWaypoint {
  double t = 0.0;     // s
  Vec2 target;        // the finger's position target (m)
};

struct PushSequence {
  int index = 0;      // 1-based, as in the data file
  Vec3 goal = Vec3::Zero();  // the T pose (x m, y m, yaw rad) the planner aimed for
  std::vector<FingerWaypoint> path;  // times strictly increasing, the first at t = 0

  double duration() const { return path.empty() ? 0.0 : path.back().t; }
  /// The target at time t: linear between waypoints, the last one after the end.
  Vec2 TargetAt(double t) const;
};

/// Reads the CSV (columns sequence, goal_x_m, goal_y_m, goal_yaw_deg, t_s, finger_x_m,
/// finger_y_m; rows of one sequence together, in time order). Throws ParseError naming
/// `source_name`, the row and the problem.
std::vector<PushSequence> ParsePushSequences(const std::string& csv_text, const std::string& source_name);
/// The same CSV, with enough digits to read back exactly.
std::string FormatPushSequences(const std::vector<PushSequence>& sequences);

/// The committed sequences (experiments/tpush/tpush_pushes.csv as built into the binary).
const std::vector<PushSequence>& CommittedPushSequences();

}  // namespace arena
