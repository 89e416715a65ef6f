#include "experiments/solve_time/solve_time.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/common/error.h"
#include "core/common/random.h"
#include "experiments/common/settings/settings.h"
#include "experiments/common/sweeps/model_sweep.h"
#include "experiments/common/meters/outcome_checks.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "experiments/common/summaries/table_stats.h"
#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "models/registry.h"
#include "scenes/silico_scenes.h"

namespace arena {

namespace {
constexpr double kSolveTimeTimestep = 0.01;
// What a run may not do, whatever its steps reported (experiments/common/meters/outcome_checks.h): sink
// 1 m (the square's side) into the floor, gain more energy than lifting the square 1 m, leave
// 100 m of the origin, or never come within 5 cm of the floor once a free fall from its start
// would have reached it (at most 1.01 s of the 2 s). A solver that stops at its starting point
// would otherwise time as the fastest of all.
constexpr OutcomeLimits kSolveTimeLimits{.max_penetration_m = 1.0,
                                .max_energy_gain_height_m = 1.0,
                                .escape_radius_m = 100.0,
                                .reach_distance_m = 0.05};
const std::vector<std::string> kToleranceSets = {"paper", "matched"};

// The config's keys and a case's parameters.
struct SolveTimeSettings {
  std::int64_t initial_conditions = 0;
  std::vector<std::string> tolerance_sets;
  std::string tolerances;
  std::int64_t ic = 0;
  std::int64_t steps = 0;

  template <class V>
  void VisitFields(V&& v) {
    v("initial_conditions", initial_conditions, "initial conditions", "", std::nullopt, SettingRole::kConfigCount);
    v("tolerance_sets", tolerance_sets, "paper and/or matched", "", std::nullopt, SettingRole::kConfig);
    v("tolerances", tolerances, "tolerance set: paper (each model as the authors timed it) or matched", "",
      std::nullopt, SettingRole::kCase);
    v("ic", ic, "initial condition index", "", std::nullopt, SettingRole::kCase);
    v("steps", steps, "steps simulated", "", Closed(1, kMaxStepsPerCase));
  }
};
}  // namespace

State SolveTimeExperiment::InitialState(std::uint64_t seed) {
  Rng rng(seed);
  const std::shared_ptr<const Scene> scene = FallingSquareScene();
  State s = DefaultState(*scene);
  const double y = Uniform(rng, 1.0, 3.0);
  const double theta = Uniform(rng, -3.0, 3.0);
  const Vec2 v_W(Uniform(rng, -2.0, 2.0), Uniform(rng, -2.0, 2.0));
  const double omega = Uniform(rng, -2.0, 2.0);
  s.q << 0.0, y, theta;
  s.v << omega, Eigen::Rotation2Dd(-theta) * v_W;
  return s;
}

OptionMap SolveTimeExperiment::ToleranceOptions(const std::string& model, const std::string& set) {
  OptionMap o{{"timestep", options_detail::FormatDouble(kSolveTimeTimestep)}};
  if (model == "silico") {
    o["rho"] = "1e-4";
    o["residual_tolerance"] = "1e-5";
  } else if (model == "bilevel") {
    o["jacobian"] = "chain_rule";
    o["compressed"] = "false";
    if (set == "paper") {
      o["rho"] = "1e-5";
      o["residual_tolerance"] = "1e-6";
      o["primal_regularization"] = "1e-6";
      o["dual_regularization"] = "1e-8";
      o["inner_rho"] = "1e-5";
      o["inner_residual_tolerance"] = "1e-4";
    } else {
      o["rho"] = "1e-4";
      o["residual_tolerance"] = "1e-5";
      o["primal_regularization"] = "1e-6";
      o["dual_regularization"] = "1e-8";
      o["inner_rho"] = "1e-4";
      o["inner_residual_tolerance"] = "1e-5";
    }
  }
  return o;
}

std::vector<Column> SolveTimeExperiment::columns() const {
  std::vector<Column> columns = ParamColumns<SolveTimeSettings>();
  const std::vector<Column> rows = {
      {"failed_steps", "steps whose solver did not converge (the rollout continues)"},
      {"failure", "why the rollout failed: it stopped early (non-finite state), ran no step, or its outcome is "
                  "impossible (the square went through the floor, gained energy, escaped or never came down)", false, ColumnType::kText},
      {"mean_iterations", "mean solver iterations per step"},
      {"mean_solve_time_s", "mean wall time of a step's solve (StepReport::solve_time_s: the model's own solver; the "
                            "whole step for a model that does not separate it)", true},
      {"median_solve_time_s", "median wall time of a step's solve", true},
      {"p90_solve_time_s", "90th percentile of a step's solve time", true},
      {"total_solve_time_s", "sum of the steps' solve times", true},
  };
  columns.insert(columns.end(), rows.begin(), rows.end());
  return columns;
}

Sweep SolveTimeExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const auto settings = ReadSettings<SolveTimeSettings>(config);
  const std::int64_t n_ic = settings.initial_conditions;
  const std::vector<std::string>& sets = settings.tolerance_sets;
  for (const std::string& set : sets) {
    if (std::find(kToleranceSets.begin(), kToleranceSets.end(), set) == kToleranceSets.end()) {
      throw InvalidArgument(config.file() + ": tolerance_sets: unknown set '" + set + "'; valid: paper, matched");
    }
  }
  Sweep sweep;
  const std::shared_ptr<const Scene> scene = FallingSquareScene();
  std::vector<std::string> runnable;
  for (const std::string& model : models) {
    const std::string why = CheckSupport(FindModel(model).capabilities, *scene);
    if (!why.empty()) {
      sweep.notes.push_back(model + ": skipped (" + why + ")");
      continue;
    }
    runnable.push_back(model);
  }
  double per_ic = 0.0;
  for (const std::string& model : runnable) {
    per_ic += static_cast<double>(ExpandModelSweep(config, model, {"timestep", "rho", "residual_tolerance", "inner_rho",
                                                                    "inner_residual_tolerance"},
                                                   "the tolerance sets fix them")
                                      .size());
  }
  CheckSweepSize(config, name(),
                 {{"initial_conditions", static_cast<double>(n_ic)},
                  {"tolerance_sets", static_cast<double>(sets.size())},
                  {"runnable (model, swept option value)", per_ic}});
  // Interleave the models: the timings of one initial condition are taken back to back.
  for (std::int64_t ic = 0; ic < n_ic; ++ic) {
    for (const std::string& set : sets) {
      for (const std::string& model : runnable) {
        const std::vector<ModelSetting> model_settings = ExpandModelSweep(
            config, model, {"timestep", "rho", "residual_tolerance", "inner_rho", "inner_residual_tolerance"},
            "the tolerance sets fix them");
        for (const ModelSetting& setting : model_settings) {
          Case c;
          c.index = static_cast<int>(sweep.cases.size());
          c.model = model;
          c.id = model + "/" + set + "/ic=" + std::to_string(ic) +
                 setting.IdSuffix();
          c.model_options = setting.options;
          for (const auto& [k, v] : ToleranceOptions(model, set)) c.model_options[k] = v;
          SolveTimeSettings one = settings;
          one.tolerances = set;
          one.ic = ic;
          c.params = CaseParams(one);
          c.seed = DeriveSeed(name(), "ic=" + std::to_string(ic));
          sweep.cases.push_back(std::move(c));
        }
      }
    }
  }
  return sweep;
}

OutcomeLimits SolveTimeExperiment::outcome_limits() const { return kSolveTimeLimits; }

std::vector<Row> SolveTimeExperiment::Run(const Case& c) const {
  const std::shared_ptr<const Scene> scene = FallingSquareScene();
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, scene, c.model_options);
  State state = InitialState(c.seed);
  const int steps = static_cast<int>(DecodeSettings<SolveTimeSettings>(c).steps);
  std::vector<double> times;
  times.reserve(steps);
  double sum_iterations = 0.0;
  std::int64_t failed = 0;
  std::string failure;
  if (steps < 1) failure = "no step ran: steps = " + std::to_string(steps);
  OutcomeMonitor outcome(*scene, state, kSolveTimeLimits);
  for (int k = 0; k < steps; ++k) {
    const StepReport r = sim->Step(state, Control{});
    times.push_back(r.solve_or_wall_time_s());
    sum_iterations += r.iterations;
    if (r.status == StepStatus::kNotConverged) ++failed;
    if (r.ends_run()) {
      failure = std::string(ToString(r.status)) + " at step " + std::to_string(k) + ": " + r.message;
      break;
    }
    if (std::string why = outcome.Observe(state); !why.empty()) {
      failure = "at step " + std::to_string(k) + ": " + why;
      break;
    }
  }
  if (failure.empty()) failure = outcome.Finish();
  Row row;
  const double n = static_cast<double>(times.size());
  double total = 0.0;
  for (double t : times) total += t;
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  auto quantile = [&](double q) {
    return sorted.empty() ? 0.0 : sorted[std::min(sorted.size() - 1, static_cast<size_t>(q * sorted.size()))];
  };
  row["steps"] = static_cast<std::int64_t>(times.size());
  row["failed_steps"] = failed;
  row["failure"] = failure;
  row["mean_iterations"] = n > 0 ? sum_iterations / n : 0.0;
  row["mean_solve_time_s"] = n > 0 ? total / n : 0.0;
  row["median_solve_time_s"] = quantile(0.5);
  row["p90_solve_time_s"] = quantile(0.9);
  row["total_solve_time_s"] = total;
  return {row};
}

std::vector<ClaimResult> SolveTimeExperiment::Summarize(const ResultTable& table) const {
  std::vector<ClaimResult> out;
  for (const auto& [set, id] : {std::pair<std::string, std::string>{"paper", "solve_time.ratio"},
                                {"matched", "solve_time.ratio_matched"}}) {
    const ResultTable t = table.Filter("tolerances", set);
    const ResultTable s = t.Filter("model", "silico"), b = t.Filter("model", "bilevel");
    if (s.num_rows() == 0 || b.num_rows() == 0) continue;
    // Mean over all steps = total time / total steps.
    auto mean_step = [](const ResultTable& x) {
      double total = 0.0, steps = 0.0;
      for (int i = 0; i < x.num_rows(); ++i) {
        total += x.Number(i, "total_solve_time_s");
        steps += x.Number(i, "steps");
      }
      return total / std::max(steps, 1.0);
    };
    const double ts = mean_step(s), tb = mean_step(b);
    ClaimResult r{id};
    r.ours = tb / ts;
    r.note = "mean step solve time: bilevel " + options_detail::FormatDouble(tb * 1e6) + " us, silico " +
             options_detail::FormatDouble(ts * 1e6) + " us (" + std::to_string(s.num_rows()) +
             " rollouts each, one thread); mean iterations bilevel " +
             options_detail::FormatDouble(Mean(b, "mean_iterations")) + ", silico " +
             options_detail::FormatDouble(Mean(s, "mean_iterations"));
    out.push_back(r);
  }
  return out;
}

}  // namespace arena
