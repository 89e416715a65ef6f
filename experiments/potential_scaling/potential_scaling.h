// potential_scaling — seed 004 (long-range contact, Ye et al., ICLR 2025) Fig. 6 and App. A.6.5:
// the per-frame cost of the contact potential as the tessellation grows. The scene is the
// registered `billiards` (16 free balls of radius 0.5 m above the ground; scenes/longrange_scenes.h),
// each ball tessellated by the model's `sphere_vertices` option (V Fibonacci points and their
// convex hull: 2V - 4 triangles), so 16 (2V - 4) ball triangles in all: 512 at V = 18 to 6208 at
// V = 196, the paper's range.
//
// Methods, on the same states: `bsh` (longrange with its bounding-sphere hierarchy, Algorithm
// 1), `brute` (longrange with brute_force = true: the exact potential of every triangle pair,
// Eq. 3) and `ipc` (the ipc model's clamped log barrier, its baseline). For each method and size:
//   eval    the contact potential + gradient + projected Hessian at the scene's initial
//           configuration (experiments/common/meters/potential_timing.h), first and median of repeats;
//   step    one full Simulator::Step from that configuration with the cue ball rolling towards the
//           rack (v_y = -cue_speed_mps), median of repeats on one simulator, with its Newton
//           iterations and an outcome check of the state it reaches.
// Timings are taken on one thread (serial(): the runner runs the cases one after another; the
// models and solvers use no TBB inside a step), and the methods of one size are timed back to
// back, so ratios within the run, not absolute times, are the result.
#pragma once

#include "experiments/experiment.h"

namespace arena {

class PotentialScalingExperiment final : public Experiment {
 public:
  std::string name() const override { return "potential_scaling"; }
  std::string paper() const override { return "seed 004 (long-range contact) Fig. 6, App. A.6.5"; }
  std::string description() const override {
    return "per-frame cost of the contact potential vs tessellation: BSH, brute force and IPC on the billiards";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  bool serial() const override { return true; }
  std::vector<std::string> plots() const override { return {"longrange_fig6_potential_scaling"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;
};

}  // namespace arena
