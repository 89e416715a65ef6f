// trajopt_compare — seed 002 (Nimble) Sec. VII-B, Fig. 7: wall-clock time to find a trajectory
// with a gradient-based optimiser and with stochastic search, on the cartpole, the
// double-pendulum cartpole and the catapult. The paper: "The gradient-based methods converge
// much more quickly, because the additional convergence gained from analytical Jacobians more
// than offsets the time to compute them." Nimble used DDP on the cartpoles and multiple
// shooting on the catapult; its code and timing protocol are not public.
//
// Our setup (experiments/trajopt_compare/README.md): the problems of experiments/trajopt_compare/trajopt_tasks.h,
// through every model that can simulate them (the head-to-head the paper did not run):
// single-shooting L-BFGS and multiple shooting (trajectory/) on the model's gradient
// (analytical, or differences of its own step for the engines) vs the cross-entropy method
// (solvers/cross_entropy.h), all from zero controls, each stopping at a per-problem loss
// threshold or when its rollout / wall-clock budget runs out. One row per optimiser iteration
// (best loss so far, rollouts, elapsed time); the last row of a case adds the stop reason and,
// when the threshold was reached, when.
#pragma once

#include <string>
#include <vector>

#include "experiments/experiment.h"

namespace arena {

class TrajoptCompareExperiment final : public Experiment {
 public:
  std::string name() const override { return "trajopt_compare"; }
  std::string paper() const override { return "seed 002 (Nimble) Fig. 7"; }
  std::string description() const override {
    return "trajectory optimisation time through any model: single shooting (L-BFGS) and multiple shooting on the "
           "model's gradients vs cross-entropy stochastic search";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  bool serial() const override { return true; }  // wall-clock comparison: one case at a time
  std::vector<std::string> plots() const override { return {"nimble_fig7_trajopt_compare"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;
};

}  // namespace arena
