#include "experiments/ablations/ablations.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "core/common/error.h"
#include "experiments/common/settings/adam_config.h"
#include "experiments/common/settings/case_params.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "experiments/common/summaries/table_stats.h"
#include "experiments/rod_tasks/rod_task.h"
#include "models/option_ranges.h"
#include "models/registry.h"

namespace arena {

namespace {

// One run of the sweep: which study, the model and its options.
struct Variant {
  std::string study, label, model;
  double dt = 0.0;
  OptionMap options;
};

std::vector<Variant> Variants(const ProfileConfig& config, const std::vector<std::string>& models) {
  // longrange's mu range, (0, 1] (models/longrange/longrange_simulator.h).
  const NumberRange mu_range = NumberRange::Between(std::numeric_limits<double>::min(), 1.0);
  auto mu = [&](const std::string& key) { return config.Double(key, mu_range); };
  const NumberRange dt_range = NumberRange::Between(kTimestepRange.lo, kTimestepRange.hi);
  const double smooth_mu = mu("smoothness_mu"), smooth_dt = config.Double("smoothness_timestep_s", dt_range);
  const double timestep_mu = mu("timestep_mu");
  const std::vector<double> timesteps = config.SweepDoubles("timesteps_s", dt_range);
  const double mu_dt = config.Double("mu_timestep_s", dt_range);
  const std::vector<double> mus = config.SweepDoubles("mus", mu_range);
  auto text = [](double x) { return options_detail::FormatDouble(x); };
  const bool longrange = std::find(models.begin(), models.end(), "longrange") != models.end();
  const bool ipc = std::find(models.begin(), models.end(), "ipc") != models.end();
  std::vector<Variant> out;
  if (longrange) out.push_back({"smoothness", "longrange", "longrange", smooth_dt, {{"mu", text(smooth_mu)}}});
  if (ipc) out.push_back({"smoothness", "ipc_global_barrier", "ipc", smooth_dt, {{"barrier", "global"}}});
  if (!longrange) return out;
  for (double dt : timesteps) out.push_back({"timestep", "dt=" + text(dt), "longrange", dt, {{"mu", text(timestep_mu)}}});
  for (double m : mus) out.push_back({"mu", "mu=" + text(m), "longrange", mu_dt, {{"mu", text(m)}}});
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
  // Seed 004 App. A.6: "a larger timestep results in fewer frames for the same horizon length":
  // the run and its windows are lengths of simulated time, in frames of each run's dt.
  const double horizon = config.Double("horizon_s", NumberRange::Positive(1e4));
  const double window_length = config.Double("window_s", NumberRange::Positive(1e3));
  const std::int64_t iterations = config.Int("iterations", 1, kMaxIterationsPerCase);
  const AdamOptions adam = ReadAdamOptions(config);
  const double tolerance = config.Double("target_tolerance_m", NumberRange::Positive(100.0));
  Sweep sweep;
  for (const std::string& m : models) {
    if (m != "longrange" && m != "ipc") sweep.notes.push_back(m + ": skipped (the ablations are of longrange and ipc)");
  }
  for (const Variant& v : Variants(config, models)) {
    const auto frames = [&](double length) { return std::max<std::int64_t>(1, std::llround(length / v.dt)); };
    const std::int64_t steps = frames(horizon), window = frames(window_length);
    if (static_cast<double>(steps) * static_cast<double>(window) * static_cast<double>(iterations) > 1e10) {
      throw InvalidArgument(config.file() + ": horizon_s / dt x window_s / dt x iterations is beyond any budget");
    }
    Case c;
    c.index = static_cast<int>(sweep.cases.size());
    c.model = v.model;
    c.id = v.study + "/" + v.label;
    c.model_options = config.ModelOptions(v.model);
    for (const auto& [k, value] : v.options) c.model_options[k] = value;
    c.model_options["timestep"] = options_detail::FormatDouble(v.dt);
    c.params = {{"study", v.study}, {"variant", v.label}, {"timestep_s", v.dt}, {"steps", steps}, {"window", window},
                {"iterations", iterations}, {"learning_rate", adam.learning_rate}, {"adam_beta1", adam.beta1},
                {"adam_beta2", adam.beta2}, {"target_tolerance_m", tolerance}};
    if (v.model == "longrange") c.params.push_back({"mu", std::stod(c.model_options.at("mu"))});
    c.seed = DeriveSeed(name(), c.id);
    sweep.cases.push_back(std::move(c));
  }
  return sweep;
}

std::vector<Row> AblationsExperiment::Run(const Case& c) const {
  const RodTask task = MakeRodTask("push", ParamNumber(c, "target_tolerance_m"));
  const RodRunSettings settings = RodRunSettingsOf(c);
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

// The time to converge of each variant of `study` (variant -> s, and whether it got there).
std::map<std::string, std::pair<double, bool>> Times(const ResultTable& table, const std::string& study) {
  std::map<std::string, std::pair<double, bool>> out;
  const ResultTable rows = table.Filter("study", study).Filter("record", "step");
  for (int i = 0; i < rows.num_rows(); ++i) {
    if (rows.Text(i, "time_to_converge_s").empty()) continue;
    out[rows.Text(i, "variant")] = {rows.Number(i, "time_to_converge_s"), rows.Text(i, "reached") == "true"};
  }
  return out;
}

// ours = a / b, unless neither converged: then the ratio of two horizons says nothing.
void SetRatio(const std::pair<double, bool>& a, const std::pair<double, bool>& b, ClaimResult* r) {
  if (a.second || b.second) {
    r->ours = a.first / b.first;
  } else {
    r->ours_text = "neither run converged within its horizon";
  }
}

std::string Describe(const std::map<std::string, std::pair<double, bool>>& times) {
  std::string out;
  for (const auto& [variant, t] : times) {
    out += (out.empty() ? "" : ", ") + variant + " " + FormatShort(t.first) + " s" + (t.second ? "" : " (not reached)");
  }
  return out;
}

}  // namespace

std::vector<ClaimResult> AblationsExperiment::Summarize(const ResultTable& table) const {
  std::vector<ClaimResult> out;
  const auto smooth = Times(table, "smoothness");
  if (smooth.count("longrange") && smooth.count("ipc_global_barrier")) {
    ClaimResult r{"ablations.smoothness_speedup"};
    SetRatio(smooth.at("ipc_global_barrier"), smooth.at("longrange"), &r);
    r.note = "simulated time to converge on push: " + Describe(smooth);
    out.push_back(r);
  }
  const auto dt = Times(table, "timestep");
  if (dt.count("dt=0.01") && dt.count("dt=0.08")) {
    ClaimResult r{"ablations.timestep_trend"};
    SetRatio(dt.at("dt=0.01"), dt.at("dt=0.08"), &r);
    r.note = "simulated time to converge at mu 1e-7: " + Describe(dt);
    out.push_back(r);
  }
  const auto mu = Times(table, "mu");
  if (mu.count("mu=1e-10") && mu.size() > 1) {
    std::pair<double, bool> fastest{std::numeric_limits<double>::infinity(), false};
    for (const auto& [variant, t] : mu) {
      if (variant != "mu=1e-10" && t.first < fastest.first) fastest = t;
    }
    ClaimResult r{"ablations.mu_trend"};
    SetRatio(mu.at("mu=1e-10"), fastest, &r);
    r.note = "simulated time to converge at dt 0.04 s: " + Describe(mu);
    out.push_back(r);
  }
  return out;
}

}  // namespace arena
