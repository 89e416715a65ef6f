// Base of the single-scene qualitative experiments of seed 000 (peg_in_hole, convex_bundles):
// one rollout per model (and per value of the model's swept option, if the config sweeps one)
// from the paper's initial state, with snapshot rows (experiments/common/sweeps/snapshot_rollout.h).
// Config keys: models, steps, snapshot_every; model options in [profile.options.<model>].
#pragma once

#include <memory>

#include "core/scene/scene.h"
#include "experiments/common/meters/outcome_checks.h"
#include "experiments/experiment.h"

namespace arena {

class RolloutExperiment : public Experiment {
 public:
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;

  virtual std::shared_ptr<const Scene> MakeScene() const = 0;
  virtual State InitialState() const = 0;
  /// The paper's timestep (the experiment sets it: not a config key).
  virtual double timestep() const = 0;
  /// What a rollout may not do (its failure names the first violation).
  OutcomeLimits outcome_limits() const override = 0;
};

}  // namespace arena
