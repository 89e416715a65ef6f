// book_stacking — seed 004 (Ye et al., long-range contact), Sec. 6, Fig. 4 and Table 2: a
// harmonic stack of planks (2.0 x 0.4 x 0.2 m, 0.16 kg; plank k from the top overhangs the one
// below by L / (2k), every overhang shortened by 0.1 % of L so that the stack is just stable;
// scenes/longrange_scenes.h) left to rest. The paper sweeps the long-range model's contact
// coefficient mu over {1e-5, 1e-6, 1e-7, 1e-8, 1e-10}: at 1e-5 the potential's reach (the gap it
// keeps between planks) is too large and the stack falls; from 1e-6 down it stands, with a gap and
// a contact-force error that shrink with mu (Table 2). Every other model that runs stacked boxes
// runs the same stack once with its defaults, as a head-to-head stability test.
//
// Per (model, mu), at the end of the run:
//   stable          every step succeeded, no plank moved more than stable_drift_m horizontally or
//                   turned more than 0.1 rad, and the top plank did not drop by more than
//                   stable_drift_m (it did not fall off);
//   top_gap_m       the exact mesh distance between the top plank and the one below (the paper's
//                   "gap": the distance at which the potential carries the top plank's weight);
//   force_error_n   |F_z - m g| with F_z the contact force the plank below exerts on the top plank
//                   (Simulator::ContactForces) and m g = 0.16 x 9.81 N. A long-range model also
//                   pushes the top plank from every other plank, so F_z falls short of the weight
//                   by their share, which is proportional to mu; net_force_error_n compares the sum
//                   over all bodies instead (zero at rest, up to the friction and the dynamics);
//   min_distance_m  the smallest exact mesh-mesh distance over every state (experiments/common/meters/
//                   collider_distances.h): no run may end interpenetrating.
// Models that do not report contact forces leave the force columns empty.
#pragma once

#include "experiments/experiment.h"

namespace arena {

class BookStackingExperiment final : public Experiment {
 public:
  std::string name() const override { return "book_stacking"; }
  std::string paper() const override { return "seed 004 (long-range contact) Fig. 4, Table 2"; }
  std::string description() const override {
    return "harmonic stack of planks at rest: stability, inter-plank gap and top-plank force error vs mu";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  std::vector<std::string> plots() const override { return {"longrange_fig4_book_stacking"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;
};

}  // namespace arena
