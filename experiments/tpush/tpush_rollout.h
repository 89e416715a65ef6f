// One open-loop replay of a push sequence (experiments/tpush/tpush_pushes.h) on any model of the T-push
// scene (scenes/tpush_scenes.h): the finger's targets are the sequence's at each step's start
// time, held for `settle_s` after the path ends. Contact is tallied from the exact geometry (the
// finger's gap to the T), the same test for every model: made when the gap falls below 2 mm,
// broken when it rises above 5 mm (the hysteresis keeps a grazing finger from counting twice; scm
// pushes from a millimetre or two away, its softplus spring reaching beyond contact).
#pragma once

#include <array>
#include <limits>
#include <string>
#include <vector>

#include "experiments/tpush/tpush_pushes.h"
#include "models/simulator.h"

namespace arena {

struct TPushRollout {
  Vec3 final_pose = Vec3::Constant(std::numeric_limits<double>::quiet_NaN());  // T x, y (m), yaw (rad)
  int contacts_made = 0, contacts_broken = 0;
  int steps = 0;
  double seconds = 0.0;  // wall time of the steps alone
  bool diverged = false;  // a failed step, a non-finite state, or the T flung (> 5 m/s or > 2 m away)
  std::string failure;
  // Every `trace_interval_s`: t, T x, T y, T yaw, finger x, finger y.
  std::vector<std::array<double, 6>> trace;
};

struct TPushRolloutOptions {
  double settle_s = 0.5;
  double trace_interval_s = 0.0;  // 0: no trace
  double until_s = std::numeric_limits<double>::infinity();  // stop early (the planner's partial replays)
};

/// Replays `sequence` on `sim` (a simulator of TPushScene) from its default state.
TPushRollout RollOutPushes(Simulator& sim, const PushSequence& sequence, const TPushRolloutOptions& options = {});

}  // namespace arena
