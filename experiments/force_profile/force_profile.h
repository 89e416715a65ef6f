// force_profile — seed 001 (SCM) Figs. 1 and 5: the contact force between a fixed sphere and a
// probe sphere at rest, sampled along lines and over a grid, for every model that runs the scene.
// SCM's force is smooth and reaches beyond contact; MuJoCo's has kinks where contact begins and
// a jump where the normal flips (concentric spheres).
//
// Scene `sphere_probe` (scenes/force_profile_scenes.h): radii 0.1 m (fixed, at the origin) and
// 0.05 m (the 1 kg probe), no gravity, frictionless. At each sample the probe is placed at rest
// and one step of `timestep_s` is taken; the force is m v+ / dt (world frame), the step's mean
// contact force. Paths: lines along y at each of `line_offsets_m` in x (through the centres at
// 0: the probe passes through the fixed sphere; beside it at 0.1 m: at most 5 cm deep), and a
// square grid in the x-y plane (`grid_samples` per side, 0: none).
//
// Measured per model and line, on the samples whose step succeeded, in y order (Observe):
//   jump  = max |f_y(k+1) - f_y(k)| / max |f_y|: a discontinuity is O(1) whatever the sampling;
//   bend  = max |D2 |f|| / max |D |f||: second over first differences of the magnitude, O(h / l)
//           for a profile smooth on the length l, O(1) at a kink;
//   reach = the largest surface gap (m) at which |f| exceeds 1e-3 of its largest value.
// The barrier models (ipc, longrange, sdrs) cannot start in contact: their steps from
// overlapping samples fail and are rows with failed = true.
#pragma once

#include "experiments/experiment.h"

namespace arena {

class ForceProfileExperiment final : public Experiment {
 public:
  std::string name() const override { return "force_profile"; }
  std::string paper() const override { return "seed 001 (SCM) Figs. 1, 5"; }
  std::string description() const override {
    return "contact force of a probe sphere at rest near a fixed sphere, along lines and over a grid, per model";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  std::vector<std::string> plots() const override { return {"scm_fig1_force_profile"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;
};

}  // namespace arena
