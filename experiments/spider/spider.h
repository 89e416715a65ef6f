// spider — seed 003 (SDRS, Ye et al.) Sec. VII, Fig. 11: a 9-link, 16-DOF spider on a slope
// (scenes/spider_scenes.h) walks down it under open-loop sine-wave PD targets on its 12 leg DOFs
// (trajectory/sine_wave_controls.h), optimised with Adam on sdrs's gradient. Two variants: the
// controller alone, and the controller with the feet's shape (the 3 hulls x 32 vertices of each
// foot, sdrs's design parameters). Loss: the body's squared distance to a target down the slope
// at the last step (the paper's COM loss, stripped; ours: the root body's position). The paper:
// the co-designed spider (flattened feet) walks farther.
// Per case: a row per Adam iteration (loss, best, the walking distance of that iterate and of
// the best so far, gradient norm), the smallest hull-ground distance over the best rollout (the
// barrier keeps it positive), and every foot hull vertex at the start and at the best iterate
// (design rows, in the lower legs' frames; `arena export-design` writes them as an OBJ file).
#pragma once

#include "experiments/experiment.h"

namespace arena {

class SpiderExperiment final : public Experiment {
 public:
  std::string name() const override { return "spider"; }
  std::string paper() const override { return "seed 003 (SDRS) Fig. 11"; }
  std::string description() const override {
    return "a spider walks down a slope: sine-wave control alone vs control + the feet's shape co-design";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  std::vector<std::string> plots() const override { return {"sdrs_fig11_spider"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;
};

}  // namespace arena
