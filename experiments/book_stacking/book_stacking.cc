#include "experiments/book_stacking/book_stacking.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>

#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "core/common/error.h"
#include "experiments/common/settings/case_params.h"
#include "experiments/common/settings/settings.h"
#include "experiments/common/meters/collider_distances.h"
#include "experiments/common/sweeps/model_sweep.h"
#include "experiments/common/meters/outcome_checks.h"
#include "experiments/common/meters/resting_gaps.h"
#include "experiments/common/meters/step_tally.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "experiments/common/summaries/table_stats.h"
#include "models/registry.h"
#include "scenes/longrange_scenes.h"

namespace arena {

namespace {

constexpr double kPlankMass = 0.16;  // kg (seed 004 Sec. 6)
constexpr double kGravity = 9.81;    // m/s^2, the scene's
constexpr double kAngleTolerance = 0.1;  // rad: a plank turned more than this has tipped
constexpr int kPaperPlanks = 20;     // the claims are measured on the paper's stack only

// What a run may not do (experiments/common/meters/outcome_checks.h): a plank 0.2 m (its thickness) into
// another has gone through it; the stack starts at rest 1 mm apart, and a long-range potential
// pushes the planks to its equilibrium gap (Table 2: at most 1.8 cm each at mu = 1e-5), which
// lifts the stack's centre by at most 20 x 2 cm / 2: more than 1 m of lift is energy the model
// made; a plank 100 m away has blown up.
constexpr OutcomeLimits kBookStackingLimits{.max_penetration_m = 0.2, .max_energy_gain_height_m = 1.0, .escape_radius_m = 100.0};

// Seed 004 Table 2's sweep at the stable mus: `ours` at the first, a named value at each other
// (margin_mu_1e7_m, force_error_mu_1e10_n, ...).
constexpr double kClaimMu = 1e-6;
constexpr std::array<std::pair<double, const char*>, 3> kClaimOtherMus = {{{1e-7, "1e7"}, {1e-8, "1e8"}, {1e-10, "1e10"}}};

SE3 BodyPose(const Scene& scene, const VecX& q, int body) {
  if (body == kWorldBody) return SE3();
  const int i = scene.model.body(body).idx_q;  // free joint: (p, quaternion w x y z)
  const Quat quat(q[i + 3], q[i + 4], q[i + 5], q[i + 6]);
  return SE3(quat.normalized().toRotationMatrix(), q.segment<3>(i));
}

// How far the planks moved from their start.
struct PlankMotion {
  double drift = 0.0;      // m, largest horizontal displacement of a plank
  double rotation = 0.0;   // rad, largest rotation of a plank
  double top_drop = 0.0;   // m, how far the top plank sank below its start (> 0: fell)
  double top_drift = 0.0, top_rotation = 0.0;  // the top plank's own: which plank went
  void Observe(const Scene& scene, const State& initial, const State& now) {
    const int nb = scene.model.num_bodies();
    for (int b = 0; b < nb; ++b) {
      const SE3 x0 = BodyPose(scene, initial.q, b), x1 = BodyPose(scene, now.q, b);
      const double moved = (x1.translation() - x0.translation()).head<2>().norm();
      const double turned = Quat(x0.rotation()).angularDistance(Quat(x1.rotation()));
      drift = std::max(drift, moved);
      rotation = std::max(rotation, turned);
      if (b == nb - 1) top_drift = std::max(top_drift, moved), top_rotation = std::max(top_rotation, turned);
    }
    top_drop = std::max(top_drop, BodyPose(scene, initial.q, nb - 1).translation().z() - BodyPose(scene, now.q, nb - 1).translation().z());
  }
};

// The vertical contact force on the top plank from the plank below, and from every body.
struct TopForce {
  bool reported = false;
  double adjacent_z = 0.0, net_z = 0.0;  // N
};

TopForce ForceOnTop(Simulator& sim, int top) {
  TopForce f;
  for (const BodyPairForce& e : sim.ContactForces()) {
    double z = 0.0;
    int other = kWorldBody;
    if (e.body_a == top) z = e.force_on_a.z(), other = e.body_b;
    else if (e.body_b == top) z = -e.force_on_a.z(), other = e.body_a;
    else continue;
    f.reported = true;
    f.net_z += z;
    if (other == top - 1) f.adjacent_z += z;
  }
  return f;
}

// The config's keys and a case's parameters (besides the model setting's param_name,
// param_value and mu; the columns are listed in columns(), in the CSV's order).
struct BookStackingSettings {
  bool start_at_equilibrium_gap = false;
  std::int64_t planks = 0;
  double duration_s = 0.0;
  double initial_gap_m = 0.0;
  double stable_drift_m = 0.0;
  double overhang_shift = 0.0;

  template <class V>
  void VisitFields(V&& v) {
    // At most 40 planks: every body pair is evaluated each Newton iteration (longrange: up to 144
    // exact triangle-pair solves for 12-triangle planks), so the cost grows with planks^2.
    v("planks", planks, "planks in the harmonic stack", "", Closed(1, 40));
    v("duration_s", duration_s, "simulated time", "s", Closed(1e-3, 3600.0));
    v("initial_gap_m", initial_gap_m, "gap between the planks (and the ground) at the start", "m", Closed(0.0, 0.5));
    v("start_at_equilibrium_gap", start_at_equilibrium_gap, "start where the force-law models rest", "", std::nullopt,
      SettingRole::kConfig);
    v("stable_drift_m", stable_drift_m, "a plank moved farther than this is a fall", "m", Positive(10.0));
    // The paper's 0.1 % of L; larger values give the stack a margin (how much a model needs).
    v("overhang_shift", overhang_shift, "every overhang shortened by this fraction of L", "", Closed(0.0, 0.25));
  }
  BookStackOptions scene() const {
    return {.planks = static_cast<int>(planks), .shift = overhang_shift, .gap = initial_gap_m};
  }
};

int StepCount(const Case& c, double duration_s, double dt) {
  const double steps = std::floor(duration_s / dt + 1e-9);
  if (!(steps >= 1.0 && steps <= static_cast<double>(kMaxStepsPerCase))) {
    throw InvalidArgument("case '" + c.id + "': duration_s / timestep = " + options_detail::FormatDouble(steps) +
                          " steps, outside [1, " + std::to_string(kMaxStepsPerCase) + "]");
  }
  return static_cast<int>(steps);
}

// The start gap of a case: when asked, where the models whose gap is set by their force law rest
// (longrange sqrt(48 mu / m g): 1.75e-2 ... 5.5e-5 m over Table 2's mu, within 2x of its gaps;
// sdrs its separating-plane potential's; experiments/common/meters/resting_gaps.h), else the config's.
// Starting there instead of 1 mm apart spares the stack the push apart (longrange mu >= 1e-7) or
// the drop (mu <= 1e-8) that a 2 mm margin does not survive. ipc keeps the config's 1 mm: its
// 0.8 dhat rule is box_drop's 1 kg cube, not a 0.16 kg plank.
double StartGap(const std::string& model, const ModelSetting& s, bool equilibrium, double gap) {
  if (!equilibrium || (model != "longrange" && model != "sdrs")) return gap;
  return std::min(StackStartGap(model, s.options, kPlankMass * kGravity), 0.5);
}

void WriteEnd(const Scene& scene, ColliderDistances& distances, const State& state, Row* row) {
  const int top = scene.model.num_bodies() - 1;  // collider i is plank i, the ground last
  double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
  for (int i = 1; i <= top; ++i) {
    const double g = distances.Between(state.q, i - 1, i);
    lo = std::min(lo, g), hi = std::max(hi, g);
  }
  (*row)["top_gap_m"] = top >= 1 ? distances.Between(state.q, top - 1, top) : distances.Between(state.q, 0, top + 1);
  if (top >= 1) (*row)["min_adjacent_gap_m"] = lo, (*row)["max_adjacent_gap_m"] = hi;
  (*row)["ground_gap_m"] = distances.Between(state.q, 0, top + 1);
}

void WriteForces(const TopForce& f, Row* row) {
  if (!f.reported) return;
  const double weight = kPlankMass * kGravity;
  (*row)["top_force_n"] = f.adjacent_z;
  (*row)["net_top_force_n"] = f.net_z;
  (*row)["force_error_n"] = std::abs(f.adjacent_z - weight);
  (*row)["net_force_error_n"] = std::abs(f.net_z - weight);
}

}  // namespace

std::vector<Column> BookStackingExperiment::columns() const {
  return {
      {"planks", "planks in the harmonic stack"},
      {"param_name", "the model option swept (longrange: mu), empty for models run with their defaults", false, ColumnType::kText},
      {"param_value", "its value", false, ColumnType::kText},
      {"mu", "longrange's contact coefficient mu (the paper's sweep); empty for other models"},
      {"duration_s", "simulated time"},
      {"initial_gap_m", "gap between the planks (and the ground) at the start: the config's, or with "
                        "start_at_equilibrium_gap longrange's sqrt(48 mu / m g)"},
      {"stable_drift_m", "threshold: a plank moved farther than this horizontally, or the top plank sank farther, is a fall"},
      {"overhang_shift", "every overhang shortened by this fraction of L (the paper: 1e-3, just stable)"},
      {"timestep_s", "the model's step length"},
      {"steps", "steps requested: floor(duration / timestep)"},
      {"steps_done", "steps that succeeded"},
      {"failed_steps", "steps that did not converge (the run continues from their last iterate)"},
      {"failed", "a step failed, no step ran, the outcome is impossible (a plank through another, energy gained, a plank escaped) or the run ends interpenetrating", false, ColumnType::kBool},
      {"failure", "the first failure, for failed runs", false, ColumnType::kText},
      {"mean_iterations", "mean solver iterations per step"},
      {"max_drift_m", "largest horizontal displacement of a plank from its start"},
      {"max_rotation_rad", "largest rotation of a plank from its start"},
      {"top_drop_m", "how far the top plank sank below its start (the largest over the run)"},
      {"top_drift_m", "largest horizontal displacement of the top plank"},
      {"top_rotation_rad", "largest rotation of the top plank"},
      {"upright", "every plank within stable_drift_m and 0.1 rad, the top plank not sunk by more", false, ColumnType::kBool},
      {"stable", "upright, every step succeeded and no outcome check failed (ending interpenetrating fails the row, not the stability)", false, ColumnType::kBool},
      {"top_gap_m", "exact mesh distance between the top plank and the one below at the end"},
      {"min_adjacent_gap_m", "smallest distance between adjacent planks at the end"},
      {"max_adjacent_gap_m", "largest distance between adjacent planks at the end"},
      {"ground_gap_m", "distance between the bottom plank and the ground at the end"},
      {"top_force_n", "vertical contact force of the plank below on the top plank at the end (empty: not reported)"},
      {"net_top_force_n", "vertical contact force of every body on the top plank at the end"},
      {"force_error_n", "|top_force_n - m g|, m g = 0.16 x 9.81 N (seed 004 Table 2's force error)"},
      {"net_force_error_n", "|net_top_force_n - m g|"},
      {"min_distance_m", "smallest exact mesh-mesh distance between colliders of different bodies over the run (< 0: penetration)"},
      {"end_distance_m", "smallest exact mesh-mesh distance at the end (< 0 fails the row: no run may end interpenetrating)"},
      {"max_penetration_m", "deepest penetration over the run (the outcome monitor's geometry)"},
      {"step_time_s", "mean wall time of one step", true},
      {"run_time_s", "wall time of the whole run", true},
  };
}

Sweep BookStackingExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const auto base = ReadSettings<BookStackingSettings>(config);
  const std::shared_ptr<const Scene> scene = BookStackScene(base.scene());
  std::vector<std::vector<ModelSetting>> settings;
  double cells = 0.0;
  for (const std::string& model : models) {
    settings.push_back(ExpandModelSweep(config, model));
    cells += static_cast<double>(settings.back().size());
  }
  CheckSweepSize(config, name(), {{"(model, swept option value)", cells}});
  Sweep sweep;
  for (size_t m = 0; m < models.size(); ++m) {
    if (std::string why = CheckSupport(FindModel(models[m]).capabilities, *scene); !why.empty()) {
      sweep.notes.push_back(models[m] + ": skipped (" + why + ")");
      continue;
    }
    for (const ModelSetting& s : settings[m]) {
      Case c;
      c.index = static_cast<int>(sweep.cases.size());
      c.model = models[m];
      c.id = models[m] + "/planks=" + std::to_string(base.planks) + s.IdSuffix();
      c.model_options = s.options;
      BookStackingSettings one = base;
      one.initial_gap_m = StartGap(models[m], s, base.start_at_equilibrium_gap, base.initial_gap_m);
      c.params = CaseParams(one);
      c.params.insert(c.params.end(), {{"param_name", s.param_name},
                                       {"param_value", ParamValue(s.param_text)},
                                       {"mu", s.param_name == "mu" ? ParamValue(s.param_text) : Value{}}});
      c.seed = DeriveSeed(name(), c.id);
      sweep.cases.push_back(std::move(c));
    }
  }
  return sweep;
}

std::vector<Row> BookStackingExperiment::Run(const Case& c) const {
  const auto start = std::chrono::steady_clock::now();
  const auto setup = DecodeSettings<BookStackingSettings>(c);
  const std::shared_ptr<const Scene> scene = BookStackScene(setup.scene());
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, scene, c.model_options);
  const int steps = StepCount(c, setup.duration_s, sim->timestep());
  ColliderDistances distances(*scene);
  State state = DefaultState(*scene);
  const State initial = state;
  OutcomeMonitor outcome(*scene, state, kBookStackingLimits);
  StepTally tally;
  PlankMotion motion;
  distances.Observe(state.q);
  for (int k = 0; k < steps && !tally.stop; ++k) {
    tally.Record(k, sim->Step(state, Control{}));
    if (tally.stop) continue;
    motion.Observe(*scene, initial, state);
    distances.Observe(state.q);
    if (std::string why = outcome.Observe(state); !why.empty()) tally.Fail("step " + std::to_string(k) + ": " + why, true);
  }
  // Stability is judged on the motion and the steps; ending interpenetrating fails the row on
  // its own (the soft-contact engines rest slightly inside each other: stable, yet failed).
  const bool upright = tally.attempted > 0 && !tally.stop && motion.drift < setup.stable_drift_m &&
                       motion.rotation < kAngleTolerance && motion.top_drop < setup.stable_drift_m;
  const bool stable = upright && tally.succeeded();
  const double end_distance = distances.Minimum(state.q);
  if (end_distance < 0.0) tally.Fail("the run ends with meshes interpenetrating by " + options_detail::FormatDouble(-end_distance) + " m");
  Row row;
  row["timestep_s"] = sim->timestep();
  row["steps"] = std::int64_t{steps};
  tally.WriteTo(&row);
  row["max_drift_m"] = motion.drift;
  row["max_rotation_rad"] = motion.rotation;
  row["top_drop_m"] = motion.top_drop;
  row["top_drift_m"] = motion.top_drift;
  row["top_rotation_rad"] = motion.top_rotation;
  row["upright"] = upright;
  row["stable"] = stable;
  WriteEnd(*scene, distances, state, &row);
  if (tally.attempted > 0) WriteForces(ForceOnTop(*sim, scene->model.num_bodies() - 1), &row);
  row["min_distance_m"] = distances.closest();
  row["end_distance_m"] = end_distance;
  row["max_penetration_m"] = outcome.max_penetration_m();
  row["step_time_s"] = tally.mean_time();
  row["run_time_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return {row};
}

namespace {

// The longrange rows of the paper's 20-plank stack at one mu.
ResultTable PaperRows(const ResultTable& table, double mu) {
  return table.Filter("model", "longrange").FilterNumber("planks", kPaperPlanks).FilterNumber("mu", mu);
}

ClaimResult StabilityThreshold(const ResultTable& longrange) {
  ClaimResult r{"book_stacking.stability_threshold"};
  double largest = 0.0;
  std::string note;
  for (int i = 0; i < longrange.num_rows(); ++i) {
    const double mu = longrange.Number(i, "mu");
    const bool stable = longrange.Bool(i, "stable");
    note += (note.empty() ? "" : ", ") + FormatShort(mu) + (stable ? " stable" : " falls");
    if (stable) largest = std::max(largest, mu);
  }
  // 0 when every stack fell: measured, and below every mu of the sweep.
  r.ours = largest;
  if (!(largest > 0.0)) r.ours_text = "none: the stack fell at every mu";
  r.note = "longrange, 20 planks: " + note;
  return r;
}

// `column` of longrange on the paper's stack at each stable mu of Table 2: ours at 1e-6, then
// <prefix>_mu_1e7<suffix>, ... (a mu the run did not reach is NaN: the claim cannot hold).
ClaimResult AtStableMus(const ResultTable& table, const std::string& id, const std::string& column,
                        const std::string& prefix, const std::string& suffix) {
  ClaimResult r{id};
  r.ours = Mean(PaperRows(table, kClaimMu), column);
  r.note = column + " of longrange on 20 planks: " + FormatShort(r.ours) + " at mu = 1e-6";
  for (const auto& [mu, tag] : kClaimOtherMus) {
    const double v = Mean(PaperRows(table, mu), column);
    r.values[prefix + "_mu_" + tag + suffix] = v;
    r.note += ", " + FormatShort(v) + " at " + FormatShort(mu);
  }
  return r;
}

}  // namespace

std::vector<ClaimResult> BookStackingExperiment::Summarize(const ResultTable& table) const {
  // Only the paper's stack is a measurement of its claims; smaller (quick) stacks are observations.
  const ResultTable longrange = table.Filter("model", "longrange").FilterNumber("planks", kPaperPlanks);
  if (longrange.num_rows() == 0) return {};
  return {StabilityThreshold(longrange), AtStableMus(table, "book_stacking.margin_m", "top_gap_m", "margin", "_m"),
          AtStableMus(table, "book_stacking.force_error_n", "force_error_n", "force_error", "_n")};
}

std::vector<Observation> BookStackingExperiment::Observe(const ResultTable& table) const {
  std::vector<Observation> out;
  for (const std::string& model : table.Distinct("model")) {
    const ResultTable m = table.Filter("model", model);
    for (int i = 0; i < m.num_rows(); ++i) {
      const std::string where = m.Text(i, "planks") + " planks" +
                                (m.Text(i, "mu").empty() ? std::string() : ", mu = " + m.Text(i, "mu"));
      out.push_back({"stable", model, m.Bool(i, "stable") ? 1.0 : 0.0, "", where});
      out.push_back({"top_gap", model, m.Number(i, "top_gap_m"), "m", where});
      if (!m.Text(i, "force_error_n").empty()) out.push_back({"force_error", model, m.Number(i, "force_error_n"), "N", where});
      out.push_back({"step_time", model, m.Number(i, "step_time_s"), "s", where});
    }
  }
  return out;
}

}  // namespace arena
