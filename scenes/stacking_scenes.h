// The scenes of stacking, seed 000 (Silico) Figs. 8 and 10: two blocks stacked at rest.
//
//   planar   the paper's: two squares of side 0.5 (A = [+-e_x, +-e_y], b = 0.25), m = 1 kg,
//            J = 0.2 kg m^2, mu = 0.5; the lower block at (0.02 i, 0.25, 0), the upper one at
//            (0, 0.75, 0), i = 1..10, both at rest and exactly touching.
//   spatial  the same in 3D: two 0.5 m cubes (m = 1 kg), the lower one shifted 0.02 i along x
//            (our choice, see docs/deviations.md).
// Configuration 0 (i = 1) is registered as "tower_planar" and "tower" (scenes/scene_registry.h).
#pragma once

#include <memory>
#include <string>

#include "core/scene/scene.h"

namespace arena {

/// The scene of a variant ("planar" or "spatial") with configuration `config` (0-based: the
/// paper's i = config + 1); throws InvalidArgument for another variant. `gap` (m, >= 0) lifts the
/// lower block that far off the ground and the upper one that far off the lower one: 0, the
/// paper's, leaves them exactly touching; a barrier model must start clear of contact.
std::shared_ptr<const Scene> StackingScene(const std::string& variant, int config, double gap = 0.0);

}  // namespace arena
