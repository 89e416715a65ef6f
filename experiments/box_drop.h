// box_drop — seed 000 (Silico, Le Cleac'h et al. 2023) Fig. 9: a polytope dropped on flat ground
// from random initial conditions for 1.5 s, swept over simulation frequency x each model's
// stiffness parameter (silico's relaxation rho, penalty's spring stiffness) x initial conditions.
//
// Two scene variants:
//   planar   the paper's own: the 5-face polygon A p <= b (A rows (1, 0.2), (0, 1), (-1, -0.3),
//            (0, -1), (0.8, -0.8); b = 0.4), m = 1 kg, J = 0.2 kg m^2, mu = 0.2, gravity -9.81 y,
//            ground y <= 0; initial y in [sqrt(2)/2, 1.5] m, theta in [0, 2 pi), velocity
//            vx in [-1, 1], vy in [-2, 0] m/s, omega in [-1, 1] rad/s (world frame).
//   spatial  a 0.5 m cube (m = 1 kg, mu = 0.2) on a free joint over the ground z <= 0; initial
//            height in [sqrt(3)/4 + 0.05, 1.5] m, uniform random orientation, velocity
//            vx, vy in [-1, 1], vz in [-2, 0] m/s, omega in [-1, 1]^3 rad/s (world frame).
// The same initial conditions are reused in every (frequency, parameter) cell, as in the paper.
#pragma once

#include <memory>

#include "core/scene/scene.h"
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
  std::vector<std::string> plots() const override { return {"silico_fig9_box_drop"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;

  /// The scene of a variant ("planar" or "spatial"); throws InvalidArgument otherwise.
  static std::shared_ptr<const Scene> MakeScene(const std::string& variant);
  /// Initial condition `seed` of a variant (world-frame velocities converted to the joint's).
  static State InitialState(const std::string& variant, std::uint64_t seed);
};

}  // namespace arena
