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
#include "experiments/common/meters/resting_gaps.h"
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
  std::vector<double> stack_mass_ratios;
  double duration_s = 0.0;
  double settle_s = 0.0;
  std::string problem, solver;
  double timestep_s = 0.0;
  std::int64_t settle_steps = 0, steps = 0;
  double mass_ratio = 0.0;
  double rest_gap_m = 0.0;
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
    v("stack_mass_ratios", stack_mass_ratios, "mass_ratio_stack: the heavy / light mass ratios it runs", "",
      Closed(1.0, 1e12), kConfig);
    v("duration_s", duration_s, "simulated time of every run after its settling", "s", Positive(), kConfig);
    v("settle_s", settle_s, "simulated time every run first settles under plain gravity, before its launch", "s",
      Positive(10.0));
    v("problem", problem, "the problem (experiments/solver_compare/solver_compare_problems.h)", "", std::nullopt, kCase);
    v("solver", solver, "the solver setting: model options, comma-separated (default: the model's defaults)", "",
      std::nullopt, kCase);
    v("timestep_s", timestep_s, "step length", "s", Positive(1.0), kCase);
    v("settle_steps", settle_steps, "settling steps: settle_s / timestep_s", "", std::nullopt, kCase);
    v("steps", steps, "steps asked for after the settling: duration_s / timestep_s", "", std::nullopt, kCase);
    v("mass_ratio", mass_ratio, "mass_ratio_stack: heavy / light mass (0 for the other problems)", "", std::nullopt,
      kCase);
    v("rest_gap_m", rest_gap_m,
      "mass_ratio_stack: the gap the model's cubes rest at (a barrier model's resting gap; 0: contact at touch)", "m",
      std::nullopt, kCase);
    v("clearance_m", clearance_m,
      "start height of the bodies above what they rest on; a barrier model starts at its own resting gap instead",
      "m", Closed(0.0, 0.1));
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
    p.mass_ratio = mass_ratio;
    p.rest_gap_m = rest_gap_m;
    return p;
  }
};

double MedianOf(std::vector<double> x) {
  if (x.empty()) return std::nan("");
  const size_t mid = x.size() / 2;
  std::nth_element(x.begin(), x.begin() + mid, x.end());
  return x[mid];
}

// The problems a model runs: those of problems_of.<model> that are in `problems` when the config
// names them (so that --set problems=[...] narrows every model's list), else all of them. A name
// that is no problem at all is an error.
std::vector<std::string> ProblemsOf(const ProfileConfig& config, const std::string& model,
                                    const std::vector<std::string>& problems) {
  const std::string key = "problems_of." + model;
  if (!config.Has(key)) return problems;
  std::vector<std::string> out;
  const std::vector<std::string>& valid = ContactProblemNames();
  for (const std::string& p : config.SweepStrings(key)) {
    if (std::find(valid.begin(), valid.end(), p) == valid.end()) {
      throw InvalidArgument(config.file() + " [" + config.profile() + "]: " + key + ": unknown problem '" + p +
                            "'; valid: " + Join(valid));
    }
    if (std::find(problems.begin(), problems.end(), p) != problems.end()) out.push_back(p);
  }
  return out;
}

// The gap `model`'s contact rests at under the heaviest body of `scene` (ModelInfo::stacking_gap
// of the barrier models, which refuse touching meshes; 0 for contact at touch).
double RestGap(const std::string& model, const OptionMap& options, const Scene& scene) {
  double heaviest = 0.0;
  for (const BodyModel& b : scene.model.bodies()) heaviest = std::max(heaviest, b.inertia.mass());
  return std::min(StackStartGap(model, options, heaviest * scene.model.gravity().norm()), 0.1);
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
      {"step_time_s", "median wall time of one step (settling and launched)", true},
      {"penetration_m", "largest penetration between two colliders over the checked states (our geometry, every "
                        "model alike; 50 states of the settling and 50 of the launched run)"},
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
  const bool stack = std::find(problems.begin(), problems.end(), "mass_ratio_stack") != problems.end();
  ContactProblemParams params = base.problem_params();
  if (stack) params.mass_ratio = base.stack_mass_ratios.front();  // the skip check's scene (the list has >= 1)
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
        const std::vector<double> ratios = problem == "mass_ratio_stack" ? base.stack_mass_ratios : std::vector<double>{0.0};
        for (const double ratio : ratios) {
          for (const double dt : timesteps) {
            SolverCompareSettings one = base;
            one.problem = problem;
            one.solver = setting;
            one.timestep_s = dt;
            one.mass_ratio = ratio;
            // A barrier model starts at its own resting gap (from 1 mm, inside its reach, sdrs's
            // barrier threw the cube up first), the others at the config's clearance.
            if (problem != "atlas_stand") {
              ContactProblemParams at = params;
              at.mass_ratio = ratio;
              const double gap = RestGap(model, options, *ContactProblemSettleScene(problem, at));
              if (gap > 0.0) one.clearance_m = gap;
              if (problem == "mass_ratio_stack") one.rest_gap_m = gap;
            }
            one.settle_steps = CheckedSteps(config, "settle_s", base.settle_s, "timesteps_s", 1.0 / dt);
            one.steps = CheckedSteps(config, "duration_s", base.duration_s, "timesteps_s", 1.0 / dt);
            const std::string what = ratio > 0.0 ? problem + "(r=" + options_detail::FormatDouble(ratio) + ")" : problem;
            Case c;
            c.index = static_cast<int>(sweep.cases.size());
            c.model = model;
            c.id = model + "/" + what + "/" + setting + "/dt=" + options_detail::FormatDouble(dt);
            c.model_options = options;
            c.model_options["timestep"] = options_detail::FormatDouble(dt);
            c.params = CaseParams(one);
            c.seed = DeriveSeed(name(), c.id);
            sweep.cases.push_back(std::move(c));
          }
        }
      }
    }
  }
  return sweep;
}

OutcomeLimits SolverCompareExperiment::outcome_limits() const { return kSolverCompareLimits; }

namespace {

// One run's steps, over its settling and its launched part.
struct RunRecord {
  StepTally tally;
  std::vector<double> times;
  double contacts = 0.0;
  int k = 0;  // steps taken, both parts
};

// Steps `sim` `steps` times from `state`; the outcome is checked every `stride` steps and at the
// end, the criteria (when given) after every step. Returns false when the run ended early.
bool StepPart(Simulator& sim, int steps, int stride, State& state, OutcomeMonitor& outcome, CriteriaTally* criteria,
              RunRecord& run) {
  for (int i = 0; i < steps; ++i, ++run.k) {
    const StepReport r = sim.Step(state, Control{});
    run.tally.Record(run.k, r);
    run.times.push_back(r.wall_time_s);
    run.contacts += r.contacts;
    if (r.ends_run() || run.tally.stop) return false;
    if (criteria) criteria->Record(sim, state);
    if ((i + 1) % stride == 0 || i + 1 == steps) {
      if (std::string why = outcome.Observe(state); !why.empty()) {
        run.tally.Fail("step " + std::to_string(run.k) + ": " + why, true);
        return false;
      }
    }
  }
  return true;
}

}  // namespace

// Settle, then launch (solver_compare_problems.h): the settling steps count as the run's steps
// (a model that blows the stack up while it settles fails the run), the criteria and the
// closed-form outcome are those of the launched part.
std::vector<Row> SolverCompareExperiment::Run(const Case& c) const {
  const auto settings = DecodeSettings<SolverCompareSettings>(c);
  const std::string& problem = settings.problem;
  const ContactProblemParams params = settings.problem_params();
  const std::shared_ptr<const Scene> settle_scene = ContactProblemSettleScene(problem, params);
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, settle_scene, c.model_options);
  const int settle_steps = static_cast<int>(settings.settle_steps), steps = static_cast<int>(settings.steps);
  State state = DefaultState(*settle_scene);
  RunRecord run;
  run.times.reserve(settle_steps + steps);
  OutcomeMonitor settling(*settle_scene, state, kSolverCompareLimits);
  bool going = StepPart(*sim, settle_steps, std::max(1, settle_steps / kOutcomeChecks), state, settling, nullptr, run);

  std::shared_ptr<const Scene> scene = settle_scene;
  if (going && ContactProblemLaunchesInAnotherField(problem)) {
    scene = ContactProblemScene(problem, params);
    sim = MakeSimulator(c.model, scene, c.model_options);
  }
  const State start = ContactProblemLaunch(problem, state, params);
  state = start;
  CriteriaTally criteria(*scene, start);
  OutcomeMonitor outcome(*scene, start, kSolverCompareLimits);
  if (going) going = StepPart(*sim, steps, std::max(1, steps / kOutcomeChecks), state, outcome, &criteria, run);

  Row row;
  run.tally.WriteTo(&row);
  criteria.WriteTo(&row);
  row["mean_contacts"] = run.tally.attempted > 0 ? run.contacts / run.tally.attempted : 0.0;
  row["step_time_s"] = MedianOf(run.times);
  row["penetration_m"] = std::max(settling.max_penetration_m(), outcome.max_penetration_m());
  if (going) row["outcome_error_m"] = ContactProblemOutcomeError(problem, *scene, start, state, steps * sim->timestep(), params);
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
