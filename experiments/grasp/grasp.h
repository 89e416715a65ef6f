// grasp — seed 000 (Silico) Fig. 1: two position-controlled fingertips turn a star from lying on
// the floor to (1.5, 1.0, -0.6 pi), planned by the RRT of trajectory/contact_rrt.h whose metric
// and extensions come from a model's gradients at a smoothing relaxation (silico at rho 3e-3).
// One case per model and seed: success, planning time, iterations, the path's end pose error;
// the tree and the path of each model's first seed for the figure. The paper: "about 1 s on a
// laptop". Cases run one at a time (planning time is the claim).
#pragma once

#include <string>
#include <vector>

#include "experiments/experiment.h"

namespace arena {

class GraspExperiment final : public Experiment {
 public:
  std::string name() const override { return "grasp"; }
  std::string paper() const override { return "seed 000 (Silico) Fig. 1"; }
  std::string description() const override {
    return "RRT through contact guided by each model's smoothed gradients: a two-fingertip star reorientation";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  bool serial() const override { return true; }
  std::vector<std::string> plots() const override { return {"silico_fig1_grasp"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;
};

}  // namespace arena
