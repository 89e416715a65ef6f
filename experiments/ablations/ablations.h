// ablations — seed 004 (long-range contact, Ye et al., ICLR 2025) App. A.6: the push task
// (experiments/rod_tasks/rod_task.h) under receding-horizon control, varying one thing at a time, each
// run measured by the simulated time until the cube is at its target (the paper's "time to
// converge"; a run that never gets there counts as its horizon, a lower bound):
//   smoothness (Fig. 13)  longrange against ipc with seed 004's global 1/d barrier (non-vanishing
//                         but not smooth);
//   timestep (Table 4)    longrange at mu 1e-7 with dt in timesteps_s;
//   mu (Table 5)          longrange at dt 0.04 s with mu in mus.
#pragma once

#include <string>
#include <vector>

#include "experiments/experiment.h"

namespace arena {

class AblationsExperiment final : public Experiment {
 public:
  std::string name() const override { return "ablations"; }
  std::string paper() const override { return "seed 004 (long-range contact) Fig. 13, Tables 4-5"; }
  std::string description() const override {
    return "push without the potential's smoothness (ipc's global barrier), and longrange across dt and mu: time to "
           "converge";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  std::vector<std::string> plots() const override { return {"longrange_fig13_ablations"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
};

}  // namespace arena
