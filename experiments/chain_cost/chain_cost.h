// chain_cost — seed 003 (SDRS, Ye et al.) Fig. 9 and Table II: the cost of a time step of four
// rotating chains as their link count grows (scenes/rotating_chains_scenes.h: 8N + 13 DOF), and
// where it goes. The paper: near-linear in the DOF; the potential terms take about two thirds of
// a step, the backward pass (the step's derivatives) 30.85 %, the Newton systems almost nothing.
//
// Per case (a model, N links a chain): `steps` steps from the chains' start with the roots' PD
// targets on their circles, each step followed by its derivatives (Simulator::Derivatives, the
// implicit function theorem: the backward pass of a trajectory gradient). Recorded per step and
// averaged: the forward step's wall time split into the contact potential, the step bound, the
// Newton systems and the rest (Simulator::last_solve_breakdown), and the
// derivatives' time. After each step the smallest exact distance between colliders that may
// touch (experiments/common/meters/collider_distances.h): negative would be interpenetration.
// One thread (serial()); the models use no threads within a pair of hulls, sdrs's pair solves
// run on TBB's arena, which the runner limits to one thread for serial experiments.
#pragma once

#include "experiments/experiment.h"

namespace arena {

class ChainCostExperiment final : public Experiment {
 public:
  std::string name() const override { return "chain_cost"; }
  std::string paper() const override { return "seed 003 (SDRS) Fig. 9, Table II"; }
  std::string description() const override {
    return "time per step of four rotating chains vs DOF, and its breakdown: potential, Newton, backward";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  bool serial() const override { return true; }
  std::vector<std::string> plots() const override { return {"sdrs_fig9_chain_cost"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;
};

}  // namespace arena
