// convex_bundles — seed 000 (Silico) Fig. 2: non-convex bodies as unions of convex parts and a
// Minkowski sum fall on the floor and onto each other (the scene convex_bundles,
// scenes/silico_scenes.h). dt = 0.01 s, 250 steps; body 1 starts at (0, 1.5, -0.2) turning at
// -1 rad/s, body 2 at (-1.8, 3.5, 0.75) at rest.
// Each (part, part) and (part, floor) pair is one contact. The claim is qualitative: the bodies
// come to rest without penetrating (we count it when the max penetration stays below 1 mm).
#pragma once

#include "experiments/common/sweeps/rollout_experiment.h"

namespace arena {

class ConvexBundlesExperiment final : public RolloutExperiment {
 public:
  std::string name() const override { return "convex_bundles"; }
  std::string paper() const override { return "seed 000 (Silico) Fig. 2"; }
  std::string description() const override {
    return "a union of convex parts and a Minkowski sum fall and rest on the floor; penetration";
  }
  std::vector<std::string> plots() const override { return {"silico_fig2_convex_bundles"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;

  std::shared_ptr<const Scene> MakeScene() const override;
  State InitialState() const override;
  double timestep() const override { return 0.01; }
  /// The thinnest parts (the bar and the balls) are 0.3 m thick: deeper than that, a body went
  /// through the floor or the other; the bodies may not gain more energy than lifting both 0.3 m,
  /// and, dropped from 1.5 and 3.5 m, they must come down (within 5 cm of something).
  OutcomeLimits outcome_limits() const override {
    return {.max_penetration_m = 0.3, .max_energy_gain_height_m = 0.3, .escape_radius_m = 100.0, .reach_distance_m = 0.05};
  }
};

}  // namespace arena
