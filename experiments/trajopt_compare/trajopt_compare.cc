#include "experiments/trajopt_compare/trajopt_compare.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/common/error.h"
#include "core/common/strings.h"
#include "experiments/common/settings/case_params.h"
#include "experiments/common/sweeps/model_sweep.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "experiments/common/summaries/table_stats.h"
#include "experiments/trajopt_compare/trajopt_tasks.h"
#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "models/registry.h"
#include "solvers/cross_entropy.h"
#include "solvers/first_order_optimizers.h"
#include "trajectory/multiple_shooting.h"
#include "trajectory/shooting_objective.h"

namespace arena {

namespace {

// Gradient-based methods need the model's derivatives (analytical or differences of its step);
// cem needs only rollouts.
const std::vector<std::string> kMethods = {"lbfgs", "multiple_shooting", "cem"};

bool UsesGradients(const std::string& method) { return method != "cem"; }

// Ranges of the config keys beyond the shared limits (experiments/common/sweeps/sweep_limits.h).
constexpr double kMaxRollouts = 1e9;       // a rollout budget that fits any counter
constexpr double kMaxTimeBudget = 1e6;     // s
constexpr std::int64_t kMaxPopulation = 10'000;  // cem samples per iteration

// One value per problem: `key` must have as many entries as `problems`, each in `range`.
std::vector<double> PerProblem(const ProfileConfig& config, const std::string& key, size_t problems,
                               const NumberRange& range) {
  const std::vector<double> values = config.Doubles(key, range);
  if (values.size() != problems) {
    throw InvalidArgument(config.file() + ": key " + key + " needs one value per entry of problems (" +
                          std::to_string(problems) + "), got " + std::to_string(values.size()));
  }
  return values;
}

// The CSV's stop reasons: the optimisers' own, with evaluations counted as rollouts.
std::string StopText(OptimizerStop stop) {
  return stop == OptimizerStop::kMaxEvaluations ? "max_rollouts" : std::string(ToString(stop));
}

}  // namespace

std::vector<Column> TrajoptCompareExperiment::columns() const {
  return {
      {"problem", "cartpole, double_cartpole or catapult (experiments/trajopt_compare/trajopt_tasks.h)", false, ColumnType::kText},
      {"method", "lbfgs (single shooting), multiple_shooting (augmented Lagrangian over segment knots) or cem "
                 "(cross-entropy stochastic search)", false, ColumnType::kText},
      {"gradient", "where the gradient came from: analytical, finite_differences (of the model's own step), or "
                   "none (cem)", false, ColumnType::kText},
      {"steps", "T: controls u_0..u_{T-1} per actuator are the decision variables"},
      {"threshold", "the loss at which a trajectory counts as found"},
      {"max_rollouts", "forward rollout budget"},
      {"time_budget_s", "wall-clock budget (0: none; the rollout budget alone stops the run)"},
      {"cem_population", "cem: samples per iteration (empty for the others)"},
      {"cem_elites", "cem: the lowest-loss samples the Gaussian is refitted to"},
      {"cem_initial_std", "cem: initial std of every control, as a fraction of its limit"},
      {"ms_shot_steps", "multiple_shooting: steps per segment (shot); segments = ceil(steps / ms_shot_steps)"},
      {"ms_inner_iterations", "multiple_shooting: L-BFGS iterations per multiplier update"},
      {"ms_initial_penalty", "multiple_shooting: the defects' initial penalty weight rho"},
      {"iteration", "optimiser iteration; 0 = the zero controls"},
      {"rollouts", "forward rollouts so far (a gradient evaluation is one rollout and one backward pass; "
                   "multiple_shooting also rolls out each iterate's controls from the start to report its loss)"},
      {"backward_passes", "backward passes through the T steps so far (gradient methods only)"},
      {"elapsed_s", "wall-clock time since the optimiser started", true},
      {"loss", "best loss so far of a trajectory rolled out from the start (inf: every rollout so far failed)"},
      {"stop", "last row: threshold, max_rollouts, time_budget, max_iterations, converged (a tolerance of the "
               "optimiser's) or failed", false, ColumnType::kText},
      {"reached", "last row: the loss reached the threshold", false, ColumnType::kBool},
      {"iterations_to_threshold", "last row: the first iteration with loss <= threshold"},
      {"rollouts_to_threshold", "last row: the rollouts it had taken by then"},
      {"time_to_threshold_s", "last row: the wall-clock time it had taken by then", true},
      {"failure", "last row: the optimiser's message when it failed", false, ColumnType::kText},
  };
}

Sweep TrajoptCompareExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const std::vector<std::string> problems = config.SweepStrings("problems");
  const std::vector<std::string> methods = config.SweepStrings("methods");
  const std::vector<double> thresholds = PerProblem(config, "thresholds", problems.size(), NumberRange::Positive());
  const std::vector<double> max_rollouts =
      PerProblem(config, "max_rollouts", problems.size(), NumberRange::Between(1.0, kMaxRollouts));
  const std::vector<double> time_budgets =
      PerProblem(config, "time_budgets_s", problems.size(), NumberRange::Between(0.0, kMaxTimeBudget));
  CemOptions cem;
  cem.population = static_cast<int>(config.Int("cem_population", 2, kMaxPopulation));
  cem.elites = static_cast<int>(config.Int("cem_elites", 1, kMaxPopulation));
  cem.initial_std = config.PositiveFiniteDouble("cem_initial_std");
  MultipleShootingOptions ms;
  const std::int64_t shot_steps = config.Int("ms_shot_steps", 1, kMaxStepsPerCase);
  ms.inner_iterations = static_cast<int>(config.Int("ms_inner_iterations", 1, kMaxIterationsPerCase));
  ms.initial_penalty = config.PositiveFiniteDouble("ms_initial_penalty");
  const std::vector<std::string>& known = TrajoptTaskNames();
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
  if (std::string why = cem.Validate(); !why.empty()) throw InvalidArgument(config.file() + ": key cem_" + why);
  if (std::string why = ms.Validate(); !why.empty()) throw InvalidArgument(config.file() + ": key ms_" + why);

  Sweep sweep;
  for (const std::string& model : models) {
    for (const ModelSetting& setting :
         ExpandModelSweep(config, model, {"timestep"}, "each problem sets its own (experiments/trajopt_compare/trajopt_tasks.h)")) {
      const Capabilities caps = FindModel(model).capabilities_for(setting.options);
      for (size_t i = 0; i < problems.size(); ++i) {
        const TrajoptTask task = MakeTrajoptTask(problems[i]);
        if (std::string why = CheckSupport(caps, *task.scene); !why.empty()) {
          sweep.notes.push_back(model + ": skipped " + problems[i] + " (" + why + ")");
          continue;
        }
        for (const std::string& m : methods) {
          if (UsesGradients(m) && !caps.has_derivatives()) {
            sweep.notes.push_back(model + ": skipped " + m + " (no step derivatives)");
            continue;
          }
          Case c;
          c.index = static_cast<int>(sweep.cases.size());
          c.model = model;
          c.id = model + "/" + problems[i] + "/" + m +
                 setting.IdSuffix();
          c.model_options = setting.options;
          c.model_options["timestep"] = options_detail::FormatDouble(task.timestep);
          c.params = {{"problem", problems[i]},
                      {"method", m},
                      {"gradient", UsesGradients(m) ? std::string(ToString(caps.derivatives)) : "none"},
                      {"steps", static_cast<std::int64_t>(task.steps)},
                      {"threshold", thresholds[i]},
                      {"max_rollouts", static_cast<std::int64_t>(max_rollouts[i])},
                      {"time_budget_s", time_budgets[i]}};
          if (m == "cem") {
            c.params.push_back({"cem_population", static_cast<std::int64_t>(cem.population)});
            c.params.push_back({"cem_elites", static_cast<std::int64_t>(cem.elites)});
            c.params.push_back({"cem_initial_std", cem.initial_std});
          } else if (m == "multiple_shooting") {
            c.params.push_back({"ms_shot_steps", shot_steps});
            c.params.push_back({"ms_inner_iterations", static_cast<std::int64_t>(ms.inner_iterations)});
            c.params.push_back({"ms_initial_penalty", ms.initial_penalty});
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
  const TrajoptTask task = MakeTrajoptTask(ParamText(c, "problem"));
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, task.scene, c.model_options);
  OptimizerBudget budget;
  budget.threshold = ParamNumber(c, "threshold");
  budget.max_evaluations = static_cast<std::int64_t>(ParamNumber(c, "max_rollouts"));
  budget.time_budget_s = ParamNumber(c, "time_budget_s");
  ShootingObjective objective(*sim, task.start, task.steps, task.loss);
  const VecX zero = VecX::Zero(objective.dimension());
  OptimizerTrace trace;
  if (method == "lbfgs") {
    trace = MinimizeLbfgs(objective, zero, budget);
  } else if (method == "multiple_shooting") {
    MultipleShootingOptions ms;
    const int shot_steps = static_cast<int>(ParamNumber(c, "ms_shot_steps"));
    ms.segments = (task.steps + shot_steps - 1) / shot_steps;
    ms.inner_iterations = static_cast<int>(ParamNumber(c, "ms_inner_iterations"));
    ms.initial_penalty = ParamNumber(c, "ms_initial_penalty");
    trace = MinimizeMultipleShooting(*sim, task.start, task.steps, task.loss, zero, ms, budget);
  } else {
    CemOptions cem;
    cem.population = static_cast<int>(ParamNumber(c, "cem_population"));
    cem.elites = static_cast<int>(ParamNumber(c, "cem_elites"));
    cem.initial_std = ParamNumber(c, "cem_initial_std");
    trace = MinimizeCrossEntropy(objective, zero, cem, budget, c.seed);
  }

  std::vector<Row> rows;
  const OptimizerIteration* first_reached = nullptr;
  for (const OptimizerIteration& it : trace.iterations) {
    Row row;
    row["iteration"] = it.iteration;
    row["rollouts"] = it.evaluations;
    row["backward_passes"] = it.gradient_evaluations;
    row["elapsed_s"] = it.elapsed_s;
    row["loss"] = it.loss;
    rows.push_back(std::move(row));
    if (first_reached == nullptr && it.loss <= budget.threshold) first_reached = &it;
  }
  if (rows.empty()) rows.emplace_back();
  Row& last = rows.back();
  if (trace.iterations.empty() && trace.stop != OptimizerStop::kFailed) {
    trace.stop = OptimizerStop::kFailed;
    trace.message = "the optimiser ran no rollout";
  }
  last["stop"] = StopText(trace.stop);
  last["reached"] = first_reached != nullptr;
  if (first_reached != nullptr) {
    last["iterations_to_threshold"] = first_reached->iteration;
    last["rollouts_to_threshold"] = first_reached->evaluations;
    last["time_to_threshold_s"] = first_reached->elapsed_s;
  }
  if (trace.stop == OptimizerStop::kFailed) last["failure"] = trace.message;
  return rows;
}

namespace {

// The gradient method seed 002 used on each problem: multiple shooting on the catapult, DDP on
// the cartpoles (not written here: single-shooting L-BFGS stands in for it).
std::string PapersGradientMethod(const std::string& problem) {
  return problem == "catapult" ? "multiple_shooting" : "lbfgs";
}

// A method's time to the threshold, or (not reached) the time it ran; from its last row.
struct Outcome {
  bool found = false;    // the case ran
  bool reached = false;
  double time_s = 0.0;
  double loss = 0.0;     // best loss
};
Outcome OutcomeOf(const ResultTable& cell) {
  Outcome o;
  if (cell.num_rows() == 0) return o;
  const int last = cell.num_rows() - 1;
  if (cell.Text(last, "elapsed_s").empty()) return o;
  o.found = true;
  o.reached = cell.Text(last, "reached") == "true";
  o.time_s = o.reached ? cell.Number(last, "time_to_threshold_s") : cell.Number(last, "elapsed_s");
  o.loss = cell.Number(last, "loss");
  return o;
}

std::string Describe(const std::string& method, const Outcome& o) {
  return method + " " + (o.reached ? FormatShort(o.time_s) + " s" : "not reached in " + FormatShort(o.time_s) + " s");
}

}  // namespace

// Per problem: did nimble's gradient method (the one the paper used there) reach the threshold
// first? ours counts the problems where it did ("2 of 3"); the note gives each time and the
// SS / gradient time ratio, an SS run that never reached the threshold counting with the time it
// ran (its budget). A single number (the smallest ratio) would compare a stalled gradient run's
// time with SS's budget.
std::vector<ClaimResult> TrajoptCompareExperiment::Summarize(const ResultTable& table) const {
  const ResultTable nimble = table.Filter("model", "nimble");
  ClaimResult r{"trajopt_compare.gradient_faster"};
  int compared = 0, faster = 0;
  std::vector<std::string> parts;
  for (const std::string& problem : nimble.Distinct("problem")) {
    const ResultTable p = nimble.Filter("problem", problem);
    const std::string method = PapersGradientMethod(problem);
    const Outcome grad = OutcomeOf(p.Filter("method", method));
    const Outcome ss = OutcomeOf(p.Filter("method", "cem"));
    if (!grad.found || !ss.found) continue;
    ++compared;
    faster += grad.reached && (!ss.reached || grad.time_s < ss.time_s);
    parts.push_back(problem + ": " + Describe(method, grad) + ", " + Describe("cem", ss) +
                    (ss.reached ? "" : " (counted as its budget)") + ", ratio " + FormatShort(ss.time_s / grad.time_s));
  }
  if (compared == 0) return {};
  r.ours_text = "faster on " + std::to_string(faster) + " of " + std::to_string(compared) + " problems";
  r.ours = faster;
  r.values["compared"] = compared;
  std::string note = "time to threshold (the paper's gradient method per problem; lbfgs stands in for DDP); ";
  for (size_t i = 0; i < parts.size(); ++i) note += (i > 0 ? "; " : "") + parts[i];
  r.note = note;
  return {r};
}

// Every model and method: its time to the threshold, or the best loss it reached.
std::vector<Observation> TrajoptCompareExperiment::Observe(const ResultTable& table) const {
  std::vector<Observation> out;
  for (const std::string& model : table.Distinct("model")) {
    const ResultTable m = table.Filter("model", model);
    for (const std::string& problem : m.Distinct("problem")) {
      const ResultTable p = m.Filter("problem", problem);
      for (const std::string& method : p.Distinct("method")) {
        const ResultTable cell = p.Filter("method", method);
        const Outcome o = OutcomeOf(cell);
        if (!o.found) continue;
        const std::string gradient = cell.Text(0, "gradient");
        const std::string where = problem + ", " + method + (gradient == "none" ? "" : " (" + gradient + " gradient)");
        if (o.reached) {
          out.push_back({"time_to_threshold", model, o.time_s, "s", where});
        } else {
          out.push_back({"best_loss_not_reached", model, o.loss, "", where + ", after " + FormatShort(o.time_s) + " s"});
        }
      }
    }
  }
  return out;
}

}  // namespace arena
