#include "experiments/tpush/tpush.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "core/common/error.h"
#include "experiments/common/settings/settings.h"
#include "experiments/common/sweeps/model_sweep.h"
#include "experiments/common/summaries/table_stats.h"
#include "experiments/tpush/tpush_planner.h"
#include "experiments/tpush/tpush_pushes.h"
#include "experiments/tpush/tpush_rollout.h"
#include "models/registry.h"
#include "scenes/tpush_scenes.h"

namespace arena {

namespace tpush {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kDeg = 180.0 / M_PI;

// A column of the paper's Fig. 7 table: "2-rk4" = 2 ms with RK4.
struct RunSpec {
  std::string label;
  double timestep_ms = 0.0;
  std::string integrator;
};

RunSpec ParseRun(const std::string& text) {
  const std::size_t dash = text.find('-');
  RunSpec r{text, 0.0, dash == std::string::npos ? "" : text.substr(dash + 1)};
  char* end = nullptr;
  const std::string ms = text.substr(0, dash);
  r.timestep_ms = std::strtod(ms.c_str(), &end);
  if (dash == std::string::npos || end != ms.c_str() + ms.size() || !(r.timestep_ms > 0.0) || r.timestep_ms > 100.0 ||
      (r.integrator != "rk4" && r.integrator != "euler")) {
    throw InvalidArgument("tpush: runs: '" + text + "' is not '<timestep ms in (0, 100]>-<rk4|euler>' (e.g. 2-rk4)");
  }
  return r;
}

const PushSequence& FindSequence(int index) {
  for (const PushSequence& s : CommittedPushSequences()) {
    if (s.index == index) return s;
  }
  throw InvalidArgument("tpush: sequences: no sequence " + std::to_string(index) + " in experiments/tpush/tpush_pushes.csv (it has " +
                        std::to_string(CommittedPushSequences().size()) + ")");
}

// The surface points of the T's colliders and of the finger's (Simulator::collider_points: scm's
// patches), or none for a model without them.
std::pair<Value, Value> PointCounts(Simulator& sim) {
  const ColliderPoints* points = sim.collider_points();
  if (points == nullptr) return {};
  std::int64_t t = 0, finger = 0;
  for (int i = 0; i < static_cast<int>(sim.scene().colliders.size()); ++i) {
    const std::int64_t n = points->PointCount(i);
    (sim.scene().colliders[static_cast<std::size_t>(i)].name == "finger" ? finger : t) += n;
  }
  return {t, finger};
}

// One scm replay beside mujoco's of the same sequence and run.
struct Comparison {
  int sequence = 0;
  std::string run;
  double patch_size = kNaN;
  double points = kNaN;
  double scm_step_ms = kNaN, mujoco_step_ms = kNaN;
  double distance_cm = kNaN, rotation_deg = kNaN;
  bool diverged = false;
};

std::vector<Comparison> Compare(const ResultTable& table) {
  const ResultTable finals = table.Filter("kind", "final");
  std::map<std::pair<int, std::string>, int> mujoco;
  for (int i = 0; i < finals.num_rows(); ++i) {
    if (finals.Text(i, "model") == "mujoco") mujoco[{static_cast<int>(finals.Number(i, "sequence")), finals.Text(i, "run")}] = i;
  }
  std::vector<Comparison> out;
  for (int i = 0; i < finals.num_rows(); ++i) {
    if (finals.Text(i, "model") != "scm") continue;
    Comparison c;
    c.sequence = static_cast<int>(finals.Number(i, "sequence"));
    c.run = finals.Text(i, "run");
    c.patch_size = finals.Number(i, "patch_size_m");
    c.points = finals.Number(i, "t_points");
    c.scm_step_ms = finals.Number(i, "step_time_ms");
    c.diverged = finals.Bool(i, "diverged");
    const auto m = mujoco.find({c.sequence, c.run});
    if (m != mujoco.end()) {
      const int j = m->second;
      c.mujoco_step_ms = finals.Number(j, "step_time_ms");
      const double dx = finals.Number(i, "final_x_m") - finals.Number(j, "final_x_m");
      const double dy = finals.Number(i, "final_y_m") - finals.Number(j, "final_y_m");
      c.distance_cm = 100.0 * std::hypot(dx, dy);
      c.rotation_deg = std::abs(std::remainder(finals.Number(i, "final_yaw_deg") - finals.Number(j, "final_yaw_deg"), 360.0));
    }
    out.push_back(c);
  }
  return out;
}

// The comparisons of one run and patch size, averaged over the sequences (diverged replays and
// those without a mujoco partner are left out of the means and counted).
struct Group {
  std::string run;
  double patch_size = kNaN, points = kNaN;
  int replays = 0, diverged = 0, compared = 0;
  double scm_step_ms = 0.0, mujoco_step_ms = 0.0, distance_cm = 0.0, rotation_deg = 0.0;
};

std::map<std::pair<std::string, double>, Group> Groups(const std::vector<Comparison>& comparisons) {
  std::map<std::pair<std::string, double>, Group> out;
  for (const Comparison& c : comparisons) {
    Group& g = out[{c.run, c.patch_size}];
    g.run = c.run;
    g.patch_size = c.patch_size;
    g.points = c.points;
    ++g.replays;
    if (c.diverged) {
      ++g.diverged;
      continue;
    }
    if (!std::isfinite(c.distance_cm)) continue;
    ++g.compared;
    g.scm_step_ms += c.scm_step_ms;
    g.mujoco_step_ms += c.mujoco_step_ms;
    g.distance_cm += c.distance_cm;
    g.rotation_deg += c.rotation_deg;
  }
  for (auto& [key, g] : out) {
    const double n = g.compared > 0 ? g.compared : kNaN;
    g.scm_step_ms /= n;
    g.mujoco_step_ms /= n;
    g.distance_cm /= n;
    g.rotation_deg /= n;
  }
  return out;
}

std::string Points(double points) { return std::isfinite(points) ? std::to_string(std::lround(points)) : "?"; }

std::string Describe(const Group& g) {
  return g.run + ", " + Points(g.points) + " T points, " + std::to_string(g.compared) + " of " +
         std::to_string(g.replays) + " sequences compared" + (g.diverged > 0 ? " (" + std::to_string(g.diverged) + " diverged)" : "");
}

// The group of `run` with the finest (fine = true) or coarsest cloud, or null.
const Group* Find(const std::map<std::pair<std::string, double>, Group>& groups, const std::string& run, bool fine) {
  const Group* best = nullptr;
  for (const auto& [key, g] : groups) {
    if (g.run != run) continue;
    if (best == nullptr || (fine ? g.patch_size < best->patch_size : g.patch_size > best->patch_size)) best = &g;
  }
  return best;
}

// The run labels of an integrator in the table, by timestep.
std::vector<std::pair<double, std::string>> RunsOf(const ResultTable& table, const std::string& integrator) {
  std::vector<std::pair<double, std::string>> out;
  for (const std::string& label : table.Distinct("run")) {
    if (label.empty()) continue;
    const RunSpec r = ParseRun(label);
    if (r.integrator == integrator) out.emplace_back(r.timestep_ms, label);
  }
  std::sort(out.begin(), out.end());
  return out;
}

const char* kBaselineNote = "; the paper's baseline is MJX on a GPU, ours MuJoCo 2.2.2 on one CPU core";

// The config's keys and a case's parameters.
struct TPushSettings {
  std::vector<std::int64_t> sequences;
  std::vector<std::string> runs;
  std::vector<double> patch_sizes_m;
  std::int64_t sequence = 0;
  std::string run;
  double timestep_ms = 0.0;
  std::string integrator;
  std::optional<double> patch_size_m;
  double settle_s = 0.0;
  double trace_interval_s = 0.0;

  template <class V>
  void VisitFields(V&& v) {
    constexpr SettingRole kConfig = SettingRole::kConfig, kCase = SettingRole::kCase;
    v("sequences", sequences, "the push sequences (1-5)", "", std::nullopt, SettingRole::kConfigList);
    v("runs", runs, "<timestep ms>-<integrator> runs", "", std::nullopt, kConfig);
    v("patch_sizes_m", patch_sizes_m, "scm's patch sizes", "m", Closed(1e-3, 1.0), kConfig);
    v("sequence", sequence, "the push sequence (experiments/tpush/tpush_pushes.csv)", "", std::nullopt, kCase);
    v("run", run, "<timestep ms>-<integrator>, a column of seed 001's Fig. 7 table", "", std::nullopt, kCase);
    v("timestep_ms", timestep_ms, "the model's timestep (ms)", "ms", std::nullopt, kCase);
    v("integrator", integrator, "rk4 or euler (semi-implicit), the model's", "", std::nullopt, kCase);
    v("patch_size_m", patch_size_m, "scm: the point clouds' patch size (m); empty for mujoco", "m", std::nullopt, kCase);
    v("settle_s", settle_s, "the hold after the path ends (s)", "s", Closed(0.0, 60.0));
    v("trace_interval_s", trace_interval_s, "time between trace rows (s); 0: none", "s", Closed(0.0, 60.0));
  }
};

}  // namespace tpush

std::vector<Column> TPushExperiment::columns() const {
  std::vector<Column> columns = {
      {"kind", "final (one per replay) or trace (the T and the finger every trace_interval_s)", false, ColumnType::kText}};
  const std::vector<Column> params = ParamColumns<tpush::TPushSettings>();
  columns.insert(columns.end(), params.begin(), params.end());
  const std::vector<Column> rows = {
      {"t_points", "scm: patches on the T (its two boxes)"},
      {"finger_points", "scm: patches on the finger"},
      {"steps", "steps taken"},
      {"step_time_ms", "wall time per step (ms), one thread", true},
      {"final_x_m", "the T's final x (m)"},
      {"final_y_m", "the T's final y (m)"},
      {"final_yaw_deg", "the T's final yaw (deg)"},
      {"contacts_made", "finger-T contacts made (exact gap < 2 mm)"},
      {"contacts_broken", "contacts broken (gap > 5 mm)"},
      {"diverged", "a failed step, a non-finite state or the T flung away", false, ColumnType::kBool},
      {"failure", "why it diverged", false, ColumnType::kText},
      {"t_s", "trace: time (s)"},
      {"x_m", "trace: the T's x (m)"},
      {"y_m", "trace: the T's y (m)"},
      {"yaw_deg", "trace: the T's yaw (deg)"},
      {"finger_x_m", "trace: the finger's x (m)"},
      {"finger_y_m", "trace: the finger's y (m)"},
  };
  columns.insert(columns.end(), rows.begin(), rows.end());
  return columns;
}

Sweep TPushExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  using namespace tpush;
  const auto settings = ReadSettings<TPushSettings>(config);
  std::vector<int> sequences;
  for (std::int64_t s : settings.sequences) sequences.push_back(FindSequence(static_cast<int>(s)).index);
  if (sequences.empty()) throw InvalidArgument("tpush: sequences: give at least one (1-5)");
  std::vector<RunSpec> runs;
  for (const std::string& text : settings.runs) runs.push_back(ParseRun(text));
  const std::vector<double>& patches = settings.patch_sizes_m;
  Sweep sweep;
  for (const std::string& model : models) {
    if (model != "scm" && model != "mujoco") {
      sweep.notes.push_back(model + ": skipped (tpush replays scm against mujoco, seed 001's pair: the runs set their integrators)");
      continue;
    }
    for (const ModelSetting& setting :
         ExpandModelSweep(config, model, {"timestep", "integrator", "patch_size"}, "set runs and patch_sizes_m instead")) {
      for (int s : sequences) {
        for (const RunSpec& run : runs) {
          const std::vector<double> sizes = model == "scm" ? patches : std::vector<double>{kNaN};
          for (double patch : sizes) {
            Case c;
            c.index = static_cast<int>(sweep.cases.size());
            c.model = model;
            c.id = model + "/seq=" + std::to_string(s) + "/" + run.label +
                   (std::isnan(patch) ? "" : "/patch=" + FormatValue(patch)) + setting.IdSuffix();
            c.model_options = setting.options;
            c.model_options["timestep"] = FormatValue(run.timestep_ms * 1e-3);
            c.model_options["integrator"] = run.integrator;
            TPushSettings one = settings;
            one.sequence = s;
            one.run = run.label;
            one.timestep_ms = run.timestep_ms;
            one.integrator = run.integrator;
            if (!std::isnan(patch)) {
              c.model_options["patch_size"] = FormatValue(patch);
              one.patch_size_m = patch;
            }
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

std::vector<ExperimentCommand> TPushExperiment::commands() const { return {PlanPushesCommand()}; }

std::vector<Row> TPushExperiment::Run(const Case& c) const {
  using namespace tpush;
  const auto settings = DecodeSettings<TPushSettings>(c);
  const PushSequence& sequence = FindSequence(static_cast<int>(settings.sequence));
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, TPushScene(), c.model_options);
  TPushRolloutOptions options;
  options.settle_s = settings.settle_s;
  options.trace_interval_s = settings.trace_interval_s;
  const TPushRollout r = RollOutPushes(*sim, sequence, options);
  std::vector<Row> rows;
  for (const auto& [t, x, y, yaw, fx, fy] : r.trace) {
    rows.push_back({{"kind", "trace"}, {"t_s", t}, {"x_m", x}, {"y_m", y}, {"yaw_deg", yaw * kDeg},
                    {"finger_x_m", fx}, {"finger_y_m", fy}});
  }
  Row final{{"kind", "final"}, {"steps", std::int64_t{r.steps}}, {"contacts_made", std::int64_t{r.contacts_made}},
            {"contacts_broken", std::int64_t{r.contacts_broken}}, {"diverged", r.diverged}, {"failure", r.failure}};
  if (r.steps > 0) final["step_time_ms"] = 1e3 * r.seconds / r.steps;
  if (!r.diverged) {
    final["final_x_m"] = r.final_pose.x();
    final["final_y_m"] = r.final_pose.y();
    final["final_yaw_deg"] = r.final_pose.z() * kDeg;
  }
  const auto [t_points, finger_points] = PointCounts(*sim);
  final["t_points"] = t_points;
  final["finger_points"] = finger_points;
  rows.push_back(final);
  return rows;
}

std::vector<Observation> TPushExperiment::Observe(const ResultTable& table) const {
  using namespace tpush;
  std::vector<Observation> out;
  if (table.ColumnIndex("run") < 0) return out;
  const auto groups = Groups(Compare(table));
  for (const char* integrator : {"rk4", "euler"}) {
    for (const auto& [ms, run] : RunsOf(table, integrator)) {
      std::vector<const Group*> clouds;
      for (const auto& [key, g] : groups) {
        if (g.run == run) clouds.push_back(&g);
      }
      std::sort(clouds.begin(), clouds.end(), [](const Group* a, const Group* b) { return a->patch_size < b->patch_size; });
      for (const Group* g : clouds) {
        const std::string where = Describe(*g);
        out.push_back({"com_distance", "scm", g->distance_cm, "cm", where + ": final COM distance to mujoco's, mean"});
        out.push_back({"rotation_difference", "scm", g->rotation_deg, "deg", where + ": final yaw difference to mujoco's, mean"});
        out.push_back({"step_time", "scm", g->scm_step_ms, "ms", where});
      }
      if (!clouds.empty()) {
        out.push_back({"step_time", "mujoco", clouds.front()->mujoco_step_ms, "ms",
                       run + ", beside scm's finest cloud (" + std::to_string(clouds.front()->compared) + " sequences)"});
      }
    }
  }
  return out;
}

std::vector<ClaimResult> TPushExperiment::Summarize(const ResultTable& table) const {
  using namespace tpush;
  std::vector<ClaimResult> out;
  if (table.ColumnIndex("run") < 0) return out;
  const auto groups = Groups(Compare(table));
  const std::vector<std::pair<double, std::string>> rk4 = RunsOf(table, "rk4"), euler = RunsOf(table, "euler");
  auto ratio = [&](const char* id, const std::vector<std::pair<double, std::string>>& runs) {
    if (runs.empty()) return;
    const Group* g = Find(groups, runs.front().second, true);
    if (g == nullptr || g->compared == 0) return;
    ClaimResult r{id};
    r.ours = g->mujoco_step_ms / g->scm_step_ms;
    r.values = {{"scm_step_ms", g->scm_step_ms}, {"mujoco_step_ms", g->mujoco_step_ms}};
    r.note = Describe(*g) + ": mujoco " + FormatShort(g->mujoco_step_ms) + " ms / scm " + FormatShort(g->scm_step_ms) +
             " ms a step" + kBaselineNote;
    out.push_back(r);
  };
  ratio("tpush.euler_speedup", euler);
  ratio("tpush.rk4_time_ratio", rk4);
  if (!rk4.empty()) {
    if (const Group* g = Find(groups, rk4.front().second, true); g != nullptr && g->compared > 0) {
      ClaimResult d{"tpush.com_distance_cm"};
      d.ours = g->distance_cm;
      d.note = Describe(*g) + ": mean distance between the final COMs of scm and mujoco";
      out.push_back(d);
      ClaimResult a{"tpush.rotation_difference_deg"};
      a.ours = g->rotation_deg;
      a.note = Describe(*g) + ": mean difference of the final yaws";
      out.push_back(a);
    }
    if (const Group* fine = Find(groups, rk4.front().second, true), *coarse = Find(groups, rk4.front().second, false);
        fine != nullptr && coarse != nullptr && fine != coarse && fine->compared > 0 && coarse->compared > 0) {
      ClaimResult r{"tpush.point_count_independence"};
      r.ours = fine->scm_step_ms / coarse->scm_step_ms;
      r.values = {{"fine_points", fine->points}, {"coarse_points", coarse->points}};
      r.note = rk4.front().second + ": scm " + FormatShort(fine->scm_step_ms) + " ms a step with " + Points(fine->points) +
               " T points, " + FormatShort(coarse->scm_step_ms) + " ms with " + Points(coarse->points) +
               " (one CPU thread: every T point within 36 separation temperatures of the field's minimum gets "
               "its SSDF, and their number grows with the points; the paper's GPU evaluates all pairs in one kernel)";
      out.push_back(r);
    }
    // The largest RK4 timestep up to which no fine-cloud replay diverged.
    ClaimResult d{"tpush.divergence_dt_ms"};
    std::string per_run;
    for (const auto& [ms, label] : rk4) {
      const Group* g = Find(groups, label, true);
      if (g == nullptr) continue;
      per_run += (per_run.empty() ? "" : "; ") + label + ": " + std::to_string(g->diverged) + " of " + std::to_string(g->replays) +
                 " diverged, COM distance " + FormatShort(g->distance_cm) + " cm";
      if (g->diverged > 0) break;
      d.ours = ms;
    }
    std::string coarse_runs;
    for (const auto& [ms, label] : rk4) {
      const Group* fine = Find(groups, label, true), *coarse = Find(groups, label, false);
      if (coarse == nullptr || coarse == fine) continue;
      coarse_runs += (coarse_runs.empty() ? "" : ", ") + label + " " + std::to_string(coarse->diverged) + " of " +
                     std::to_string(coarse->replays);
    }
    if (!per_run.empty()) {
      if (d.ours == rk4.back().first) d.ours_text = FormatShort(d.ours) + " (no divergence up to the sweep's largest)";
      d.note = "RK4, finest cloud: " + per_run + (coarse_runs.empty() ? "" : "; coarsest cloud diverged: " + coarse_runs);
      out.push_back(d);
    }
  }
  return out;
}

}  // namespace arena
