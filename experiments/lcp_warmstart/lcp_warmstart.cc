#include "experiments/lcp_warmstart/lcp_warmstart.h"

#include <algorithm>
#include <cmath>

#include "core/common/error.h"
#include "core/common/strings.h"
#include "experiments/common/settings/settings.h"
#include "experiments/common/sweeps/model_sweep.h"
#include "experiments/common/meters/outcome_checks.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "experiments/common/summaries/table_stats.h"
#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "models/registry.h"
#include "scenes/box_drop_scenes.h"
#include "scenes/scene_registry.h"

namespace arena {

namespace {

const std::vector<std::string> kRollouts = {"atlas", "box_drop", "stacking", "half_cheetah"};
constexpr const char* kAttempts = "lcp_warm_start_attempts";

bool HasCounter(const Simulator& sim, const std::string& name) {
  for (const ModelCounter& c : sim.Counters()) {
    if (c.name == name) return true;
  }
  return false;
}

// Throws Error when the model does not keep the counter (a renamed counter is a programming error).
std::int64_t CounterValue(const std::vector<ModelCounter>& counters, const std::string& name) {
  for (const ModelCounter& c : counters) {
    if (c.name == name) return c.value;
  }
  throw Error("lcp_warmstart: the model keeps no counter '" + name + "'");
}
constexpr double kLcpWarmstartTimestep = 0.001;  // Nimble's (DART's default)
// The rollout's last state may not have a body 5 cm inside the ground or another body: resting
// contacts at 1 kHz sink micrometres (the tower's lower block 30 um), so a body that deep has
// lost its contact and fallen through, and the LCPs counted are those of no physical scene.
constexpr OutcomeLimits kLcpWarmstartLimits{.max_penetration_m = 0.05, .escape_radius_m = 100.0};

}  // namespace

std::shared_ptr<const Scene> LcpWarmstartExperiment::MakeScene(const std::string& rollout) {
  // The registered scene (scenes/scene_registry.h) of each rollout.
  if (rollout == "atlas" || rollout == "half_cheetah") return arena::MakeScene(rollout);
  if (rollout == "box_drop") return arena::MakeScene("box");
  if (rollout == "stacking") return arena::MakeScene("tower");
  throw InvalidArgument("lcp_warmstart: unknown rollout '" + rollout + "'; valid: " + Join(kRollouts));
}

State LcpWarmstartExperiment::InitialState(const std::string& rollout, const Scene& scene, int ic) {
  if (rollout == "box_drop") {
    return BoxDropInitialState("spatial", DeriveSeed("lcp_warmstart", "box_drop/ic=" + std::to_string(ic)));
  }
  return DefaultState(scene);
}

namespace {

// The config's keys and a case's parameters.
struct LcpWarmstartSettings {
  std::vector<std::string> rollouts;
  double duration_s = 0.0;
  std::int64_t box_drop_runs = 0;
  std::string rollout;
  std::int64_t ic = 0;
  std::int64_t steps = 0;

  template <class V>
  void VisitFields(V&& v) {
    constexpr SettingRole kConfig = SettingRole::kConfig, kCase = SettingRole::kCase;
    v("rollouts", rollouts, "the rollouts (the axis)", "", std::nullopt, kConfig);
    v("duration_s", duration_s, "simulated time of a rollout", "s", Positive(), kConfig);
    v("box_drop_runs", box_drop_runs, "box_drop's initial conditions", "", std::nullopt, SettingRole::kConfigCount);
    v("rollout", rollout, "atlas, box_drop (spatial cube), stacking (two cubes) or half_cheetah", "", std::nullopt,
      kCase);
    v("ic", ic, "initial condition (box_drop; 0 for the others)", "", std::nullopt, kCase);
    v("steps", steps, "steps asked for (duration / 0.001 s)", "", std::nullopt, kCase);
  }
};

}  // namespace

std::vector<Column> LcpWarmstartExperiment::columns() const {
  std::vector<Column> columns = ParamColumns<LcpWarmstartSettings>();
  const std::vector<Column> rows = {
      {"steps_done", "steps taken (a non-finite state ends the rollout)"},
      {"contact_steps", "steps with at least one contact (each solves one LCP)"},
      {"mean_contacts", "mean contacts over the contact steps"},
      {"attempts", "LCP solves where last step's active set had the same rows (the guess applies)"},
      {"hits", "of those, solved by the guess (valid at Nimble's 1e-5)"},
      {"hit_rate", "hits / attempts: how often the guess is right when there is one"},
      {"solved_by_guess", "hits / contact_steps: the fraction of all LCPs the guess solved"},
      {"dantzig", "LCPs solved by Dantzig (the guess missed or did not apply)"},
      {"pgs", "LCPs that needed the PGS fallback"},
      {"frictionless", "LCPs solved only without friction"},
      {"lcp_failed", "LCPs without a valid solution"},
      {"failure", "why the rollout failed: it ended early, ran no step, or ended with a body through the ground", false, ColumnType::kText},
  };
  columns.insert(columns.end(), rows.begin(), rows.end());
  return columns;
}

Sweep LcpWarmstartExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const auto settings = ReadSettings<LcpWarmstartSettings>(config);
  const std::vector<std::string>& rollouts = settings.rollouts;
  const double duration = settings.duration_s;
  const std::int64_t box_drop_runs = settings.box_drop_runs;
  for (const std::string& r : rollouts) {
    if (std::find(kRollouts.begin(), kRollouts.end(), r) == kRollouts.end()) {
      throw InvalidArgument(config.file() + ": rollouts: unknown rollout '" + r + "'; valid: " + Join(kRollouts));
    }
  }
  const double rounded_steps = std::round(duration / kLcpWarmstartTimestep);
  if (!(rounded_steps >= 1.0 && rounded_steps <= static_cast<double>(kMaxStepsPerCase))) {
    throw InvalidArgument(config.file() + " [" + config.profile() + "]: duration_s " +
                          options_detail::FormatDouble(duration) + " s is " +
                          options_detail::FormatDouble(rounded_steps) + " steps of " +
                          options_detail::FormatDouble(kLcpWarmstartTimestep) + " s; give a duration of 1 to " +
                          std::to_string(kMaxStepsPerCase) + " steps");
  }
  const std::int64_t steps = std::llround(duration / kLcpWarmstartTimestep);
  const bool has_box_drop = std::find(rollouts.begin(), rollouts.end(), "box_drop") != rollouts.end();
  CheckSweepSize(config, name(),
                 {{"models", static_cast<double>(models.size())},
                  {"rollouts (box_drop counting box_drop_runs)",
                   static_cast<double>(rollouts.size()) - (has_box_drop ? 1.0 : 0.0) +
                       (has_box_drop ? static_cast<double>(box_drop_runs) : 0.0)}});
  Sweep sweep;
  for (const std::string& model : models) {
    // Only a model that counts its LCP warm start's guesses (nimble) has a hit rate.
    if (!HasCounter(*MakeSimulator(model, MakeScene("box_drop"), {}), kAttempts)) {
      sweep.notes.push_back(model + ": skipped (no LCP active-set warm start counters)");
      continue;
    }
    for (const ModelSetting& setting :
         ExpandModelSweep(config, model, {"timestep"}, "the rollouts run at Nimble's 0.001 s")) {
      for (const std::string& rollout : rollouts) {
        const int runs = rollout == "box_drop" ? static_cast<int>(box_drop_runs) : 1;
        for (int ic = 0; ic < runs; ++ic) {
          Case c;
          c.index = static_cast<int>(sweep.cases.size());
          c.model = model;
          c.id = model + "/" + rollout + "/ic=" + std::to_string(ic) +
                 setting.IdSuffix();
          c.model_options = setting.options;
          c.model_options["timestep"] = options_detail::FormatDouble(kLcpWarmstartTimestep);
          LcpWarmstartSettings one = settings;
          one.rollout = rollout;
          one.ic = ic;
          one.steps = steps;
          c.params = CaseParams(one);
          c.seed = DeriveSeed(name(), c.id);
          sweep.cases.push_back(std::move(c));
        }
      }
    }
  }
  return sweep;
}

OutcomeLimits LcpWarmstartExperiment::outcome_limits() const { return kLcpWarmstartLimits; }

std::vector<Row> LcpWarmstartExperiment::Run(const Case& c) const {
  const auto settings = DecodeSettings<LcpWarmstartSettings>(c);
  const std::string& rollout = settings.rollout;
  const std::shared_ptr<const Scene> scene = MakeScene(rollout);
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, scene, c.model_options);
  if (!HasCounter(*sim, kAttempts)) throw Unsupported(c.model + " has no LCP active-set warm start counters");
  State state = InitialState(rollout, *scene, static_cast<int>(settings.ic));
  const std::int64_t steps = settings.steps;
  std::int64_t done = 0, contact_steps = 0, contacts = 0;
  std::string failure;
  OutcomeMonitor outcome(*scene, state, kLcpWarmstartLimits);
  for (; done < steps; ++done) {
    const StepReport r = sim->Step(state, Control{});
    if (r.ends_run()) {
      failure = std::string(ToString(r.status)) + " at step " + std::to_string(done) + ": " + r.message;
      break;
    }
    if (r.contacts > 0) {
      ++contact_steps;
      contacts += r.contacts;
    }
  }
  if (failure.empty() && done < 1) failure = "no step ran: steps = " + std::to_string(steps);
  if (std::string why = outcome.Observe(state); failure.empty() && !why.empty()) failure = "at the end: " + why;
  const std::vector<ModelCounter> counters = sim->Counters();
  const std::int64_t attempts = CounterValue(counters, kAttempts), hits = CounterValue(counters, "lcp_warm_start_hits");
  Row row;
  row["steps_done"] = done;
  row["contact_steps"] = contact_steps;
  row["mean_contacts"] = contact_steps > 0 ? static_cast<double>(contacts) / contact_steps : 0.0;
  row["attempts"] = attempts;
  row["hits"] = hits;
  row["hit_rate"] = attempts > 0 ? static_cast<double>(hits) / attempts : std::nan("");
  row["solved_by_guess"] = contact_steps > 0 ? static_cast<double>(hits) / contact_steps : std::nan("");
  row["dantzig"] = CounterValue(counters, "lcp_solved_by_dantzig");
  row["pgs"] = CounterValue(counters, "lcp_solved_by_pgs");
  row["frictionless"] = CounterValue(counters, "lcp_solved_by_frictionless");
  row["lcp_failed"] = CounterValue(counters, "lcp_solved_by_failed");
  row["failure"] = failure;
  return {row};
}

// The paper: "this guess is correct more than 95 % of the time" (App. B). A guess exists when
// last step's LCP had the same rows (Nimble's short-circuit runs then; a new contact set starts
// from scratch), so the claim is hits / attempts; the note adds the stricter fraction of all
// LCPs that the guess solved.
std::vector<ClaimResult> LcpWarmstartExperiment::Summarize(const ResultTable& table) const {
  const ResultTable nimble = table.Filter("model", "nimble");
  auto totals = [](const ResultTable& t, double* hits, double* attempts, double* solves) {
    *hits = *attempts = *solves = 0.0;
    for (int i = 0; i < t.num_rows(); ++i) {
      if (t.Text(i, "contact_steps").empty()) continue;  // a failed case
      *hits += t.Number(i, "hits");
      *attempts += t.Number(i, "attempts");
      *solves += t.Number(i, "contact_steps");
    }
  };
  double hits, attempts, solves;
  totals(nimble, &hits, &attempts, &solves);
  if (attempts == 0.0) return {};
  ClaimResult r{"lcp_warmstart.hit_rate"};
  r.ours = hits / attempts;
  std::string per_rollout;
  for (const std::string& rollout : nimble.Distinct("rollout")) {
    double h, a, n;
    totals(nimble.Filter("rollout", rollout), &h, &a, &n);
    per_rollout += (per_rollout.empty() ? "" : ", ") + rollout + " " + FormatShort(a > 0 ? h / a : std::nan("")) +
                   " (" + FormatShort(n > 0 ? h / n : std::nan("")) + ")";
  }
  r.note = std::to_string(static_cast<long>(hits)) + " right guesses of " + std::to_string(static_cast<long>(attempts)) +
           " (a guess exists when last step's LCP had the same rows); of all " +
           std::to_string(static_cast<long>(solves)) + " LCPs the guess solved " + FormatShort(hits / solves) +
           ". Per rollout, right guesses (of all LCPs): " + per_rollout;
  return {r};
}

}  // namespace arena
