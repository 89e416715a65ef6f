// biped — seed 003 (SDRS, Ye et al.) Sec. VII, Figs. 12-13: a 7-link, 12-DOF biped
// (scenes/biped_scenes.h) under open-loop sine-wave PD targets on its 6 leg DOFs, optimised with
// Adam on sdrs's gradient to walk forward and end upright (experiments/common/tasks/walker_task.h: the loss is
// the torso's squared distance to a target ahead plus the squared change of its height, roll and
// pitch). Two variants: the controller alone, and with the feet's shape (3 hulls x 32 vertices a
// foot). The paper: the co-designed biped keeps its balance open-loop. Rows as the walker
// experiments' (walker_task.h), and in the last iteration row the fraction of the best rollout's
// states in which the torso is upright.
#pragma once

#include "experiments/experiment.h"

namespace arena {

class BipedExperiment final : public Experiment {
 public:
  std::string name() const override { return "biped"; }
  std::string paper() const override { return "seed 003 (SDRS) Figs. 12-13"; }
  std::string description() const override {
    return "a biped walks open-loop and keeps its balance: sine-wave control alone vs control + the feet's shape";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  std::vector<std::string> plots() const override { return {"sdrs_fig12_biped"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;
};

}  // namespace arena
