// tpush — seed 001 (SCM) Figs. 6-7: a T (25 x 20 cm) pushed in the plane by a position-controlled
// sphere finger along five open-loop command sequences planned on mujoco (experiments/tpush/
// tpush_pushes.h), replayed by scm and by mujoco at each timestep and integrator of the sweep,
// scm with a coarse (~26 patches) and a fine (~4k) point cloud on the T. Per replay: the final T
// pose, the contacts made and broken, the wall time per step; the claims compare each scm replay
// with mujoco's of the same sequence, timestep and integrator (the paper's Fig. 7 table): the
// final COM distance and yaw difference, and the step times. The paper's baseline is MJX on a
// GPU; ours is MuJoCo 2.2.2 on one CPU core, so the step-time ratios compare other things than
// the paper's.
//
// Config: sequences (1-5), runs ("<timestep ms>-<rk4|euler>", the paper's columns), patch_sizes_m
// (scm's point clouds; the T's patch count is a column), settle_s (the hold after the path) and
// trace_interval_s (0: no trace rows; else the T and the finger every so often, for the figure).
#pragma once

#include "experiments/experiment.h"

namespace arena {

class TPushExperiment final : public Experiment {
 public:
  std::string name() const override { return "tpush"; }
  std::string paper() const override { return "seed 001 (SCM) Figs. 6, 7"; }
  std::string description() const override {
    return "open-loop T pushing replayed by scm and mujoco: final pose differences and step times";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  bool serial() const override { return true; }  // step times are compared
  std::vector<std::string> plots() const override { return {"scm_fig6_tpush"}; }
  /// plan-pushes (experiments/tpush/tpush_planner.h): re-plans the sequences the cases replay.
  std::vector<ExperimentCommand> commands() const override;
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;
};

}  // namespace arena
