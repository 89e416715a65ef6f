// chain_reach — seed 003 (SDRS, Ye et al.) Fig. 10: three hanging chains of capsule-hull links
// (scenes/reaching_chains_scenes.h); the left chain's base slides along x under a cubic-in-time
// target of 4 coefficients, and its tip must reach a target below the reach of its length. Two
// variants on sdrs, each optimised with Adam on the model's own gradient
// (experiments/chain_reach/chain_reach_task.h): control only, and control + shape co-design (the left chain's
// hull vertices, its joints' attachment points following them). The paper: only co-design
// reaches the target, by elongating the chain.
// Per case: a row per Adam iteration (loss, best, the tip's distance, the left chain's length,
// gradient norm), then the best iterate's final pose (every link's joint and the tips, x-z) and the
// target, and the smallest hull-hull distance over the best rollout (< 0 never: the barrier).
#pragma once

#include "experiments/experiment.h"

namespace arena {

class ChainReachExperiment final : public Experiment {
 public:
  std::string name() const override { return "chain_reach"; }
  std::string paper() const override { return "seed 003 (SDRS) Fig. 10"; }
  std::string description() const override {
    return "a chain's tip to a target out of its reach: spline control alone vs control + shape co-design";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  std::vector<std::string> plots() const override { return {"sdrs_fig10_chain_reach"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;
};

}  // namespace arena
