#include "experiments/solver_compare/solver_compare.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <sstream>

#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "core/common/error.h"
#include "core/common/strings.h"
#include "experiments/common/settings/settings.h"
#include "experiments/common/summaries/criteria_tally.h"
#include "experiments/common/meters/outcome_checks.h"
#include "experiments/common/meters/step_tally.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "experiments/common/summaries/table_stats.h"
#include "experiments/solver_compare/solver_compare_problems.h"
#include "models/registry.h"

namespace arena {

namespace {

// A cube is 0.2 m: 0.1 m inside the ground or another cube has gone through it; every problem
// is passive, so its energy may only fall (the margin covers the 1 mm let-down of 1-4 boxes and
// the numerical settling of soft models: 5 cm of the total weight); 100 m from the origin is a
// blow-up.
constexpr OutcomeLimits kSolverCompareLimits{.max_penetration_m = 0.1, .max_energy_gain_height_m = 0.05, .escape_radius_m = 100.0};
// The states the outcome monitor checks with our geometry (Atlas's meshes make each check
// costly): every step's would cost more than the steps of the fast models.
constexpr int kOutcomeChecks = 50;

// The config's keys (besides the per-model tables solvers.<model> and problems_of.<model>) and
// a case's parameters.
struct SolverCompareSettings {
  std::vector<std::string> problems;
  std::vector<double> timesteps_s;
  double duration_s = 0.0;
  std::string problem, solver;
  double timestep_s = 0.0;
  std::int64_t steps = 0;
  double clearance_m = 0.0;
  std::int64_t tower_boxes = 0;
  double slope_over_mu = 0.0;
  double slide_speed = 0.0;

  template <class V>
  void VisitFields(V&& v) {
    constexpr SettingRole kConfig = SettingRole::kConfig, kCase = SettingRole::kCase;
    v("problems", problems, "the problems (experiments/solver_compare/solver_compare_problems.h)", "", std::nullopt,
      kConfig);
    v("timesteps_s", timesteps_s, "the step lengths", "s", Positive(1.0), kConfig);
    v("duration_s", duration_s, "simulated time of every run", "s", Positive(), kConfig);
    v("problem", problem, "cube_rest, cube_slide, ball_roll, tower, tilted_box or atlas_stand", "", std::nullopt, kCase);
    v("solver", solver, "the solver setting: model options, comma-separated (default: the model's defaults)", "",
      std::nullopt, kCase);
    v("timestep_s", timestep_s, "step length", "s", Positive(1.0), kCase);
    v("steps", steps, "steps asked for: duration_s / timestep_s", "", std::nullopt, kCase);
    v("clearance_m", clearance_m, "start height of the bodies above what they rest on", "m", Closed(0.0, 0.1));
    v("tower_boxes", tower_boxes, "boxes of the tower", "", Closed(1, 50));
    v("slope_over_mu", slope_over_mu, "tilted_box: the slope's tangent / mu", "", Closed(0.0, 1.9));
    v("slide_speed", slide_speed, "cube_slide and ball_roll: the start speed (m/s)", "m/s", Positive(10.0));
  }

  ContactProblemParams problem_params() const {
    ContactProblemParams p;
    p.clearance_m = clearance_m;
    p.tower_boxes = static_cast<int>(tower_boxes);
    p.slope_over_mu = slope_over_mu;
    p.slide_speed = slide_speed;
    return p;
  }
};

double MedianOf(std::vector<double> x) {
  if (x.empty()) return std::nan("");
  const size_t mid = x.size() / 2;
  std::nth_element(x.begin(), x.begin() + mid, x.end());
  return x[mid];
}

// The problems a model runs: problems_of.<model> when the config names them (a subset of
// `problems`), else all of them.
std::vector<std::string> ProblemsOf(const ProfileConfig& config, const std::string& model,
                                    const std::vector<std::string>& problems) {
  const std::string key = "problems_of." + model;
  if (!config.Has(key)) return problems;
  std::vector<std::string> out = config.SweepStrings(key);
  for (const std::string& p : out) {
    if (std::find(problems.begin(), problems.end(), p) == problems.end()) {
      throw InvalidArgument(config.file() + " [" + config.profile() + "]: " + key + ": problem '" + p +
                            "' is not in problems (" + Join(problems) + ")");
    }
  }
  return out;
}

// The model's options for one solver setting: the profile's fixed options and --set, then the
// setting's. A key both set is an error: the setting would silently overwrite what was asked.
OptionMap SettingOptions(const ProfileConfig& config, const std::string& model, const std::string& setting) {
  const std::string where = config.file() + " [" + config.profile() + "]: solvers." + model;
  OptionMap options = config.ModelOptions(model);
  if (options.count("timestep")) {
    throw InvalidArgument(config.file() + " [" + config.profile() + "]: option " + model +
                          ".timestep is set by the experiment itself; set timesteps_s instead");
  }
  for (const auto& [key, value] : SolverCompareExperiment::ParseSetting(setting, where)) {
    if (key == "timestep") throw InvalidArgument(where + ": setting '" + setting + "' sets timestep; set timesteps_s instead");
    if (options.count(key)) {
      throw InvalidArgument(where + ": setting '" + setting + "' sets " + key + ", which options." + model +
                            " or --set " + model + "." + key + " also sets; vary it in solvers." + model + " instead");
    }
    options[key] = value;
  }
  return options;
}

// Why `model` cannot simulate `scene` with `options` ("" when it can): its capabilities, then its
// constructor (MuJoCo cannot drive Atlas's free root joint, which only building the model finds).
std::string WhyNot(const ModelInfo& info, const OptionMap& options, const std::shared_ptr<const Scene>& scene) {
  if (std::string why = CheckSupport(info.capabilities_for(options), *scene); !why.empty()) return why;
  try {
    info.make(scene, options);
  } catch (const Unsupported& e) {
    return e.what();
  }
  return "";
}

// The per-model tables (solvers.<model>, problems_of.<model>) name registered models; those of
// models not in this run are read here, so that the runner does not report them as unread keys.
void CheckPerModelTables(const ProfileConfig& config, const std::vector<std::string>& models) {
  const std::vector<std::string> known = ModelNames();
  for (const std::string& key : config.Keys()) {
    for (const std::string table : {"solvers.", "problems_of."}) {
      if (key.rfind(table, 0) != 0) continue;
      const std::string model = key.substr(table.size());
      if (std::find(known.begin(), known.end(), model) == known.end()) {
        throw InvalidArgument(config.file() + " [" + config.profile() + "]: " + key + ": unknown model '" + model +
                              "'; valid: " + Join(known));
      }
      if (std::find(models.begin(), models.end(), model) == models.end()) config.Strings(key);
    }
  }
}

}  // namespace

OptionMap SolverCompareExperiment::ParseSetting(const std::string& setting, const std::string& where) {
  OptionMap out;
  const std::string text = Trim(setting);
  if (text.empty() || text == "default") return out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const size_t eq = item.find('=');
    const std::string key = Trim(item.substr(0, eq));
    if (eq == std::string::npos || key.empty() || Trim(item.substr(eq + 1)).empty()) {
      throw InvalidArgument(where + ": setting '" + setting + "': '" + item + "' is not key=value");
    }
    if (!out.emplace(key, Trim(item.substr(eq + 1))).second) {
      throw InvalidArgument(where + ": setting '" + setting + "' gives " + key + " twice");
    }
  }
  return out;
}

std::vector<Column> SolverCompareExperiment::columns() const {
  std::vector<Column> cols = ParamColumns<SolverCompareSettings>();
  const std::vector<Column> rows = {
      {"steps_done", "steps that succeeded"},
      {"failed_steps", "steps that did not (not converged: the run goes on from the last iterate; else it ends)"},
      {"failed", "a step failed, no step ran, or the outcome is impossible (through the ground, energy made, escaped)",
       false, ColumnType::kBool},
      {"failure", "the first failure", false, ColumnType::kText},
      {"mean_iterations", "mean solver iterations per step"},
      {"mean_contacts", "mean contacts per step (the model's StepReport)"},
      {"step_time_s", "median wall time of one step", true},
      {"penetration_m", "largest penetration between two colliders over the checked states (our geometry, every "
                        "model alike; 50 states of the run)"},
      {"outcome_error_m", "the problem's closed-form outcome error (experiments/solver_compare/solver_compare_problems.h): drift of a "
                          "resting body, error of the sliding or rolling distance; empty when the run ended early"},
  };
  cols.insert(cols.end(), rows.begin(), rows.end());
  const std::vector<Column> criteria = CriteriaTally::Columns();
  cols.insert(cols.end(), criteria.begin(), criteria.end());
  return cols;
}

Sweep SolverCompareExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const auto base = ReadSettings<SolverCompareSettings>(config);
  const std::vector<std::string>& problems = base.problems;
  for (const std::string& p : problems) {
    const std::vector<std::string>& valid = ContactProblemNames();
    if (std::find(valid.begin(), valid.end(), p) == valid.end()) {
      throw InvalidArgument(config.file() + " [" + config.profile() + "]: problems: unknown problem '" + p +
                            "'; valid: " + Join(valid));
    }
  }
  const std::vector<double>& timesteps = base.timesteps_s;
  const ContactProblemParams params = base.problem_params();
  CheckPerModelTables(config, models);
  std::map<std::string, std::vector<std::string>> settings;
  double most_settings = 1.0;
  for (const std::string& model : models) {
    const std::string key = "solvers." + model;
    settings[model] = config.Has(key) ? config.SweepStrings(key) : std::vector<std::string>{"default"};
    most_settings = std::max(most_settings, static_cast<double>(settings[model].size()));
  }
  CheckSweepSize(config, name(),
                 {{"models", static_cast<double>(models.size())},
                  {"problems", static_cast<double>(problems.size())},
                  {"timesteps_s", static_cast<double>(timesteps.size())},
                  {"solver settings (the most of one model)", most_settings}});
  std::map<std::string, std::shared_ptr<const Scene>> scenes;
  for (const std::string& p : problems) scenes[p] = ContactProblemScene(p, params);

  Sweep sweep;
  for (const std::string& model : models) {
    const ModelInfo& info = FindModel(model);
    const std::vector<std::string> own_problems = ProblemsOf(config, model, problems);
    std::map<std::string, std::string> why_not;  // per problem, with the first setting's options
    for (const std::string& setting : settings[model]) {
      const OptionMap options = SettingOptions(config, model, setting);
      info.validate(options);
      for (const std::string& problem : own_problems) {
        if (!why_not.count(problem)) {
          why_not[problem] = WhyNot(info, options, scenes[problem]);
          if (!why_not[problem].empty()) sweep.notes.push_back(model + ": skipped problem " + problem + " (" + why_not[problem] + ")");
        }
        if (!why_not[problem].empty()) continue;
        for (const double dt : timesteps) {
          SolverCompareSettings one = base;
          one.problem = problem;
          one.solver = setting;
          one.timestep_s = dt;
          one.steps = CheckedSteps(config, "duration_s", base.duration_s, "timesteps_s", 1.0 / dt);
          Case c;
          c.index = static_cast<int>(sweep.cases.size());
          c.model = model;
          c.id = model + "/" + problem + "/" + setting + "/dt=" + options_detail::FormatDouble(dt);
          c.model_options = options;
          c.model_options["timestep"] = options_detail::FormatDouble(dt);
          c.params = CaseParams(one);
          c.seed = DeriveSeed(name(), c.id);
          sweep.cases.push_back(std::move(c));
        }
      }
    }
  }
  return sweep;
}

OutcomeLimits SolverCompareExperiment::outcome_limits() const { return kSolverCompareLimits; }

std::vector<Row> SolverCompareExperiment::Run(const Case& c) const {
  const auto settings = DecodeSettings<SolverCompareSettings>(c);
  const std::string& problem = settings.problem;
  const ContactProblemParams params = settings.problem_params();
  const std::shared_ptr<const Scene> scene = ContactProblemScene(problem, params);
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, scene, c.model_options);
  const State start = ContactProblemStart(problem, *scene, params);
  State state = start;
  const int steps = static_cast<int>(settings.steps);
  const int stride = std::max(1, steps / kOutcomeChecks);
  StepTally tally;
  CriteriaTally criteria(*scene, start);
  OutcomeMonitor outcome(*scene, start, kSolverCompareLimits);
  std::vector<double> times;
  times.reserve(steps);
  double contacts = 0.0;
  for (int k = 0; k < steps && !tally.stop; ++k) {
    const StepReport r = sim->Step(state, Control{});
    tally.Record(k, r);
    times.push_back(r.wall_time_s);
    contacts += r.contacts;
    if (r.status != StepStatus::kOk && r.status != StepStatus::kNotConverged) break;
    criteria.Record(*sim, state);
    if ((k + 1) % stride == 0 || k + 1 == steps) {
      if (std::string why = outcome.Observe(state); !why.empty()) tally.Fail("step " + std::to_string(k) + ": " + why, true);
    }
  }
  Row row;
  tally.WriteTo(&row);
  criteria.WriteTo(&row);
  row["mean_contacts"] = tally.attempted > 0 ? contacts / tally.attempted : 0.0;
  row["step_time_s"] = MedianOf(times);
  row["penetration_m"] = outcome.max_penetration_m();
  if (tally.attempted == steps && !tally.stop) {
    row["outcome_error_m"] = ContactProblemOutcomeError(problem, *scene, start, state, steps * sim->timestep(), params);
  }
  return {row};
}

// No paper claims: the experiment is the project's own comparison (issue 18). Its figure is the
// result; the report lists per model what the observations below summarise.
std::vector<ClaimResult> SolverCompareExperiment::Summarize(const ResultTable& table) const {
  (void)table;
  return {};
}

std::vector<Observation> SolverCompareExperiment::Observe(const ResultTable& table) const {
  std::vector<Observation> out;
  for (const std::string& model : table.Distinct("model")) {
    const ResultTable m = table.Filter("model", model);
    const std::string where = std::to_string(m.num_rows()) + " runs (problems x solver settings x timesteps), median";
    out.push_back({"failed_fraction", model, Mean(m, "failed"), "", std::to_string(m.num_rows()) + " runs"});
    out.push_back({"outcome_error", model, Median(m, "outcome_error_m"), "m", where});
    for (const char* column : {"coulomb_rel", "dissipation_rel", "signorini_gap_m"}) {
      if (const double x = Median(m, column); !std::isnan(x)) out.push_back({column, model, x, "", where});
    }
  }
  return out;
}

}  // namespace arena
