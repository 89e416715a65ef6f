// grippers — seed 003 (SDRS, Ye et al.) Sec. VII, Figs. 14-18, reduced (issue 22): a single-jaw
// gripper (scenes/gripper_scenes.h: a wall of 3 x 3 convex box hulls on a PD-driven translating
// root) lowers, approaches an X-shaped object lying on the ground and lifts, along a fixed script
// (experiments/grippers/gripper_task.h); only the jaw's shape (the 72 block vertices, sdrs's design
// parameters) is optimised, with Adam on sdrs's gradient of the paper's stage-2 (the X should not
// be pushed) and stage-4 (the X should move with the jaw) losses. The paper: a hole appears in
// the jaw, an arm of the X passes through it and the jaw lifts the X.
// Rows: one per Adam iteration (loss and its two terms, the X's rise, whether the jaw held it, the
// hole's depth, gradient norm), in the last the optimiser's stop and the start design's and the
// best iterate's outcome, each rolled out again on a fresh simulator (held, rise, loss; the
// smallest hull distance of the best's); the jaw's and the X's path (y, z per step) of both
// fresh rollouts; the design rows of both (`arena export-design` writes them as an OBJ file).
#pragma once

#include "experiments/experiment.h"

namespace arena {

class GrippersExperiment final : public Experiment {
 public:
  std::string name() const override { return "grippers"; }
  std::string paper() const override { return "seed 003 (SDRS) Figs. 14-18"; }
  std::string description() const override {
    return "a single-jaw gripper of 3 x 3 convex blocks: its shape optimised until it lifts an X-shaped object (a "
           "hole opens for the X's arm)";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  std::vector<std::string> plots() const override { return {"sdrs_fig14_grippers"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;
};

}  // namespace arena
