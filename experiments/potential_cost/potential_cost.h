// potential_cost — seed 003 (SDRS, Ye et al.) Figs. 7-8 and Sec. IX: the cost of one pairwise
// contact potential between two convex hulls as their vertex count V grows. SDRS's separating-
// plane potential has O(V) terms (one per vertex, and only those within x0 of the plane carry
// derivatives); a mesh potential over the same hulls' triangles has one term per pair of
// primitives, O(V^2) in the worst case. The paper: SDRS's evaluation is several times faster.
//
// Scene: two random hulls of V points on a sphere (scenes/hull_pair_scenes.h), `gap_m` apart;
// `hulls_per_size` random pairs per V, the same pairs for every method. Methods, on the same
// states, each timed for the potential + gradient + projected Hessian a Newton iteration asks
// for (experiments/common/meters/potential_timing.h):
//   sdrs           the separating-plane potential, x0 = activation_distance_m; the first
//                  evaluation is cold (plane from GJK's witnesses), the repeats warm-started from
//                  the converged plane (the best a simulation's previous step can give)
//   ipc            the clamped log barrier over every point-triangle and edge-edge pair, dhat =
//                  activation_distance_m (the paper's comparison: dhat = x0), after ipc's broad
//                  phase: the pairs within dhat
//   ipc_all_pairs  the same with dhat beyond the pair's largest extent (4 radius + 2 gap):
//                  every primitive pair is active, the paper's worst case for meshes
//   any other incremental-potential model under its own name (longrange: its hierarchy).
// Timings on one thread (serial()), the methods of one hull pair back to back: ratios within
// the run are the result.
#pragma once

#include "experiments/experiment.h"

namespace arena {

class PotentialCostExperiment final : public Experiment {
 public:
  std::string name() const override { return "potential_cost"; }
  std::string paper() const override { return "seed 003 (SDRS) Figs. 7-8, Sec. IX"; }
  std::string description() const override {
    return "cost of one pairwise contact potential vs hull vertex count: SDRS planes vs IPC on the same hulls as meshes";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  bool serial() const override { return true; }
  std::vector<std::string> plots() const override { return {"sdrs_fig7_potential_cost"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;
};

}  // namespace arena
