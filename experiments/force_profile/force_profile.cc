#include "experiments/force_profile/force_profile.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "core/common/deadline.h"
#include "core/common/error.h"
#include "core/common/strings.h"
#include "experiments/common/settings/settings.h"
#include "experiments/common/sweeps/model_sweep.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "experiments/common/summaries/table_stats.h"
#include "models/registry.h"
#include "scenes/force_profile_scenes.h"

namespace arena {

namespace force_profile {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kContactDistance = kForceProbeFixedRadius + kForceProbeMovingRadius;

struct Sample {
  double x = 0.0, y = 0.0;
};

// The samples of a path: "line" along y at x = offset, or "grid" over the x-y square.
std::vector<Sample> PathSamples(const std::string& path, double offset, double half, int n) {
  std::vector<Sample> out;
  const auto at = [&](int k) { return n == 1 ? 0.0 : -half + 2.0 * half * k / (n - 1); };
  if (path == "line") {
    for (int k = 0; k < n; ++k) out.push_back({offset, at(k)});
  } else {
    for (int i = 0; i < n; ++i) {
      for (int k = 0; k < n; ++k) out.push_back({at(i), at(k)});
    }
  }
  return out;
}

// The probe at rest at (x, y, 0), one step: its mean contact force m v+ / dt (world frame).
Row ForceAt(Simulator& sim, const Sample& p) {
  const Scene& scene = sim.scene();
  State s = DefaultState(scene);
  s.q.head<3>() = Vec3(p.x, p.y, 0.0);
  s.v.setZero();
  Row row;
  row["x_m"] = p.x;
  row["y_m"] = p.y;
  row["gap_m"] = std::hypot(p.x, p.y) - kContactDistance;
  const StepReport r = sim.Step(s, {});
  std::string failure;
  if (!r.ok()) {
    failure = std::string(ToString(r.status)) + ": " + r.message;  // no force: its cells stay empty
  } else {
    const Quat q(s.q[3], s.q[4], s.q[5], s.q[6]);  // free joint: (p, w x y z), v = (omega_B, v_B)
    const Vec3 f = kForceProbeMass * (q.normalized() * Vec3(s.v.segment<3>(3))) / sim.timestep();
    row["fx_n"] = f.x();
    row["fy_n"] = f.y();
    row["fz_n"] = f.z();
    row["force_n"] = f.norm();
  }
  row["failed"] = !failure.empty();
  row["failure"] = failure;
  return row;
}

// One line's samples of one model, in y order, that stepped: (y, gap, f_y, |f|).
struct Profile {
  std::vector<double> y, gap, fy, magnitude;
};

Profile LineProfile(const ResultTable& table, const std::string& model, double offset) {
  const ResultTable t = table.Filter("model", model).Filter("path", "line");
  std::vector<std::array<double, 4>> rows;
  for (int i = 0; i < t.num_rows(); ++i) {
    if (t.Number(i, "line_offset_m") != offset || !std::isfinite(t.Number(i, "force_n"))) continue;
    rows.push_back({t.Number(i, "y_m"), t.Number(i, "gap_m"), t.Number(i, "fy_n"), t.Number(i, "force_n")});
  }
  std::sort(rows.begin(), rows.end());
  Profile p;
  for (const auto& r : rows) {
    p.y.push_back(r[0]);
    p.gap.push_back(r[1]);
    p.fy.push_back(r[2]);
    p.magnitude.push_back(r[3]);
  }
  return p;
}

double MaxAbs(const std::vector<double>& v) {
  double m = 0.0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

std::vector<double> Differences(const std::vector<double>& v) {
  std::vector<double> d;
  for (std::size_t k = 1; k < v.size(); ++k) d.push_back(v[k] - v[k - 1]);
  return d;
}

struct Smoothness {
  double jump = kNaN, bend = kNaN, reach_m = kNaN;
  int samples = 0;
};

Smoothness Measure(const Profile& p) {
  Smoothness s;
  s.samples = static_cast<int>(p.y.size());
  if (p.y.size() < 3) return s;
  const double f_max = MaxAbs(p.magnitude), fy_max = MaxAbs(p.fy);
  if (fy_max > 0.0) s.jump = MaxAbs(Differences(p.fy)) / fy_max;
  const std::vector<double> d1 = Differences(p.magnitude);
  if (MaxAbs(d1) > 0.0) s.bend = MaxAbs(Differences(d1)) / MaxAbs(d1);
  for (std::size_t k = 0; k < p.y.size(); ++k) {
    if (p.magnitude[k] > 1e-3 * f_max && (std::isnan(s.reach_m) || p.gap[k] > s.reach_m)) s.reach_m = p.gap[k];
  }
  return s;
}

// The lines' x offsets in the table, ascending (the grid's rows have none).
std::vector<double> LineOffsets(const ResultTable& table) {
  std::vector<double> offsets;
  for (const std::string& text : table.Distinct("line_offset_m")) {
    char* end = nullptr;
    const double x = std::strtod(text.c_str(), &end);
    if (end != text.c_str() && std::isfinite(x)) offsets.push_back(x);
  }
  std::sort(offsets.begin(), offsets.end());
  return offsets;
}

// The config's keys and a case's parameters.
struct ForceProfileSettings {
  double timestep_s = 0.0;
  std::int64_t line_samples = 0, grid_samples = 0;
  std::vector<double> line_offsets_m;
  std::string path;
  std::optional<double> line_offset_m;
  std::int64_t samples = 0;
  double half_width_m = 0.0;

  template <class V>
  void VisitFields(V&& v) {
    constexpr SettingRole kConfig = SettingRole::kConfig, kCase = SettingRole::kCase;
    v("timestep_s", timestep_s, "step length", "s", Closed(1e-6, 0.1), kConfig);
    v("line_samples", line_samples, "samples of each line", "", Closed(3, 100'000), kConfig);
    v("grid_samples", grid_samples, "samples per side of the grid (0: no grid)", "", Closed(0, 1'000), kConfig);
    v("line_offsets_m", line_offsets_m, "x of each line", "m", Closed(0.0, 10.0), kConfig);
    v("path", path, "line (along y at x = line_offset_m) or grid (the x-y square)", "", std::nullopt, kCase);
    v("line_offset_m", line_offset_m, "x of the line (m); empty for the grid", "m", std::nullopt, kCase);
    v("samples", samples, "samples of the path (the grid's per side)", "", std::nullopt, kCase);
    v("half_width_m", half_width_m, "the line runs over y in [-h, h], the grid over the square of half width h (m)",
      "m", Closed(0.01, 10.0));
  }
};

}  // namespace force_profile

std::vector<Column> ForceProfileExperiment::columns() const {
  std::vector<Column> columns = ParamColumns<force_profile::ForceProfileSettings>();
  const std::vector<Column> rows = {
      {"x_m", "the probe's centre x (m)"},
      {"y_m", "the probe's centre y (m)"},
      {"gap_m", "distance between the spheres' surfaces (m): |centre| - 0.15, < 0 overlapping"},
      {"fx_n", "contact force on the probe, x (N): m v+ / dt after one step from rest"},
      {"fy_n", "contact force on the probe, y (N)"},
      {"fz_n", "contact force on the probe, z (N)"},
      {"force_n", "its magnitude (N)"},
      {"failed", "the step failed (a barrier model cannot start overlapping)", false, ColumnType::kBool},
      {"failure", "the step's status and message", false, ColumnType::kText},
  };
  columns.insert(columns.end(), rows.begin(), rows.end());
  return columns;
}

Sweep ForceProfileExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const auto settings = ReadSettings<force_profile::ForceProfileSettings>(config);
  const std::shared_ptr<const Scene> scene = ForceProbeScene();
  Sweep sweep;
  for (const std::string& model : models) {
    if (const std::string why = CheckSupport(FindModel(model).capabilities, *scene); !why.empty()) {
      sweep.notes.push_back(model + ": skipped (" + why + ")");
      continue;
    }
    for (const ModelSetting& setting : ExpandModelSweep(config, model, {"timestep"}, "set timestep_s instead")) {
      auto add = [&](const std::string& path, double offset, std::int64_t n) {
        Case c;
        c.index = static_cast<int>(sweep.cases.size());
        c.model = model;
        c.id = model + "/" + path + (path == "line" ? "/x=" + FormatValue(offset) : "") + setting.IdSuffix();
        c.model_options = setting.options;
        c.model_options["timestep"] = FormatValue(settings.timestep_s);
        force_profile::ForceProfileSettings one = settings;
        one.path = path;
        one.samples = n;
        if (path == "line") one.line_offset_m = offset;
        c.params = CaseParams(one);
        c.seed = DeriveSeed(name(), c.id);
        sweep.cases.push_back(std::move(c));
      };
      for (double x : settings.line_offsets_m) add("line", x, settings.line_samples);
      if (settings.grid_samples > 0) add("grid", 0.0, settings.grid_samples);
    }
  }
  return sweep;
}

std::vector<Row> ForceProfileExperiment::Run(const Case& c) const {
  using namespace force_profile;
  const auto settings = DecodeSettings<ForceProfileSettings>(c);
  const double offset = settings.path == "line" ? settings.line_offset_m.value() : 0.0;
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, ForceProbeScene(), c.model_options);
  std::vector<Row> rows;
  for (const Sample& p : PathSamples(settings.path, offset, settings.half_width_m, static_cast<int>(settings.samples))) {
    if (DeadlinePassed()) throw Error(DeadlineMessage());
    rows.push_back(ForceAt(*sim, p));
  }
  return rows;
}

std::vector<Observation> ForceProfileExperiment::Observe(const ResultTable& table) const {
  using namespace force_profile;
  std::vector<Observation> out;
  for (const std::string& model : table.Distinct("model")) {
    for (double x : LineOffsets(table)) {
      const Smoothness s = Measure(LineProfile(table, model, x));
      const std::string where = "line x = " + FormatShort(x) + " m, " + std::to_string(s.samples) + " samples that stepped";
      out.push_back({"jump", model, s.jump, "", where + ": max |D f_y| / max |f_y|"});
      out.push_back({"bend", model, s.bend, "", where + ": max |D2 |f|| / max |D |f||"});
      out.push_back({"reach", model, s.reach_m, "m", where + ": largest gap with |f| > 1e-3 max |f|"});
    }
  }
  return out;
}

std::vector<ClaimResult> ForceProfileExperiment::Summarize(const ResultTable& table) const {
  using namespace force_profile;
  std::vector<ClaimResult> out;
  const std::vector<double> offsets = LineOffsets(table);
  if (offsets.empty()) return out;
  // Beside the centres (the largest offset): no concentric state, so what remains of a kink is
  // the contact's onset.
  const double beside = offsets.back();
  const Smoothness scm = Measure(LineProfile(table, "scm", beside));
  const Smoothness mujoco = Measure(LineProfile(table, "mujoco", beside));
  if (scm.samples > 0) {
    ClaimResult r{"force_profile.scm_smooth"};
    r.ours = scm.bend;
    r.values = {{"reach_m", scm.reach_m}, {"samples", scm.samples}};
    if (mujoco.samples > 0) r.values["mujoco_bend"] = mujoco.bend;
    r.note = "line x = " + FormatShort(beside) + " m, " + std::to_string(scm.samples) +
             " samples: max |D2 |f|| / max |D |f|| = " + FormatShort(scm.bend) + " (mujoco " + FormatShort(mujoco.bend) +
             "); |f| > 1e-3 of its largest up to a gap of " + FormatShort(scm.reach_m) + " m";
    out.push_back(r);
  }
  if (mujoco.samples > 0) {
    ClaimResult r{"force_profile.mujoco_discontinuous"};
    r.ours = mujoco.bend;
    r.values = {{"samples", mujoco.samples}};
    std::string jumps;
    for (double x : offsets) {
      const Smoothness s = Measure(LineProfile(table, "mujoco", x));
      r.values["jump_x" + std::to_string(static_cast<int>(std::lround(1000 * x))) + "mm"] = s.jump;
      jumps += (jumps.empty() ? "" : ", ") + FormatShort(s.jump) + " at x = " + FormatShort(x) + " m";
    }
    r.note = "line x = " + FormatShort(beside) + " m: max |D2 |f|| / max |D |f|| = " + FormatShort(mujoco.bend) +
             " (a kink where contact begins); largest jump of f_y between neighbours over max |f_y|: " + jumps;
    out.push_back(r);
  }
  return out;
}

}  // namespace arena
