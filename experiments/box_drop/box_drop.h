// box_drop — seed 000 (Silico, Le Cleac'h et al. 2023) Fig. 9: a polytope dropped on flat ground
// from random initial conditions for 1.5 s, swept over simulation frequency x each model's
// stiffness parameter (silico's relaxation rho, penalty's spring stiffness, longrange's contact
// coefficient mu, ipc's activation distance dhat) x initial conditions.
//
// Two scene variants, with their initial-condition ranges in scenes/box_drop_scenes.h:
//   planar   the paper's own 5-face polygon on a planar joint over the ground y <= 0;
//   spatial  a 0.5 m cube on a free joint over the ground z <= 0.
// The same initial conditions are reused in every (frequency, parameter) cell, as in the paper.
// The incremental-potential models (longrange, ipc) run the spatial variant only (their shapes
// must have triangle meshes); a model may run only the first initial conditions
// ([<profile>.grid.<model>], experiments/common/sweeps/frequency_sweep.h). Spatial rows also record the
// smallest exact mesh-mesh distance between the cube and the ground over the run
// (`min_distance_m`, experiments/common/meters/collider_distances.h): < 0 is interpenetration, which a
// barrier model must never show.
#pragma once

#include "experiments/experiment.h"

namespace arena {

class BoxDropExperiment final : public Experiment {
 public:
  std::string name() const override { return "box_drop"; }
  std::string paper() const override { return "seed 000 (Silico) Fig. 9"; }
  std::string description() const override {
    return "polytope dropped on the ground from random initial conditions; iterations, "
           "failures and penetration vs frequency x stiffness";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  OutcomeLimits outcome_limits() const override;
  std::vector<std::string> plots() const override { return {"silico_fig9_box_drop"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;
};

}  // namespace arena
