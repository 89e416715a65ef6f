#include "experiments/chain_cost/chain_cost.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <vector>

#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "core/common/deadline.h"
#include "core/common/error.h"
#include "core/common/stopwatch.h"
#include "experiments/common/settings/settings.h"
#include "experiments/common/meters/collider_distances.h"
#include "experiments/common/summaries/loglog_fit.h"
#include "experiments/common/sweeps/model_sweep.h"
#include "experiments/common/meters/potential_timing.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "experiments/common/summaries/table_stats.h"
#include "models/registry.h"
#include "scenes/rotating_chains_scenes.h"

namespace arena {

// File-local helpers in a named namespace: the unity build may share a unit with other files
// (docs/build.md).
namespace chain_cost_detail {

// The config's keys and a case's parameters.
struct ChainCostSettings {
  std::vector<std::int64_t> links_list;
  std::int64_t steps = 0;
  std::int64_t derivatives_max_links = 0;
  std::int64_t ipc_max_links = 0;
  std::int64_t links = 0;
  std::int64_t dof = 0;
  double timestep_s = 0.0;
  std::int64_t cap_points = 0;
  bool derivatives = false;
  std::int64_t steps_asked = 0;

  template <class V>
  void VisitFields(V&& v) {
    constexpr SettingRole kConfig = SettingRole::kConfig, kCase = SettingRole::kCase;
    v("links", links_list, "links per chain (the axis)", "", std::nullopt, SettingRole::kConfigList);
    v("steps", steps, "steps a case asks for", "", Closed(1, 100'000), kConfig);
    v("derivatives_max_links", derivatives_max_links, "the most links whose steps' derivatives are timed", "",
      Closed(0, 200), kConfig);
    // ipc's step bound (conservative advancement with each mesh's absolute speed bound) costs
    // seconds a step on these swinging chains beyond a few links (README "chain_cost").
    v("ipc_max_links", ipc_max_links, "the most links ipc runs", "", Closed(0, 200), kConfig);
    v("links", links, "links per chain (four chains)", "", std::nullopt, kCase);
    v("dof", dof, "degrees of freedom, 8 links + 13", "", std::nullopt, kCase);
    v("timestep_s", timestep_s, "step length (s)", "s", Closed(1e-4, 0.1));
    v("cap_points", cap_points, "hull points on each cap of a link (2 x this a link)", "", Closed(4, 1000));
    v("derivatives", derivatives, "each step's derivatives were taken and timed (derivatives_max_links)", "",
      std::nullopt, kCase);
    v("steps_asked", steps_asked, "steps asked for", "", std::nullopt, kCase);
  }
};

std::vector<std::int64_t> CheckedLinks(const ProfileConfig& config, const std::vector<std::int64_t>& links) {
  if (links.empty()) throw InvalidArgument(config.file() + ": links: empty list");
  for (std::int64_t n : links) {
    if (n < 1 || n > 200) throw InvalidArgument(config.file() + ": links: " + std::to_string(n) + " is outside [1, 200]");
    if (std::count(links.begin(), links.end(), n) > 1) {
      throw InvalidArgument(config.file() + ": links: " + std::to_string(n) + " is listed twice");
    }
  }
  return links;
}

// The sums a run accumulates over its steps.
struct Tally {
  int steps = 0;
  double step_s = 0.0, derivatives_s = 0.0, contact_s = 0.0, step_bound_s = 0.0, linear_solve_s = 0.0;
  long newton_iterations = 0;
  double min_distance = INFINITY;
  std::string failure;
};

// One step and its derivatives from `state` (advanced), added to `tally`; false when the step
// failed (the run stops: a failed step's state is not the chains').
bool TimedStep(Simulator& sim, State& state, double dt, bool derivatives, Tally* tally) {
  Control control{RotatingChainsTargets(state.t + dt)};
  const State before = state;
  const StepReport report = sim.Step(state, control);
  if (!report.ok()) {
    tally->failure = "step " + std::to_string(tally->steps) + ": " + std::string(ToString(report.status)) + ": " + report.message;
    return false;
  }
  const SolveBreakdown* times = sim.last_solve_breakdown();
  if (times == nullptr) throw Unsupported(std::string(sim.name()) + " does not break its steps down (last_solve_breakdown)");
  tally->step_s += report.wall_time_s;
  tally->contact_s += times->contact_s;
  tally->step_bound_s += times->step_bound_s;
  tally->linear_solve_s += times->linear_solve_s;
  tally->newton_iterations += report.iterations;
  if (derivatives) {
    StepDerivatives d;
    const auto t0 = std::chrono::steady_clock::now();
    sim.Derivatives(before, control, &d);
    tally->derivatives_s += SecondsSince(t0);
  }
  ++tally->steps;
  return true;
}

// Per model, (dof, column) over the rows that did not fail.
std::map<double, double> Series(const ResultTable& table, const std::string& model, const std::string& column) {
  const ResultTable t = table.Filter("model", model);
  std::map<double, double> out;
  for (int i = 0; i < t.num_rows(); ++i) {
    const double y = t.Number(i, column);
    if (!t.Bool(i, "failed") && std::isfinite(y)) out[t.Number(i, "dof")] = y;
  }
  return out;
}


std::string DofRange(const std::map<double, double>& s) {
  return FormatShort(s.begin()->first) + " to " + FormatShort(s.rbegin()->first) + " DOF (" + std::to_string(s.size()) +
         " sizes)";
}

}  // namespace chain_cost_detail

std::vector<Column> ChainCostExperiment::columns() const {
  std::vector<Column> columns = ParamColumns<chain_cost_detail::ChainCostSettings>();
  const std::vector<Column> rows = {
      {"steps", "steps taken (fewer than asked when one failed)"},
      {"step_s", "mean wall seconds of a forward step (Simulator::Step)", true},
      {"derivatives_s", "mean wall seconds of the step's derivatives (the backward pass)", true},
      {"total_s", "step_s + derivatives_s: a time step with its backward pass", true},
      {"contact_s", "mean seconds in the contact potential within a step (BeginStep and every evaluation)", true},
      {"step_bound_s", "mean seconds in the step bound along the line searches' paths", true},
      {"linear_solve_s", "mean seconds in the Newton systems' factorizations and solves", true},
      {"other_s", "step_s minus the three above: kinematics, inertia, joint terms, assembly", true},
      {"potential_fraction", "contact_s / total_s", true},
      {"step_bound_fraction", "step_bound_s / total_s", true},
      {"newton_fraction", "linear_solve_s / total_s", true},
      {"backward_fraction", "derivatives_s / total_s", true},
      {"other_fraction", "other_s / total_s", true},
      {"newton_iterations", "mean Newton iterations a step"},
      {"min_distance_m", "smallest exact distance between colliders that may touch, after any step (m; < 0: interpenetration)"},
      {"failed", "a step failed (its solver) or the case's deadline passed", false, ColumnType::kBool},
      {"failure", "why", false, ColumnType::kText},
  };
  columns.insert(columns.end(), rows.begin(), rows.end());
  return columns;
}

Sweep ChainCostExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  using namespace chain_cost_detail;
  const auto base = ReadSettings<ChainCostSettings>(config);
  const std::vector<std::int64_t> links = CheckedLinks(config, base.links_list);
  const std::int64_t ipc_cap = base.ipc_max_links;
  Sweep sweep;
  const std::shared_ptr<const Scene> probe = RotatingChainsScene({.links = 1, .cap_points = static_cast<int>(base.cap_points)});
  std::map<std::string, std::vector<ModelSetting>> settings;
  for (const std::string& model : models) {
    if (std::string why = WhyNoContactPotential(model, probe); !why.empty()) {
      sweep.notes.push_back(model + ": skipped (" + why + ")");
      continue;
    }
    settings[model] = ExpandModelSweep(config, model, {"timestep"}, "set timestep_s instead");
  }
  double per_size = 0.0;
  for (const auto& [model, s] : settings) per_size += static_cast<double>(s.size());
  CheckSweepSize(config, name(), {{"links", static_cast<double>(links.size())}, {"(model, swept option value)", per_size}});
  for (std::int64_t n : links) {
    for (const std::string& model : models) {
      if (settings.count(model) == 0) continue;
      if (model == "ipc" && n > ipc_cap) {
        if (n == *std::find_if(links.begin(), links.end(), [&](std::int64_t m) { return m > ipc_cap; })) {
          sweep.notes.push_back("ipc: skipped above " + std::to_string(ipc_cap) + " links a chain (ipc_max_links)");
        }
        continue;
      }
      for (const ModelSetting& setting : settings[model]) {
        Case c;
        c.index = static_cast<int>(sweep.cases.size());
        c.model = model;
        c.id = model + "/links=" + std::to_string(n) + setting.IdSuffix();
        c.model_options = setting.options;
        c.model_options["timestep"] = FormatValue(base.timestep_s);
        ChainCostSettings one = base;
        one.links = n;
        one.dof = RotatingChainsDof(static_cast<int>(n));
        one.steps_asked = base.steps;
        one.derivatives = n <= base.derivatives_max_links;
        c.params = CaseParams(one);
        c.seed = DeriveSeed(name(), c.id);
        sweep.cases.push_back(std::move(c));
      }
    }
  }
  return sweep;
}

std::vector<Row> ChainCostExperiment::Run(const Case& c) const {
  using namespace chain_cost_detail;
  const auto settings = DecodeSettings<ChainCostSettings>(c);
  const std::shared_ptr<const Scene> scene =
      RotatingChainsScene({.links = static_cast<int>(settings.links), .cap_points = static_cast<int>(settings.cap_points)});
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, scene, c.model_options);
  Simulator* ip = &AsContactPotentialModel(*sim);
  if (ip->scene().nv() != settings.dof) throw Error("the chains have " + std::to_string(ip->scene().nv()) + " DOF, not 8N + 13");
  ColliderDistances distances(*scene);
  State state = DefaultState(*scene);
  Tally tally;
  tally.min_distance = distances.MinimumOverCollisionPairs(state.q);
  const int steps = static_cast<int>(settings.steps_asked);
  const bool derivatives = settings.derivatives;
  for (int k = 0; k < steps; ++k) {
    if (DeadlinePassed()) {
      tally.failure = DeadlineMessage();
      break;
    }
    if (!TimedStep(*ip, state, sim->timestep(), derivatives, &tally)) break;
    tally.min_distance = std::min(tally.min_distance, distances.MinimumOverCollisionPairs(state.q));
  }
  Row row;
  row["steps"] = static_cast<std::int64_t>(tally.steps);
  if (tally.steps > 0) {
    const double n = tally.steps;
    const double step = tally.step_s / n, backward = derivatives ? tally.derivatives_s / n : NAN;
    const double total = step + (derivatives ? backward : 0.0);
    const double other = (tally.step_s - tally.contact_s - tally.step_bound_s - tally.linear_solve_s) / n;
    row["step_s"] = step;
    row["derivatives_s"] = backward;
    row["total_s"] = derivatives ? total : NAN;
    row["contact_s"] = tally.contact_s / n;
    row["step_bound_s"] = tally.step_bound_s / n;
    row["linear_solve_s"] = tally.linear_solve_s / n;
    row["other_s"] = other;
    if (derivatives) {
      row["potential_fraction"] = tally.contact_s / n / total;
      row["step_bound_fraction"] = tally.step_bound_s / n / total;
      row["newton_fraction"] = tally.linear_solve_s / n / total;
      row["backward_fraction"] = backward / total;
      row["other_fraction"] = other / total;
    }
    row["newton_iterations"] = static_cast<double>(tally.newton_iterations) / n;
  }
  row["min_distance_m"] = tally.min_distance;
  row["failed"] = !tally.failure.empty();
  row["failure"] = tally.failure;
  return {row};
}

std::vector<ClaimResult> ChainCostExperiment::Summarize(const ResultTable& table) const {
  using namespace chain_cost_detail;
  std::vector<ClaimResult> out;
  const std::map<double, double> total = Series(table, "sdrs", "total_s"), step = Series(table, "sdrs", "step_s");
  if (total.size() >= 2) {
    ClaimResult r{"chain_cost.linearity"};
    r.ours = LogLogSlope(total);
    r.values = {{"forward_exponent", LogLogSlope(step)}};
    r.note = "least-squares log-log slope of sdrs's seconds a step (forward + derivatives) against DOF, " +
             DofRange(total) + "; forward step alone " + FormatShort(LogLogSlope(step));
    if (const auto ipc = Series(table, "ipc", "total_s"); ipc.size() >= 2) {
      r.values["ipc_exponent"] = LogLogSlope(ipc);
      r.note += "; ipc " + FormatShort(LogLogSlope(ipc));
    }
    out.push_back(r);
  }
  const std::map<double, double> backward = Series(table, "sdrs", "backward_fraction");
  if (!backward.empty()) {
    const auto& [dof, fraction] = *backward.rbegin();
    ClaimResult r{"chain_cost.backward_fraction"};
    r.ours = fraction;
    r.values = {{"dof", dof},
                {"potential_fraction", Series(table, "sdrs", "potential_fraction").at(dof)},
                {"newton_fraction", Series(table, "sdrs", "newton_fraction").at(dof)}};
    r.note = "sdrs at " + FormatShort(dof) + " DOF: backward " + FormatShort(fraction) + ", contact potential " +
             FormatShort(r.values["potential_fraction"]) + ", Newton systems " + FormatShort(r.values["newton_fraction"]) +
             " of a step with its derivatives (one thread)";
    out.push_back(r);
  }
  return out;
}

std::vector<Observation> ChainCostExperiment::Observe(const ResultTable& table) const {
  using namespace chain_cost_detail;
  std::vector<Observation> out;
  for (const std::string& model : table.Distinct("model")) {
    const std::map<double, double> step = Series(table, model, "step_s");
    if (!step.empty()) {
      const auto& [dof, seconds] = *step.rbegin();
      out.push_back({"step_s", model, seconds, "s", "mean forward step at " + FormatShort(dof) + " DOF"});
    }
    if (step.size() >= 2) {
      out.push_back({"step_loglog_slope", model, LogLogSlope(step), "", "forward step seconds against DOF, " + DofRange(step)});
    }
    const ResultTable t = table.Filter("model", model);
    double closest = INFINITY;
    for (int i = 0; i < t.num_rows(); ++i) closest = std::min(closest, t.Number(i, "min_distance_m"));
    if (std::isfinite(closest)) out.push_back({"min_distance_m", model, closest, "m", "smallest collider distance over every run"});
  }
  return out;
}

}  // namespace arena
