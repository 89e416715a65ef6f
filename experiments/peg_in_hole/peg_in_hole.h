// peg_in_hole — seed 000 (Silico) Fig. 7: a tapered peg falls into a hole with 2 mm clearance
// (the scene peg_in_hole, scenes/silico_scenes.h). dt = 0.01 s; the peg starts at (0, 1.5)
// tilted 0.3 rad, at rest, and is simulated for 500 steps. The paper shows three contact points
// at the end: the two walls and the floor.
#pragma once

#include "experiments/common/sweeps/rollout_experiment.h"

namespace arena {

class PegInHoleExperiment final : public RolloutExperiment {
 public:
  std::string name() const override { return "peg_in_hole"; }
  std::string paper() const override { return "seed 000 (Silico) Fig. 7"; }
  std::string description() const override {
    return "tapered peg falls into a hole with 2 mm clearance; contact points found, penetration";
  }
  std::vector<std::string> plots() const override { return {"silico_fig7_peg_in_hole"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;

  std::shared_ptr<const Scene> MakeScene() const override;
  State InitialState() const override;
  double timestep() const override { return 0.01; }
  /// The peg and the walls are 0.5 m wide: deeper than that, the peg went through one; it may
  /// not gain more energy than lifting it 0.5 m, and, dropped from 1.5 m, it must come down
  /// (within 5 cm of the floor or a wall).
  OutcomeLimits outcome_limits() const override {
    return {.max_penetration_m = 0.5, .max_energy_gain_height_m = 0.5, .escape_radius_m = 100.0, .reach_distance_m = 0.05};
  }
};

}  // namespace arena
