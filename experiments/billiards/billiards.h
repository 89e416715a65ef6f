// billiards — seed 004 (long-range contact, Ye et al., ICLR 2025) Sec. 6, Fig. 5, App. A.6:
// optimise the cue ball's launch (planar position and velocity, 4 numbers) so that two rack
// balls end within eps_target of their targets after the horizon (experiments/billiards/billiards_task.h),
// with Adam on each model's gradient of the rollout (trajectory/launch_objective.h). The
// paper's point: from the trivial initialisation (cue ball at rest, far from the rack) a
// contact model whose force vanishes at a distance (ipc; MuJoCo by finite differences) gives a
// gradient that is exactly zero, so the optimiser never moves; the long-range potential's
// gradient is small but not zero and leads the cue ball to the rack.
//
// Methods per model: `gradient` (the model's own derivatives: analytical, or differences of its
// step for the engines) and, for the models in bundle_models, `bundle` (trajectory/
// gradient_bundle.h, the paper's Monte-Carlo baseline). Initialisations: `trivial` and
// `sampled` (seeded, sampled_initialisations of them). The targets are drawn per
// initialisation, the same for every model.
//
// Rows: one per optimiser iteration (record = iteration: the iterate's loss, the best so far,
// the gradient's norm and whether it was exactly zero), then the best launch's rollout (record
// = path: every ball's (x, y) at every frame) for the top-down figure.
#pragma once

#include <string>
#include <vector>

#include "experiments/experiment.h"

namespace arena {

class BilliardsExperiment final : public Experiment {
 public:
  std::string name() const override { return "billiards"; }
  std::string paper() const override { return "seed 004 (long-range contact) Fig. 5, App. A.6"; }
  std::string description() const override {
    return "billiards: optimise the cue ball's launch with Adam on each model's gradient (and the gradient bundle); "
           "trivial and sampled initialisations";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  std::vector<std::string> plots() const override { return {"longrange_fig5_billiards"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;
};

}  // namespace arena
