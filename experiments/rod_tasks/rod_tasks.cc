#include "experiments/rod_tasks/rod_tasks.h"

#include <limits>
#include <memory>

#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "core/common/error.h"
#include "experiments/common/settings/bundle_config.h"
#include "experiments/common/settings/settings.h"
#include "experiments/common/sweeps/model_sweep.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "experiments/common/summaries/table_stats.h"
#include "experiments/rod_tasks/rod_task.h"
#include "models/option_ranges.h"
#include "models/registry.h"

namespace arena {

std::string RodTaskExperiment::paper() const {
  return task_ == "push" ? "seed 004 (long-range contact) Fig. 7, App. A.6" : "seed 004 (long-range contact) Fig. 8, App. A.6";
}

std::string RodTaskExperiment::description() const {
  if (task_ == "push") return "push: receding-horizon control of a rod that must go around a cube to push it to a target";
  if (task_ == "gather") return "gather: a rod pushes ten scattered cubes into one disc (receding horizon)";
  return "sort: a rod pushes ten cubes into two discs by label (receding horizon)";
}

std::vector<std::string> RodTaskExperiment::plots() const {
  return {task_ == "push" ? "longrange_fig7_push" : "longrange_fig8_" + task_};
}

namespace {

// The config's keys and a case's parameters (its columns are listed in columns(), in the CSV's order).
struct RodTasksSettings {
  std::string method;
  BundleSettings bundle;
  double timestep_s = 0.0;
  std::int64_t steps = 0;
  std::int64_t window = 0;
  RodRunParams run;

  template <class V>
  void VisitFields(V&& v) {
    v("method", method, "gradient or bundle", "", std::nullopt, SettingRole::kCase);
    v("timestep_s", timestep_s, "dt", "s", kTimestepRange);
    v("steps", steps, "H: real steps at most", "", Closed(1, kMaxStepsPerCase));
    v("window", window, "h: frames optimised at each real step", "", Closed(1, kMaxStepsPerCase));
    run.VisitFields(v);
    bundle.VisitFields(v);
  }
};

}  // namespace

std::vector<Column> RodTaskExperiment::columns() const {
  std::vector<Column> columns = {
      {"method", "gradient (the model's own derivatives) or bundle (the gradient bundle around the model)", false,
       ColumnType::kText},
      {"bundle_samples", "bundle: samples per gradient"},
      {"bundle_sigma", "bundle: std of the control perturbations"},
      {"bundle_order", "bundle: first_order or zeroth_order", false, ColumnType::kText},
      {"timestep_s", "dt"},
  };
  for (Column& c : RodTaskColumns()) columns.push_back(std::move(c));
  return columns;
}

Sweep RodTaskExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const auto settings = ReadSettings<RodTasksSettings>(config);
  if (static_cast<double>(settings.steps) * static_cast<double>(settings.window) *
          static_cast<double>(settings.run.iterations) > 1e10) {
    throw InvalidArgument(config.file() + ": steps x window x iterations is beyond any budget");
  }
  settings.bundle.Check(config);
  const RodTask task = MakeRodTask(task_, settings.run.target_tolerance_m);
  Sweep sweep;
  for (const std::string& model : models) {
    for (const ModelSetting& setting : ExpandModelSweep(config, model, {"timestep"}, "set timestep_s instead")) {
      const Capabilities caps = FindModel(model).capabilities_for(setting.options);
      if (std::string why = CheckGradientSupport(caps, *task.scene); !why.empty()) {
        sweep.notes.push_back(model + ": skipped (" + why + ")");
        continue;
      }
      for (const std::string& method : settings.bundle.MethodsFor(model)) {
        Case c;
        c.index = static_cast<int>(sweep.cases.size());
        c.model = model;
        c.id = model + (method == "bundle" ? "/bundle" : "") +
               setting.IdSuffix();
        c.model_options = setting.options;
        c.model_options["timestep"] = options_detail::FormatDouble(settings.timestep_s);
        RodTasksSettings one = settings;
        one.method = method;
        one.bundle.KeepFor(method);
        c.params = CaseParams(one);
        c.seed = DeriveSeed(name(), c.id);
        sweep.cases.push_back(std::move(c));
      }
    }
  }
  return sweep;
}

std::vector<Row> RodTaskExperiment::Run(const Case& c) const {
  const auto settings = DecodeSettings<RodTasksSettings>(c);
  const RodTask task = MakeRodTask(task_, settings.run.target_tolerance_m);
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, task.scene, c.model_options);
  return RunRodTask(*sim, task, settings.run.run(settings.steps, settings.window, settings.bundle.options(c.seed)));
}

namespace {

// A model's last step row (empty table if it has none with a result).
ResultTable LastStep(const ResultTable& model_rows) {
  const ResultTable steps = model_rows.Filter("record", "step");
  if (steps.num_rows() == 0 || steps.Text(steps.num_rows() - 1, "reached").empty()) return ResultTable();
  return ResultTable(steps.columns(), {steps.cells().back()});
}

// Each run's rows by its label: the model, with " (bundle)" for the bundle around it.
std::vector<std::pair<std::string, ResultTable>> Runs(const ResultTable& table) {
  std::vector<std::pair<std::string, ResultTable>> out;
  for (const std::string& model : table.Distinct("model")) {
    const ResultTable m = table.Filter("model", model);
    for (const std::string& method : m.Distinct("method")) {
      out.emplace_back(method == "bundle" ? model + " (bundle)" : model, m.Filter("method", method));
    }
  }
  return out;
}

std::string Describe(const ResultTable& last) {
  std::string text = last.Bool(0, "reached") ? "done at " + last.Text(0, "reached_at_s") + " s"
                                                      : "not done after " + last.Text(0, "time_s") + " s";
  text += ", at most " + last.Text(0, "max_cubes_at_target") + " cubes at their targets, closest mean distance " +
          FormatShort(last.Number(0, "min_mean_distance_m")) + " m";
  if (!last.Text(0, "went_around").empty()) {
    text += last.Bool(0, "went_around") ? ", the rod went around" : ", the rod never got behind the cube";
  }
  return text;
}

}  // namespace

// push and sort: ours = 1 if longrange finished the task (every cube at its target), the others
// counted; gather: the most cubes longrange had at the target, against the most of any other.
std::vector<ClaimResult> RodTaskExperiment::Summarize(const ResultTable& table) const {
  const ResultTable ours = LastStep(table.Filter("model", "longrange").Filter("method", "gradient"));
  if (ours.num_rows() == 0) return {};
  const bool gather = task_ == "gather";
  ClaimResult r{task_ == "push" ? "push.goes_around" : task_ + ".longrange_only"};
  r.ours = gather ? ours.Number(0, "max_cubes_at_target") : (ours.Bool(0, "reached") ? 1.0 : 0.0);
  double others = 0.0;
  std::string note = "longrange: " + Describe(ours);
  for (const auto& [label, rows] : Runs(table)) {
    if (label == "longrange") continue;
    const ResultTable last = LastStep(rows);
    if (last.num_rows() == 0) continue;
    others = gather ? std::max(others, last.Number(0, "max_cubes_at_target"))
                    : others + (last.Bool(0, "reached") ? 1.0 : 0.0);
    note += "; " + label + ": " + Describe(last);
  }
  r.values[task_ == "push" ? "other_models_reached" : gather ? "other_models_max_gathered" : "other_models_sorted"] =
      others;
  const ResultTable params = table.Filter("model", "longrange");
  r.note = note + " (windows of " + params.Text(0, "window") + " frames, " + params.Text(0, "iterations") +
           " Adam iterations each)";
  return {r};
}

std::vector<Observation> RodTaskExperiment::Observe(const ResultTable& table) const {
  std::vector<Observation> out;
  for (const auto& [label, rows] : Runs(table)) {
    const ResultTable last = LastStep(rows);
    if (last.num_rows() == 0) continue;
    out.push_back({"min_mean_distance", label, last.Number(0, "min_mean_distance_m"), "m", Describe(last)});
  }
  return out;
}

}  // namespace arena
