// ant_push — seed 004 (long-range contact, Ye et al., ICLR 2025) Sec. 6, Fig. 9, App. A.6: seed
// 003's spider (scenes/spider_scenes.h AntPushScene: 16 DOF, on flat ground) must push a 0.3 m
// box to a target ahead of it. The 12 leg DOFs follow sine-wave PD targets, 4 sines each (a,
// omega, phi: 144 parameters; trajectory/sine_wave_controls.h), optimised with Adam on each
// model's gradient of the rollout's loss ReLU(|x_box(q_T) - x*|^2 - eps^2)
// (trajectory/com_target_loss.h). The box starts out of the legs' reach: a contact model whose
// force vanishes at a distance (ipc, sdrs; MuJoCo by finite differences) gives a gradient of
// exactly zero until some iterate touches the box; the long-range potential's is small but not
// zero. The paper's claim: longrange reduces the loss most.
//
// Methods per model: `gradient` (the model's own derivatives) and, for the models in
// bundle_models, `bundle` (trajectory/gradient_bundle.h, the paper's Monte-Carlo baseline).
// Rows: one per Adam iteration (record = iteration), then the best iterate's rollout (record =
// path: the spider's and the box's (x, y) per step) and the target (record = target).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "experiments/experiment.h"
#include "trajectory/com_target_loss.h"

namespace arena {

/// The task's loss on an ant_push scene (scenes/spider_scenes.h): the box's centre within
/// `tolerance` of a target `ahead` m beyond its start along +x.
std::shared_ptr<ComTargetLoss> AntPushBoxLoss(const Scene& scene, double ahead, double tolerance);

class AntPushExperiment final : public Experiment {
 public:
  std::string name() const override { return "ant_push"; }
  std::string paper() const override { return "seed 004 (long-range contact) Fig. 9, App. A.6"; }
  std::string description() const override {
    return "ant_push: the spider's 144 sine-wave parameters optimised with Adam on each model's gradient (and the "
           "gradient bundle) to push a box to a target";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  std::vector<std::string> plots() const override { return {"longrange_fig9_ant_push"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;
};

}  // namespace arena
