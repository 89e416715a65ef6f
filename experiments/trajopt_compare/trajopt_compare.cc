#include "experiments/trajopt_compare/trajopt_compare.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/common/error.h"
#include "core/common/strings.h"
#include "experiments/common/settings/settings.h"
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

// The config's keys (the axes, one value per problem of the per-problem lists, the methods'
// settings) and a case's parameters (its problem and method and that method's settings).
struct TrajoptSettings {
  std::vector<std::string> problems, methods;
  std::vector<double> thresholds, max_rollouts_per_problem, time_budgets_s;
  std::string problem, method, gradient;
  std::int64_t steps = 0;
  double threshold = 0.0;
  std::int64_t max_rollouts = 0;
  double time_budget_s = 0.0;
  std::optional<std::int64_t> cem_population, cem_elites;
  std::optional<double> cem_initial_std;
  std::optional<std::int64_t> ms_shot_steps, ms_inner_iterations;
  std::optional<double> ms_initial_penalty;

  template <class V>
  void VisitFields(V&& v) {
    constexpr SettingRole kConfig = SettingRole::kConfig, kList = SettingRole::kConfigList;
    constexpr SettingRole kCase = SettingRole::kCase, kSome = SettingRole::kConfigAndSomeCases;
    v("problems", problems, "the problems (experiments/trajopt_compare/trajopt_tasks.h)", "", std::nullopt, kConfig);
    v("methods", methods, "the methods", "", std::nullopt, kConfig);
    v("thresholds", thresholds, "per problem: the loss at which a trajectory counts as found", "", Positive(), kList);
    v("max_rollouts", max_rollouts_per_problem, "per problem: the rollout budget", "", Closed(1.0, kMaxRollouts), kList);
    v("time_budgets_s", time_budgets_s, "per problem: the wall-clock budget (0: none)", "s",
      Closed(0.0, kMaxTimeBudget), kList);
    v("problem", problem, "cartpole, double_cartpole or catapult (experiments/trajopt_compare/trajopt_tasks.h)", "",
      std::nullopt, kCase);
    v("method", method, "lbfgs (single shooting), multiple_shooting (augmented Lagrangian over segment knots) or cem "
      "(cross-entropy stochastic search)", "", std::nullopt, kCase);
    v("gradient", gradient, "where the gradient came from: analytical, finite_differences (of the model's own step), "
      "or none (cem)", "", std::nullopt, kCase);
    v("steps", steps, "T: controls u_0..u_{T-1} per actuator are the decision variables", "", std::nullopt, kCase);
    v("threshold", threshold, "the loss at which a trajectory counts as found", "", Positive(), kCase);
    v("max_rollouts", max_rollouts, "forward rollout budget", "", Closed(1.0, kMaxRollouts), kCase);
    v("time_budget_s", time_budget_s, "wall-clock budget (0: none; the rollout budget alone stops the run)", "s",
      Closed(0.0, kMaxTimeBudget), kCase);
    v("cem_population", cem_population, "cem: samples per iteration (empty for the others)", "",
      Closed(2, kMaxPopulation), kSome);
    v("cem_elites", cem_elites, "cem: the lowest-loss samples the Gaussian is refitted to", "",
      Closed(1, kMaxPopulation), kSome);
    v("cem_initial_std", cem_initial_std, "cem: initial std of every control, as a fraction of its limit", "",
      Positive(), kSome);
    v("ms_shot_steps", ms_shot_steps,
      "multiple_shooting: steps per segment (shot); segments = ceil(steps / ms_shot_steps)", "",
      Closed(1, kMaxStepsPerCase), kSome);
    v("ms_inner_iterations", ms_inner_iterations, "multiple_shooting: L-BFGS iterations per multiplier update", "",
      Closed(1, kMaxIterationsPerCase), kSome);
    v("ms_initial_penalty", ms_initial_penalty, "multiple_shooting: the defects' initial penalty weight rho", "",
      Positive(), kSome);
  }

  CemOptions cem() const {
    CemOptions o;
    o.population = static_cast<int>(*cem_population);
    o.elites = static_cast<int>(*cem_elites);
    o.initial_std = *cem_initial_std;
    return o;
  }
  // Segments of ms_shot_steps over `horizon` steps.
  MultipleShootingOptions multiple_shooting(int horizon) const {
    MultipleShootingOptions o;
    const int shot_steps = static_cast<int>(*ms_shot_steps);
    o.segments = (horizon + shot_steps - 1) / shot_steps;
    o.inner_iterations = static_cast<int>(*ms_inner_iterations);
    o.initial_penalty = *ms_initial_penalty;
    return o;
  }
  // A case of `m` keeps only that method's settings.
  void KeepSettingsOf(const std::string& m) {
    if (m != "cem") cem_population.reset(), cem_elites.reset(), cem_initial_std.reset();
    if (m != "multiple_shooting") ms_shot_steps.reset(), ms_inner_iterations.reset(), ms_initial_penalty.reset();
  }
};

// Each per-problem list needs one value per problem.
void CheckPerProblem(const ProfileConfig& config, const std::string& key, const std::vector<double>& values,
                     size_t problems) {
  if (values.size() != problems) {
    throw InvalidArgument(config.file() + ": key " + key + " needs one value per entry of problems (" +
                          std::to_string(problems) + "), got " + std::to_string(values.size()));
  }
}

// The CSV's stop reasons: the optimisers' own, with evaluations counted as rollouts.
std::string StopText(OptimizerStop stop) {
  return stop == OptimizerStop::kMaxEvaluations ? "max_rollouts" : std::string(ToString(stop));
}

}  // namespace

std::vector<Column> TrajoptCompareExperiment::columns() const {
  std::vector<Column> columns = ParamColumns<TrajoptSettings>();
  const std::vector<Column> rows = {
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
  columns.insert(columns.end(), rows.begin(), rows.end());
  return columns;
}

Sweep TrajoptCompareExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const auto settings = ReadSettings<TrajoptSettings>(config);
  const std::vector<std::string>& problems = settings.problems;
  const std::vector<std::string>& methods = settings.methods;
  CheckPerProblem(config, "thresholds", settings.thresholds, problems.size());
  CheckPerProblem(config, "max_rollouts", settings.max_rollouts_per_problem, problems.size());
  CheckPerProblem(config, "time_budgets_s", settings.time_budgets_s, problems.size());
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
  // The ranges are every multiple-shooting setting's validity; cem's also needs elites <= population.
  if (std::string why = settings.cem().Validate(); !why.empty()) {
    throw InvalidArgument(config.file() + ": key cem_" + why);
  }

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
          TrajoptSettings one = settings;
          one.problem = problems[i];
          one.method = m;
          one.gradient = UsesGradients(m) ? std::string(ToString(caps.derivatives)) : "none";
          one.steps = task.steps;
          one.threshold = settings.thresholds[i];
          one.max_rollouts = static_cast<std::int64_t>(settings.max_rollouts_per_problem[i]);
          one.time_budget_s = settings.time_budgets_s[i];
          one.KeepSettingsOf(m);
          c.params = CaseParams(one);
          c.seed = DeriveSeed(name(), c.id);
          sweep.cases.push_back(std::move(c));
        }
      }
    }
  }
  return sweep;
}

std::vector<Row> TrajoptCompareExperiment::Run(const Case& c) const {
  const auto settings = DecodeSettings<TrajoptSettings>(c);
  const TrajoptTask task = MakeTrajoptTask(settings.problem);
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, task.scene, c.model_options);
  OptimizerBudget budget;
  budget.threshold = settings.threshold;
  budget.max_evaluations = settings.max_rollouts;
  budget.time_budget_s = settings.time_budget_s;
  ShootingObjective objective(*sim, task.start, task.steps, task.loss);
  const VecX zero = VecX::Zero(objective.dimension());
  OptimizerTrace trace;
  if (settings.method == "lbfgs") {
    trace = MinimizeLbfgs(objective, zero, budget);
  } else if (settings.method == "multiple_shooting") {
    trace = MinimizeMultipleShooting(*sim, task.start, task.steps, task.loss, zero, settings.multiple_shooting(task.steps), budget);
  } else {
    trace = MinimizeCrossEntropy(objective, zero, settings.cem(), budget, c.seed);
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
  o.reached = cell.Bool(last, "reached");
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
