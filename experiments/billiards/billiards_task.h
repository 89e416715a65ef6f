// The billiards task of seed 004 (Sec. 6, Fig. 5, App. A.6): strike two balls of the rack to
// their targets by choosing only the cue ball's launch, x = (p_x, p_y, v_x, v_y) at t = 0.
// Scene: scenes/longrange_scenes.h BilliardsScene (15-ball rack, cue ball 2.42 m in front of
// the apex, all balls 0.105 m above the ground). The loss is trajectory/com_target_loss.h at the
// last frame.
//
// What the paper leaves open (docs/deviations.md): which two balls and which targets (drawn
// here from a seed shared by every model: the comparison is head-to-head), the tolerance, and
// what "sampled initialisations" sample.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/math/types.h"
#include "core/scene/scene.h"
#include "trajectory/com_target_loss.h"

namespace arena {

struct BilliardsTask {
  std::shared_ptr<const Scene> scene;
  State start;   // the scene's default state (the cue ball at rest where the layout puts it)
  int cue = -1;  // the cue ball's body
  std::shared_ptr<const ComTargetLoss> loss;
  VecX launch;   // the initial x = (p_x, p_y, v_x, v_y)
};

/// Draws the two target balls and their targets from `target_seed`: two distinct rack balls, each
/// target uniform in the 6 m x 6 m square centred on the rack's centre, at the resting height of
/// a ball (its radius). `initialisation` "trivial": the cue ball at rest where the layout puts
/// it (2.42 m from the apex, so no contact reaches the rack); "sampled": a launch drawn from
/// `launch_seed`, position uniform in front of the rack (x in [0.42, 4.42], y in [1.5, 3.5]) and
/// velocity uniform in [-2, 2] x [-4, 0] m/s (towards the rack). Throws InvalidArgument for
/// another initialisation or a tolerance that is not >= 0.
BilliardsTask MakeBilliardsTask(const std::string& initialisation, std::uint64_t target_seed,
                                std::uint64_t launch_seed, double tolerance);

}  // namespace arena
