// gradient_truth (issue 23): every model's trajectory gradient judged against the exact one.
// Each scene (experiments/gradient_truth/gradient_truth_problems.h) has a closed-form end state and Jacobian;
// a model runs it over a sweep of timesteps (and of its own stiffness or relaxation where the
// config sweeps one), differentiates its end state with respect to the start through the
// generic backward pass (trajectory/endpoint_jacobian.h), and the rows record the relative
// errors of both against the closed form, and every Jacobian entry beside the exact one. The
// control task `cue_to_target` runs gradient descent on the cue speed that sends the second
// ball to a target with the model's gradient and records how far it ends from the analytic
// optimum. No paper states these numbers: the claims are observations, and the report shows
// nimble's two-ball gradient beside the exact (1, 0, 1, 0) of the public report against it.
//
// Rows: record = summary (one per case), entry (one per Jacobian entry) and, for cue_to_target,
// iteration (one per descent step).
#pragma once

#include <string>
#include <vector>

#include "experiments/experiment.h"

namespace arena {

class GradientTruthExperiment final : public Experiment {
 public:
  std::string name() const override { return "gradient_truth"; }
  std::string paper() const override { return "issue 23 (closed-form contact; Zhong et al., L4DC 2023)"; }
  std::string description() const override {
    return "gradient_truth: each model's trajectory gradient and end state against closed forms (two balls, a "
           "bounce, a sliding box, two discs) over timesteps, and gradient descent to a known optimum";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  std::vector<std::string> plots() const override { return {"gradient_truth"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;
};

}  // namespace arena
