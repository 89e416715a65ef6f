// jacobians — seed 002 (Nimble) Tables II and III: what one step's Jacobians cost, and how
// accurate they are, on the benchmark robots: Atlas standing on both soles (dt = 0.001), Half
// Cheetah resting on its floor, Jump-Worm and Catapult (the scenes of these names,
// scenes/nimble_robots.h).
//
// One case = one robot x one model. From one benchmark state (Atlas: Nimble's pose, no step
// before; Half Cheetah: 1 s settled on the floor with the model itself; Jump-Worm, Catapult:
// Nimble's state and one step, as its benchmark scripts do), the case times, in
// rounds of [step, central differences, Ridders, analytical], `samples` times each:
//   - one Step;
//   - d(q+, v+)/d(q, v, u) by central differences (2 (2 nv + nu) steps, the five Jacobians of
//     the paper at once) and by Ridders' extrapolation (the paper's reference, ref. [33]);
//   - the model's own analytical Derivatives(), when it has them and is not an engine (an
//     engine's derivatives are these same differences of its step), called right after an
//     untimed Step from the same state: nimble then reuses that step's contacts and LCP
//     solution, so, as in Nimble's benchmark code, the forward pass is not in its time.
// It writes one row per method with the median time, the steps a Jacobian took, and the
// largest relative error against Ridders. Cases run on one thread (serial()), and every ratio
// is between times of the same case, measured back to back.
#pragma once

#include <memory>
#include <string>

#include "core/scene/scene.h"
#include "experiments/experiment.h"
#include "models/simulator.h"

namespace arena {

class JacobiansExperiment final : public Experiment {
 public:
  std::string name() const override { return "jacobians"; }
  std::string paper() const override { return "seed 002 (Nimble) Tables II, III"; }
  std::string description() const override {
    return "time and accuracy of one step's Jacobians on Atlas and Half Cheetah: analytical vs "
           "central differences vs Ridders";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  bool serial() const override { return true; }
  std::vector<std::string> plots() const override { return {"nimble_tables_jacobians"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;

  /// The state whose step is differentiated, reached with `sim` (see the header comment).
  static State BenchmarkState(const std::string& robot, Simulator& sim);
};

}  // namespace arena
