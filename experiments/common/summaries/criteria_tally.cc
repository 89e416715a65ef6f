#include "experiments/common/summaries/criteria_tally.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace arena {

CriteriaTally::CriteriaTally(const Scene& scene, const State& start, const ContactCriteriaOptions& options)
    : scene_(scene), options_(options), data_(scene.model) {
  energy0_ = energy_last_ = MechanicalEnergy(scene_, data_, start);
}

void CriteriaTally::Record(Simulator& sim, const State& after) {
  ++steps_;
  reported_ = sim.ReportsContactPoints();
  if (reported_) {
    const ContactCriteria c = MeasureContactCriteria(scene_, data_, after, sim.timestep(), sim.ContactPoints(), options_);
    sum_.points += c.points;
    sum_.sliding += c.sliding;
    sum_.penetration_m = std::max(sum_.penetration_m, c.penetration_m);
    sum_.signorini_n_m += c.signorini_n_m;
    sum_.adhesion_n += c.adhesion_n;
    sum_.coulomb_n += c.coulomb_n;
    sum_.dissipation_n += c.dissipation_n;
    sum_.normal_force_n += c.normal_force_n;
  }
  const double energy = MechanicalEnergy(scene_, data_, after);
  energy_gain_ = std::max(energy_gain_, energy - energy0_);
  energy_step_gain_ = std::max(energy_step_gain_, energy - energy_last_);
  energy_last_ = energy;
}

std::vector<Column> CriteriaTally::Columns() {
  return {
      {"contact_points_mean", "contact points the model reported per step (empty: the model does not report them)"},
      {"point_penetration_m", "largest penetration at a reported point at its step's end (a start-of-step gap carried "
                              "by the normal velocity after the step)"},
      {"signorini_gap_m", "sum of f_n max(gap, 0) over the points and steps / sum of f_n: the mean distance the normal "
                          "force acted across (0 for rigid contact)"},
      {"adhesion_rel", "sum of max(-f_n, 0) / sum of max(f_n, 0): how much the contacts pulled"},
      {"coulomb_rel", "sum of max(0, |f_t| - mu f_n) / sum of f_n: friction outside the Coulomb cone"},
      {"dissipation_rel", "sum over sliding points of |f_t + mu f_n s/|s|| / sum of f_n: friction off the maximum-"
                          "dissipation force (on the cone's edge, against the slip s)"},
      {"sliding_fraction", "reported points sliding faster than 1 mm/s after their step / all reported points"},
      {"energy_gain_j", "largest kinetic + gravitational energy above the start's over the run (J; rigid-body "
                        "inertia, our own measure for every model; > 0 in a passive scene is energy made)"},
      {"energy_step_gain_j", "largest energy increase of one step (J)"},
  };
}

void CriteriaTally::WriteTo(Row* row) const {
  (*row)["energy_gain_j"] = energy_gain_;
  (*row)["energy_step_gain_j"] = std::max(energy_step_gain_, 0.0);
  if (!reported_ || steps_ == 0) return;
  (*row)["contact_points_mean"] = static_cast<double>(sum_.points) / steps_;
  (*row)["point_penetration_m"] = sum_.penetration_m;
  (*row)["sliding_fraction"] = sum_.points > 0 ? static_cast<double>(sum_.sliding) / sum_.points : 0.0;
  const double load = sum_.normal_force_n;
  auto relative = [load](double x) { return load > 0.0 ? x / load : (x > 0.0 ? INFINITY : 0.0); };
  (*row)["signorini_gap_m"] = relative(sum_.signorini_n_m);
  (*row)["adhesion_rel"] = relative(sum_.adhesion_n);
  (*row)["coulomb_rel"] = relative(sum_.coulomb_n);
  (*row)["dissipation_rel"] = relative(sum_.dissipation_n);
}

}  // namespace arena
