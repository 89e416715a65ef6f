// stacking — seed 000 (Silico) Figs. 8 and 10: two blocks stacked at rest, simulated for 1 s,
// swept over frequency x each model's stiffness parameter x 10 configurations. A tower at
// rest must stay at rest: the total momentum should stay 0.
//
//   planar   the paper's two squares of side 0.5, the lower one shifted 0.02 i, i = 1..10, both
//            at rest and exactly touching (scenes/stacking_scenes.h);
//   spatial  the same in 3D: two 0.5 m cubes.
// Metrics (Fig. 10, as the authors' benchmark code computes them): momentum_t = sum over
// bodies of diag(m, m, J) v_t with the velocities recorded at the start of each step (world
// frame); linear error = mean over t and both components of |momentum_xy|, angular error = mean
// over t of |momentum_theta|. In 3D the linear error averages the three components and the
// angular one the norm of the angular momentum about each block's centre. A tower "stands" when
// every step succeeded and each block stayed within 5 cm and 0.1 rad of its start.
// The incremental-potential models (longrange, ipc) run the spatial variant only. A barrier is
// infinite at contact, so their blocks start apart, with every gap where they rest
// (experiments/common/meters/resting_gaps.h; column initial_gap_m, 0 for every other model); a model may
// run only the first configurations ([<profile>.grid.<model>]). Spatial rows record the smallest
// exact mesh-mesh distance between any two of the blocks and the ground over the run
// (min_distance_m, experiments/common/meters/collider_distances.h; < 0: interpenetration).
#pragma once

#include "experiments/experiment.h"

namespace arena {

class StackingExperiment final : public Experiment {
 public:
  std::string name() const override { return "stacking"; }
  std::string paper() const override { return "seed 000 (Silico) Fig. 10"; }
  std::string description() const override {
    return "two blocks stacked at rest for 1 s; momentum drift and tower stability vs frequency x stiffness";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  OutcomeLimits outcome_limits() const override;
  std::vector<std::string> plots() const override { return {"silico_fig10_stacking"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;
};

}  // namespace arena
