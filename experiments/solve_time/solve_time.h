// solve_time — seed 000 (Silico) Fig. 11: wall time of each step's contact solve, single-level
// vs bilevel, on a unit square (A = [+-e_x, +-e_y], b = 0.5) falling on the floor (the scene
// falling_square, scenes/silico_scenes.h): m = 1 kg, J = 0.2 kg m^2, mu = 0.1, dt = 0.01 s;
// initial conditions x = 0, y in [1, 3] m, theta in [-3, 3] rad, (x-dot, y-dot, theta-dot) in
// [-2, 2]^3, each simulated for 200 steps (100 ICs = the paper's 20 000 steps).
//
// Two tolerance sets: "paper" runs each model as the authors' script timed it (silico rho
// 1e-4, tolerance 1e-5; bilevel with the chain-rule outer Jacobian, outer rho 1e-5, tolerance
// 1e-6, regularization 1e-6 / 1e-8, inner rho 1e-5, inner tolerance 1e-4), "matched" gives the
// bilevel solver silico's tolerances (outer and inner rho 1e-4, tolerance 1e-5), because the
// authors' two differ. Cases are ordered initial condition x tolerance set x model and run on one
// thread, so the models' timings interleave and share the machine's state: ratios, not absolute
// times, are the result.
#pragma once

#include "core/scene/scene.h"
#include "experiments/experiment.h"

namespace arena {

class SolveTimeExperiment final : public Experiment {
 public:
  std::string name() const override { return "solve_time"; }
  std::string paper() const override { return "seed 000 (Silico) Fig. 11"; }
  std::string description() const override {
    return "wall time of each step's contact solve, single-level vs bilevel, square falling on the floor";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  OutcomeLimits outcome_limits() const override;
  bool serial() const override { return true; }
  std::vector<std::string> plots() const override { return {"silico_fig11_solve_time"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;

  /// Initial condition `seed` of the falling square (scenes/silico_scenes.h FallingSquareScene).
  static State InitialState(std::uint64_t seed);
  /// The options a model runs with in a tolerance set ("paper" or "matched").
  static OptionMap ToleranceOptions(const std::string& model, const std::string& set);
};

}  // namespace arena
