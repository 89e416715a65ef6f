// solver_compare (issue 18; no paper): every model with every solver setting it offers, on the
// problems of the contact-solver comparison of Le Lidec et al. (T-RO 2024, Sec. VI; our
// experiments/solver_compare/solver_compare_problems.h): a cube resting and sliding, a ball rolling, a tower of
// boxes, a cube on a slope just below its friction threshold, Atlas standing. Per (problem,
// model, solver setting, timestep) one rollout: the time per step, solver iterations and
// failures, the physical criteria of contact (models/contact_criteria.h: Signorini, Coulomb,
// maximum dissipation; energy made) and the problem's closed-form outcome error.
//
// A solver setting is a comma-separated list of model options ("lcp_solver=pgs,pgs_max_sweeps=10"),
// listed per model under [profile.solvers] (a model not listed runs its defaults once), so one
// setting is one point of the figure: criteria against time per step, a Pareto front per model.
#pragma once

#include <string>
#include <vector>

#include "core/common/options.h"
#include "experiments/experiment.h"

namespace arena {

class SolverCompareExperiment final : public Experiment {
 public:
  std::string name() const override { return "solver_compare"; }
  std::string paper() const override { return "issue 18 (after Le Lidec et al., T-RO 2024, Sec. VI)"; }
  std::string description() const override {
    return "every model x every solver setting on simple contact problems: time per step against the physical "
           "criteria of contact (Signorini, Coulomb, maximum dissipation, energy)";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  bool serial() const override { return true; }  // time per step is a column
  std::vector<std::string> plots() const override { return {"solver_compare", "solver_compare_dt"}; }
  OutcomeLimits outcome_limits() const override;
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;

  /// "lcp_solver=pgs,pgs_max_sweeps=10" -> its options; "default" or "" -> none. Throws
  /// InvalidArgument naming `where` for an entry that is not key=value or a key given twice.
  static OptionMap ParseSetting(const std::string& setting, const std::string& where);
};

}  // namespace arena
