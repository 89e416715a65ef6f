#include "experiments/trajopt_compare.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/common/error.h"
#include "core/common/strings.h"
#include "experiments/case_params.h"
#include "experiments/model_sweep.h"
#include "experiments/shooting_problem.h"
#include "experiments/table_stats.h"
#include "experiments/trajopt_methods.h"
#include "harness/config.h"
#include "harness/result_table.h"
#include "models/nimble/nimble.h"
#include "models/registry.h"

namespace arena {

namespace {

const std::vector<std::string> kMethods = {"lbfgs", "cem"};

// One value per problem: `key` must have as many entries as `problems`.
std::vector<double> PerProblem(const ProfileConfig& config, const std::string& key, size_t problems) {
  const std::vector<double> values = config.Doubles(key);
  if (values.size() != problems) {
    throw InvalidArgument(config.file() + ": key " + key + " needs one value per entry of problems (" +
                          std::to_string(problems) + "), got " + std::to_string(values.size()));
  }
  return values;
}

}  // namespace

std::vector<Column> TrajoptCompareExperiment::columns() const {
  return {
      {"problem", "cartpole, double_cartpole or catapult (experiments/shooting_problem.h)"},
      {"method", "lbfgs (single shooting on nimble's gradient) or cem (cross-entropy stochastic search)"},
      {"steps", "T: controls u_0..u_{T-1} per actuator are the decision variables"},
      {"threshold", "the loss at which a trajectory counts as found"},
      {"max_rollouts", "forward rollout budget"},
      {"time_budget_s", "wall-clock budget (0: none; the rollout budget alone stops the run)"},
      {"cem_population", "cem: samples per iteration (empty for lbfgs)"},
      {"cem_elites", "cem: the lowest-loss samples the Gaussian is refitted to"},
      {"cem_initial_std", "cem: initial std of every control, as a fraction of its limit"},
      {"iteration", "optimiser iteration; 0 = the zero controls"},
      {"rollouts", "forward rollouts so far (a gradient evaluation is one rollout and one backward pass)"},
      {"backward_passes", "backward passes through the T steps so far (lbfgs only)"},
      {"elapsed_s", "wall-clock time since the optimiser started", true},
      {"loss", "best loss so far (inf: every rollout so far failed)"},
      {"stop", "last row: threshold, max_rollouts, time_budget, converged (Ceres' tolerance) or failed"},
      {"reached", "last row: the loss reached the threshold"},
      {"iterations_to_threshold", "last row: the first iteration with loss <= threshold"},
      {"rollouts_to_threshold", "last row: the rollouts it had taken by then"},
      {"time_to_threshold_s", "last row: the wall-clock time it had taken by then", true},
      {"failure", "last row: the optimiser's message when it failed"},
  };
}

Sweep TrajoptCompareExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const std::vector<std::string> problems = config.Strings("problems");
  const std::vector<std::string> methods = config.Strings("methods");
  const std::vector<double> thresholds = PerProblem(config, "thresholds", problems.size());
  const std::vector<double> max_rollouts = PerProblem(config, "max_rollouts", problems.size());
  const std::vector<double> time_budgets = PerProblem(config, "time_budgets_s", problems.size());
  const std::int64_t population = config.Int("cem_population");
  const std::int64_t elites = config.Int("cem_elites");
  const double initial_std = config.Double("cem_initial_std");
  const std::vector<std::string>& known = ShootingTaskNames();
  for (const std::string& p : problems) {
    if (std::find(known.begin(), known.end(), p) == known.end()) {
      throw InvalidArgument(config.file() + ": key problems: unknown problem '" + p + "'; valid: " + Join(known));
    }
  }
  for (const std::string& m : methods) {
    if (std::find(kMethods.begin(), kMethods.end(), m) == kMethods.end()) {
      throw InvalidArgument(config.file() + ": key methods: unknown method '" + m + "'; valid: " + Join(kMethods));
    }
  }
  for (size_t i = 0; i < problems.size(); ++i) {
    if (!(thresholds[i] > 0.0)) throw InvalidArgument(config.file() + ": key thresholds: entries must be > 0");
    if (!(max_rollouts[i] >= 1.0)) throw InvalidArgument(config.file() + ": key max_rollouts: entries must be >= 1");
    if (!(time_budgets[i] >= 0.0)) throw InvalidArgument(config.file() + ": key time_budgets_s: entries must be >= 0");
  }
  if (population < 2) throw InvalidArgument(config.file() + ": key cem_population must be >= 2");
  if (elites < 1 || elites > population) {
    throw InvalidArgument(config.file() + ": key cem_elites must be in [1, cem_population]");
  }
  if (!(initial_std > 0.0)) throw InvalidArgument(config.file() + ": key cem_initial_std must be > 0");

  Sweep sweep;
  for (const std::string& model : models) {
    // The gradient is nimble's Backprop.
    if (model != "nimble") {
      sweep.notes.push_back(model + ": skipped (the gradient method uses nimble's backward pass)");
      continue;
    }
    for (const ModelSetting& setting :
         ExpandModelSweep(config, model, {"timestep"}, "each problem sets its own (experiments/shooting_problem.h)")) {
      for (size_t i = 0; i < problems.size(); ++i) {
        const ShootingTask task = MakeShootingTask(problems[i]);
        for (const std::string& m : methods) {
          Case c;
          c.index = static_cast<int>(sweep.cases.size());
          c.model = model;
          c.id = model + "/" + problems[i] + "/" + m +
                 (setting.param_name.empty() ? "" : "/" + setting.param_name + "=" + setting.param_text);
          c.model_options = setting.options;
          c.model_options["timestep"] = options_detail::FormatDouble(task.timestep);
          c.params = {{"problem", problems[i]},
                      {"method", m},
                      {"steps", static_cast<std::int64_t>(task.steps)},
                      {"threshold", thresholds[i]},
                      {"max_rollouts", static_cast<std::int64_t>(max_rollouts[i])},
                      {"time_budget_s", time_budgets[i]}};
          if (m == "cem") {
            c.params.push_back({"cem_population", population});
            c.params.push_back({"cem_elites", elites});
            c.params.push_back({"cem_initial_std", initial_std});
          }
          c.seed = DeriveSeed(name(), c.id);
          sweep.cases.push_back(std::move(c));
        }
      }
    }
  }
  return sweep;
}

std::vector<Row> TrajoptCompareExperiment::Run(const Case& c) const {
  const std::string method = ParamText(c, "method");
  ShootingTask task = MakeShootingTask(ParamText(c, "problem"));
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, task.scene, c.model_options);
  if (dynamic_cast<NimbleSimulator*>(sim.get()) == nullptr) throw Unsupported(c.model + " has no Backprop");
  ShootingProblem problem(std::move(task), std::unique_ptr<NimbleSimulator>(static_cast<NimbleSimulator*>(sim.release())));
  TrajoptBudget budget;
  budget.threshold = ParamNumber(c, "threshold");
  budget.max_rollouts = static_cast<std::int64_t>(ParamNumber(c, "max_rollouts"));
  budget.time_budget_s = ParamNumber(c, "time_budget_s");
  TrajoptTrace trace;
  if (method == "lbfgs") {
    trace = RunLbfgs(problem, budget);
  } else {
    CemOptions cem;
    cem.population = static_cast<int>(ParamNumber(c, "cem_population"));
    cem.elites = static_cast<int>(ParamNumber(c, "cem_elites"));
    cem.initial_std = ParamNumber(c, "cem_initial_std");
    trace = RunCrossEntropy(problem, cem, budget, c.seed);
  }

  std::vector<Row> rows;
  const TrajoptIteration* first_reached = nullptr;
  for (const TrajoptIteration& it : trace.iterations) {
    Row row;
    row["iteration"] = it.iteration;
    row["rollouts"] = it.rollouts;
    row["backward_passes"] = it.backward_passes;
    row["elapsed_s"] = it.elapsed_s;
    row["loss"] = it.loss;
    rows.push_back(std::move(row));
    if (first_reached == nullptr && it.loss <= budget.threshold) first_reached = &it;
  }
  if (rows.empty()) rows.emplace_back();
  Row& last = rows.back();
  last["stop"] = std::string(ToString(trace.stop));
  last["reached"] = first_reached != nullptr;
  if (first_reached != nullptr) {
    last["iterations_to_threshold"] = first_reached->iteration;
    last["rollouts_to_threshold"] = first_reached->rollouts;
    last["time_to_threshold_s"] = first_reached->elapsed_s;
  }
  if (trace.stop == TrajoptStop::kFailed) last["failure"] = trace.message;
  return rows;
}

// Per problem: did the gradient method reach the threshold first? ours counts the problems where
// it did ("2 of 3"); the note gives each time and the SS / gradient time ratio, an SS run that
// never reached the threshold counting with the time it ran (its budget). A single number (the
// smallest ratio) would compare a stalled gradient run's time with SS's budget.
std::vector<ClaimResult> TrajoptCompareExperiment::Summarize(const ResultTable& table) const {
  const ResultTable nimble = table.Filter("model", "nimble");
  ClaimResult r{"trajopt_compare.gradient_faster"};
  int compared = 0, faster = 0;
  std::vector<std::string> parts;
  for (const std::string& problem : nimble.Distinct("problem")) {
    const ResultTable p = nimble.Filter("problem", problem);
    const ResultTable grad = p.Filter("method", "lbfgs");
    const ResultTable ss = p.Filter("method", "cem");
    if (grad.num_rows() == 0 || ss.num_rows() == 0) continue;
    const int gl = grad.num_rows() - 1, sl = ss.num_rows() - 1;
    if (grad.Text(gl, "elapsed_s").empty() || ss.Text(sl, "elapsed_s").empty()) continue;
    const bool grad_reached = grad.Text(gl, "reached") == "true";
    const bool ss_reached = ss.Text(sl, "reached") == "true";
    const double t_grad = grad_reached ? grad.Number(gl, "time_to_threshold_s") : grad.Number(gl, "elapsed_s");
    const double t_ss = ss_reached ? ss.Number(sl, "time_to_threshold_s") : ss.Number(sl, "elapsed_s");
    ++compared;
    const double ratio = t_ss / t_grad;
    faster += grad_reached && (!ss_reached || t_grad < t_ss);
    parts.push_back(problem + ": lbfgs " + (grad_reached ? FormatShort(t_grad) + " s" : "not reached in " + FormatShort(t_grad) + " s") +
                    ", cem " + (ss_reached ? FormatShort(t_ss) + " s" : "not reached in " + FormatShort(t_ss) + " s (counted as its budget)") +
                    ", ratio " + FormatShort(ratio));
  }
  if (compared == 0) return {};
  r.ours_text = "faster on " + std::to_string(faster) + " of " + std::to_string(compared) + " problems";
  r.ours = faster;
  r.values["compared"] = compared;
  std::string note = "time to threshold; ";
  for (size_t i = 0; i < parts.size(); ++i) note += (i > 0 ? "; " : "") + parts[i];
  r.note = note;
  return {r};
}

}  // namespace arena
