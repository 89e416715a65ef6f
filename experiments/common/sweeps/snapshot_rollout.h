// One rollout of a planar scene with snapshots, for the qualitative figures of seed 000
// (peg_in_hole Fig. 7, convex_bundles Fig. 2): each snapshot is a row with the time, the contact
// counts, penetration so far, and the outline of every collider in the world (so the figure
// script can draw the frames from the CSV alone).
#pragma once

#include <string>
#include <vector>

#include "core/scene/scene.h"
#include "experiments/common/meters/outcome_checks.h"
#include "experiments/experiment.h"
#include "models/simulator.h"

namespace arena {

/// Columns of the snapshot rows (after the experiment's own params).
std::vector<Column> SnapshotColumns();

/// Runs `steps` steps from `state`, recording a row at steps 0, every `every` steps, and the
/// last. A step that does not converge is counted and the rollout continues; a non-finite state
/// stops it. An outcome outside `limits` (outcome_checks.h) fails the rollout: every later row
/// carries the reason, and the rollout goes on so that the figure shows what the model did.
/// The last row also names a failed end-of-run check, and a rollout of no step ("no step ran").
std::vector<Row> SnapshotRollout(const Scene& scene, Simulator& sim, State state, int steps, int every,
                                 const OutcomeLimits& limits);

/// World outlines of the scene's bounded 2D colliders at configuration q: colliders separated
/// by '|', points by ';', coordinates "x y" (half-planes are written as "halfplane x y nx ny").
std::string PlanarOutlines(const Scene& scene, const VecX& q);

/// Distances below which a pair counts as a geometric contact (m).
inline constexpr double kContactDistance = 1e-3;

}  // namespace arena
