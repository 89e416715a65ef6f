// push — seed 004 (long-range contact, Ye et al., ICLR 2025) Sec. 6, Fig. 7, App. A.6: a rod
// (six velocity-driven joints) must bring a 0.3 m cube to a target circle on the rod's own side
// of the cube, so it has to go around the cube and push it back (scenes/longrange_scenes.h
// PushScene). Receding-horizon control (trajectory/receding_horizon.h): at every real step Adam
// optimises the next `window` frames' velocity targets against ReLU(|x_box - x*|^2 - eps^2) at
// the window's end, and the first frame's controls are applied. From rest the rod is 0.7 m from
// the cube: a contact force that vanishes at a distance gives every window a zero gradient.
//
// Rows: one per real step (the cube's and the rod's centres, the cube's distance to the target,
// the window's best loss), the last adding whether and when the cube reached the target circle
// and whether the rod got behind the cube. A run stops early once the cube is there (its
// simulated time to converge, Tables 4-5).
#pragma once

#include <string>
#include <vector>

#include "experiments/experiment.h"

namespace arena {

class PushExperiment final : public Experiment {
 public:
  std::string name() const override { return "push"; }
  std::string paper() const override { return "seed 004 (long-range contact) Fig. 7, App. A.6"; }
  std::string description() const override {
    return "push: receding-horizon control of a rod that must go around a cube to push it to a target, per model";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  std::vector<std::string> plots() const override { return {"longrange_fig7_push"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;
};

}  // namespace arena
