// drone_liftoff — seed 002 (Nimble) Sec. IV-D, Fig. 8: a "drone" resting on the ground must be
// at a target height after 500 steps; plain gradient descent on its 500 vertical forces, with
// the standard gradient and with complementarity-aware gradients.
//
// The scene is Nimble's script, as its public code sets it (scenes/nimble_robots.h PrismaticBallScene):
// a 0.1 kg sphere of radius 0.3 on a vertical prismatic joint, 1e-4 m into a frictionless
// floor and moving into it at 1e-4 m/s, forces limited to +-10 N, dt = 0.001. The loss is
// (target - q_500)^2, the forces start at 0 and move by u <- clip(u - lr dL/du, +-limit)
// (Nimble's SGDOptimizer with lr = 10, its force limits as a projection).
//
// Resting on the floor, every step's contact clamps, so the standard gradient dL/du is exactly
// zero: the loss stays where it starts. The complementarity-aware gradient releases the contact
// in the steps where the loss wants the drone to rise (models/nimble/nimble.h Backprop) and
// escapes. It runs on the generic trajectory layer (trajectory/shooting_objective.h), so every
// model with derivatives that can simulate the scene runs the standard gradient beside nimble
// (penalty and MuJoCo's differences: tiny, not zero, gradients; see the report's observations);
// the aware gradient runs where a model has the option complementarity_aware. One row per
// iteration: the loss before the update, its gradient's norm, the steps whose backward pass
// took the loss-guided classes.
#pragma once

#include <string>
#include <vector>

#include "experiments/experiment.h"

namespace arena {

class DroneLiftoffExperiment final : public Experiment {
 public:
  std::string name() const override { return "drone_liftoff"; }
  std::string paper() const override { return "seed 002 (Nimble) Fig. 8"; }
  std::string description() const override {
    return "gradient descent lifting a drone off the ground: standard vs complementarity-aware gradients";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  std::vector<std::string> plots() const override { return {"nimble_fig8_drone_liftoff"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;
};

}  // namespace arena
