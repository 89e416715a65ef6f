// lcp_warmstart — seed 002 (Nimble) App. B: how often last step's LCP active set (clamping /
// bounded / separating rows) solves this step's LCP, so that one linear solve of the clamping
// rows replaces the full LCP. The paper: "more than 95 % of the time".
//
// Contact-rich rollouts of the `nimble` model at its 1 kHz: Atlas standing from Nimble's pose,
// box_drop's spatial cube dropped from its random initial conditions (it lands, tumbles,
// slides and settles), the two-cube tower of stacking (configuration 0), Half Cheetah falling
// onto its floor from the file's pose. One row per rollout: LCP solves, warm-start attempts
// (a previous active set with the same rows) and hits, and how the other solves ended. The
// claim is hits / attempts (the paper: the guess "is correct more than 95 % of the time").
// Only models with Nimble's LCP pipeline run (the others have no active set to guess).
#pragma once

#include <memory>
#include <string>

#include "core/scene/scene.h"
#include "experiments/experiment.h"

namespace arena {

class LcpWarmstartExperiment final : public Experiment {
 public:
  std::string name() const override { return "lcp_warmstart"; }
  std::string paper() const override { return "seed 002 (Nimble) App. B"; }
  std::string description() const override {
    return "hit rate of the LCP active-set warm start over contact-rich rollouts (Atlas, box drops, a tower, "
           "Half Cheetah)";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  OutcomeLimits outcome_limits() const override;
  std::vector<std::string> plots() const override { return {"nimble_lcp_warmstart"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;

  /// "atlas", "box_drop", "stacking" or "half_cheetah": the registered scenes atlas, box,
  /// tower and half_cheetah.
  static std::shared_ptr<const Scene> MakeScene(const std::string& rollout);
  /// The rollout's start (box_drop: initial condition `ic`; the others ignore it).
  static State InitialState(const std::string& rollout, const Scene& scene, int ic);
};

}  // namespace arena
