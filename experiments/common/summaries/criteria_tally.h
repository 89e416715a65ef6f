// The physical criteria of contact (models/contact_criteria.h) over a rollout, as columns any
// experiment can add to its rows: Record after every step the simulator took, WriteTo at the end.
// The contact criteria sum the model's reported points over the steps and are divided by the
// normal force they carried, so a row reads as a fraction of the load (or, for Signorini, the
// mean gap the load acted across); a model that does not report its contact points leaves those
// columns empty. The energy columns measure every model with our own energy (rigid-body inertia
// and gravity), and mean something where no energy should be added: passive scenes under zero
// controls.
#pragma once

#include <vector>

#include "core/multibody/data.h"
#include "experiments/experiment.h"
#include "models/contact_criteria.h"

namespace arena {

class CriteriaTally {
 public:
  /// `start` is the rollout's initial state (the energy's reference).
  CriteriaTally(const Scene& scene, const State& start, const ContactCriteriaOptions& options = {});

  /// After a step `sim` took from some state to `after`.
  void Record(Simulator& sim, const State& after);

  /// contact_points_mean, point_penetration_m, signorini_gap_m, adhesion_rel, coulomb_rel,
  /// dissipation_rel, sliding_fraction, energy_gain_j, energy_step_gain_j.
  static std::vector<Column> Columns();
  void WriteTo(Row* row) const;

 private:
  const Scene& scene_;
  ContactCriteriaOptions options_;
  MultibodyData data_;
  bool reported_ = false;  // the model reports contact points
  int steps_ = 0;
  ContactCriteria sum_;    // sums over steps (penetration: the largest)
  double energy0_ = 0.0, energy_last_ = 0.0;
  double energy_gain_ = 0.0, energy_step_gain_ = 0.0;
};

}  // namespace arena
