#include "experiments/ablations/ablations.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "core/common/error.h"
#include "experiments/common/settings/settings.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "experiments/common/summaries/table_stats.h"
#include "experiments/rod_tasks/rod_task.h"
#include "models/option_ranges.h"
#include "models/registry.h"

namespace arena {

namespace {

// longrange's mu range, (0, 1] (models/longrange/longrange_simulator.h).
constexpr Range kLongrangeMu = Closed(std::numeric_limits<double>::min(), 1.0);

// The config's keys and a case's parameters (its columns are listed in columns(), in the CSV's order).
struct AblationsSettings {
  double horizon_s = 0.0, window_s = 0.0;
  double smoothness_mu = 0.0, smoothness_timestep_s = 0.0;
  double timestep_mu = 0.0;
  std::vector<double> timesteps_s;
  double mu_timestep_s = 0.0;
  std::vector<double> mus;
  std::string study, variant;
  double timestep_s = 0.0;
  std::int64_t steps = 0, window = 0;
  RodRunParams run;
  std::optional<double> mu;

  template <class V>
  void VisitFields(V&& v) {
    constexpr SettingRole kConfig = SettingRole::kConfig, kCase = SettingRole::kCase;
    // Seed 004 App. A.6: "a larger timestep results in fewer frames for the same horizon length":
    // the run and its windows are lengths of simulated time, in frames of each run's dt.
    v("horizon_s", horizon_s, "the run's simulated time", "s", Positive(1e4), kConfig);
    v("window_s", window_s, "each window's simulated time", "s", Positive(1e3), kConfig);
    run.VisitFields(v);
    v("smoothness_mu", smoothness_mu, "smoothness study: longrange's mu", "", kLongrangeMu, kConfig);
    v("smoothness_timestep_s", smoothness_timestep_s, "smoothness study: dt", "s", kTimestepRange, kConfig);
    v("timestep_mu", timestep_mu, "timestep study: longrange's mu", "", kLongrangeMu, kConfig);
    v("timesteps_s", timesteps_s, "timestep study: the dts", "s", kTimestepRange, kConfig);
    v("mu_timestep_s", mu_timestep_s, "mu study: dt", "s", kTimestepRange, kConfig);
    v("mus", mus, "mu study: longrange's mus", "", kLongrangeMu, kConfig);
    v("study", study, "smoothness, timestep or mu", "", std::nullopt, kCase);
    v("variant", variant, "the run's setting within its study", "", std::nullopt, kCase);
    v("timestep_s", timestep_s, "dt", "s", kTimestepRange, kCase);
    v("steps", steps, "H: real steps at most", "", std::nullopt, kCase);
    v("window", window, "h: frames optimised at each real step", "", std::nullopt, kCase);
    v("mu", mu, "longrange's contact coefficient (empty for ipc)", "", kLongrangeMu, kCase);
  }
};

// One run of the sweep: which study, the model and its options.
struct Variant {
  std::string study, label, model;
  double dt = 0.0;
  OptionMap options;
};

std::vector<Variant> Variants(const AblationsSettings& s, const std::vector<std::string>& models) {
  auto text = [](double x) { return options_detail::FormatDouble(x); };
  const bool longrange = std::find(models.begin(), models.end(), "longrange") != models.end();
  const bool ipc = std::find(models.begin(), models.end(), "ipc") != models.end();
  std::vector<Variant> out;
  if (longrange) {
    out.push_back({"smoothness", "longrange", "longrange", s.smoothness_timestep_s, {{"mu", text(s.smoothness_mu)}}});
  }
  if (ipc) out.push_back({"smoothness", "ipc_global_barrier", "ipc", s.smoothness_timestep_s, {{"barrier", "global"}}});
  if (!longrange) return out;
  for (double dt : s.timesteps_s) out.push_back({"timestep", "dt=" + text(dt), "longrange", dt, {{"mu", text(s.timestep_mu)}}});
  for (double m : s.mus) out.push_back({"mu", "mu=" + text(m), "longrange", s.mu_timestep_s, {{"mu", text(m)}}});
  return out;
}

}  // namespace

std::vector<Column> AblationsExperiment::columns() const {
  std::vector<Column> columns = {
      {"study", "smoothness, timestep or mu", false, ColumnType::kText},
      {"variant", "the run's setting within its study", false, ColumnType::kText},
      {"timestep_s", "dt"},
      {"mu", "longrange's contact coefficient (empty for ipc)"},
      {"time_to_converge_s", "last step row: reached_at_s, or the horizon H dt when the cube never got there"},
  };
  for (Column& c : RodTaskColumns()) columns.push_back(std::move(c));
  return columns;
}

Sweep AblationsExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const auto settings = ReadSettings<AblationsSettings>(config);
  Sweep sweep;
  for (const std::string& m : models) {
    if (m != "longrange" && m != "ipc") sweep.notes.push_back(m + ": skipped (the ablations are of longrange and ipc)");
  }
  for (const Variant& v : Variants(settings, models)) {
    const auto frames = [&](double length) { return std::max<std::int64_t>(1, std::llround(length / v.dt)); };
    AblationsSettings one = settings;
    one.study = v.study;
    one.variant = v.label;
    one.timestep_s = v.dt;
    one.steps = frames(settings.horizon_s);
    one.window = frames(settings.window_s);
    if (static_cast<double>(one.steps) * static_cast<double>(one.window) * static_cast<double>(settings.run.iterations) >
        1e10) {
      throw InvalidArgument(config.file() + ": horizon_s / dt x window_s / dt x iterations is beyond any budget");
    }
    Case c;
    c.index = static_cast<int>(sweep.cases.size());
    c.model = v.model;
    c.id = v.study + "/" + v.label;
    c.model_options = config.ModelOptions(v.model);
    for (const auto& [k, value] : v.options) c.model_options[k] = value;
    c.model_options["timestep"] = options_detail::FormatDouble(v.dt);
    if (v.model == "longrange") one.mu = std::stod(c.model_options.at("mu"));
    c.params = CaseParams(one);
    c.seed = DeriveSeed(name(), c.id);
    sweep.cases.push_back(std::move(c));
  }
  return sweep;
}

std::vector<Row> AblationsExperiment::Run(const Case& c) const {
  const auto s = DecodeSettings<AblationsSettings>(c);
  const RodTask task = MakeRodTask("push", s.run.target_tolerance_m);
  const RodRunSettings settings = s.run.run(s.steps, s.window, std::nullopt);
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, task.scene, c.model_options);
  std::vector<Row> rows = RunRodTask(*sim, task, settings);
  for (Row& r : rows) {
    if (r.count("reached") == 0) continue;  // the last step row
    const bool reached = std::get<bool>(r.at("reached"));
    r["time_to_converge_s"] = reached ? std::get<double>(r.at("reached_at_s")) : settings.steps * sim->timestep();
  }
  return rows;
}

namespace {

// A run's time to converge, whether it got there, and its value of its study's column.
struct Convergence {
  double x = std::numeric_limits<double>::quiet_NaN();
  double time_s = 0.0;
  bool reached = false;
};

// The runs of `study` by variant, `column` their setting in it.
std::map<std::string, Convergence> Times(const ResultTable& table, const std::string& study, const std::string& column) {
  std::map<std::string, Convergence> out;
  const ResultTable rows = table.Filter("study", study).Filter("record", "step");
  for (int i = 0; i < rows.num_rows(); ++i) {
    if (rows.Text(i, "time_to_converge_s").empty()) continue;
    out[rows.Text(i, "variant")] = {rows.Number(i, column), rows.Number(i, "time_to_converge_s"), rows.Bool(i, "reached")};
  }
  return out;
}

// The run whose setting is `x`, or nullptr.
const Convergence* At(const std::map<std::string, Convergence>& runs, double x) {
  for (const auto& [variant, run] : runs) {
    if (run.x == x) return &run;
  }
  return nullptr;
}

// ours = a / b, unless neither converged: then the ratio of two horizons says nothing.
void SetRatio(const Convergence& a, const Convergence& b, ClaimResult* r) {
  if (a.reached || b.reached) {
    r->ours = a.time_s / b.time_s;
  } else {
    r->ours_text = "neither run converged within its horizon";
  }
}

std::string Describe(const std::map<std::string, Convergence>& times) {
  std::string out;
  for (const auto& [variant, t] : times) {
    out += (out.empty() ? "" : ", ") + variant + " " + FormatShort(t.time_s) + " s" + (t.reached ? "" : " (not reached)");
  }
  return out;
}

}  // namespace

std::vector<ClaimResult> AblationsExperiment::Summarize(const ResultTable& table) const {
  std::vector<ClaimResult> out;
  const auto smooth = Times(table, "smoothness", "timestep_s");
  if (smooth.count("longrange") && smooth.count("ipc_global_barrier")) {
    ClaimResult r{"ablations.smoothness_speedup"};
    SetRatio(smooth.at("ipc_global_barrier"), smooth.at("longrange"), &r);
    r.note = "simulated time to converge on push: " + Describe(smooth);
    out.push_back(r);
  }
  const auto dt = Times(table, "timestep", "timestep_s");
  if (At(dt, 0.01) && At(dt, 0.08)) {
    ClaimResult r{"ablations.timestep_trend"};
    SetRatio(*At(dt, 0.01), *At(dt, 0.08), &r);
    r.note = "simulated time to converge at mu 1e-7: " + Describe(dt);
    out.push_back(r);
  }
  const auto mu = Times(table, "mu", "mu");
  if (At(mu, 1e-10) && mu.size() > 1) {
    Convergence fastest{.time_s = std::numeric_limits<double>::infinity()};
    for (const auto& [variant, t] : mu) {
      if (t.x != 1e-10 && t.time_s < fastest.time_s) fastest = t;
    }
    ClaimResult r{"ablations.mu_trend"};
    SetRatio(*At(mu, 1e-10), fastest, &r);
    r.note = "simulated time to converge at dt 0.04 s: " + Describe(mu);
    out.push_back(r);
  }
  return out;
}

}  // namespace arena
