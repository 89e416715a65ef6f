#include "experiments/potential_cost/potential_cost.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "core/common/deadline.h"
#include "core/common/error.h"
#include "experiments/common/settings/case_params.h"
#include "experiments/common/settings/settings.h"
#include "experiments/common/summaries/loglog_fit.h"
#include "experiments/common/sweeps/model_sweep.h"
#include "experiments/common/meters/potential_timing.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "experiments/common/summaries/table_stats.h"
#include "models/incremental_potential/contact_potential.h"
#include "models/registry.h"
#include "scenes/hull_pair_scenes.h"

namespace arena {

// File-local helpers in a named namespace: the unity build may share a unit with other files
// (docs/build.md).
namespace potential_cost_detail {

// ipc's dhat range ends at 1 m (models/ipc/ipc_simulator.h), so the all-pairs method needs
// hulls with 4 radius + 2 gap within it.
constexpr double kMaxAllPairsDhat = 1.0;

// One timed method: a model and the options that select its variant.
struct Method {
  std::string name;
  std::string model;
  OptionMap options;
};

// The sweep's geometry, read once.
struct Geometry {
  double radius = 0.0, gap = 0.0, activation = 0.0;
  double AllPairsDhat() const { return 4.0 * radius + 2.0 * gap; }
};

// The option of a model that the activation distance sets, "" for a model without one.
std::string ActivationOption(const std::string& model) {
  if (model == "sdrs") return "x0";
  if (model == "ipc") return "dhat";
  return "";
}

std::vector<Method> MethodsOf(const std::string& model, const Geometry& g, bool all_pairs) {
  std::vector<Method> out;
  const std::string key = ActivationOption(model);
  Method m{model, model, {}};
  if (!key.empty()) m.options[key] = FormatValue(g.activation);
  out.push_back(m);
  if (model == "ipc" && all_pairs) out.push_back({"ipc_all_pairs", model, {{"dhat", FormatValue(g.AllPairsDhat())}}});
  return out;
}

// The config's keys and a case's parameters (besides activation_m, the method's model option;
// the columns are listed in columns(), in the CSV's order).
struct PotentialCostSettings {
  std::vector<std::int64_t> vertices_list;
  std::int64_t hulls_per_size = 0;
  std::int64_t config_eval_repeats = 0;
  std::int64_t all_pairs_eval_repeats = 0;
  std::int64_t all_pairs_max_vertices = 0;
  double activation_distance_m = 0.0;
  std::string method;
  std::int64_t vertices = 0, hull = 0, hull_seed = 0, triangles = 0;
  double radius_m = 0.0, gap_m = 0.0;
  std::int64_t eval_repeats = 0;

  template <class V>
  void VisitFields(V&& v) {
    constexpr SettingRole kConfig = SettingRole::kConfig, kCase = SettingRole::kCase;
    const Range repeats = Closed(1, kMaxIterationsPerCase);
    v("vertices", vertices_list, "points per hull (the axis)", "", std::nullopt, SettingRole::kConfigList);
    v("hulls_per_size", hulls_per_size, "random hull pairs per size", "", Closed(1, 100), kConfig);
    v("eval_repeats", config_eval_repeats, "evaluations timed", "", repeats, kConfig);
    v("all_pairs_eval_repeats", all_pairs_eval_repeats, "evaluations timed of ipc_all_pairs", "", repeats, kConfig);
    v("all_pairs_max_vertices", all_pairs_max_vertices, "the most points per hull ipc_all_pairs runs", "",
      Closed(0, 1000), kConfig);
    v("radius_m", radius_m, "radius of the sphere the hulls' points lie on (m)", "m", Positive(10.0));
    v("gap_m", gap_m, "exact distance between the two hulls (m)", "m", Positive(1.0));
    v("activation_distance_m", activation_distance_m, "sdrs's x0 and ipc's dhat", "m", Closed(1e-6, 0.9), kConfig);
    v("method", method, "sdrs, ipc, ipc_all_pairs or the model", "", std::nullopt, kCase);
    v("vertices", vertices, "points per hull (all of them hull vertices)", "", std::nullopt, kCase);
    v("hull", hull, "which random hull pair of this size", "", std::nullopt, kCase);
    v("hull_seed", hull_seed, "seed of the pair's points", "", std::nullopt, kCase);
    v("triangles", triangles, "triangles per hull, 2V - 4", "", std::nullopt, kCase);
    v("eval_repeats", eval_repeats, "evaluations timed", "", std::nullopt, kCase);
  }
};

std::shared_ptr<const Scene> HullPair(const PotentialCostSettings& s) {
  HullPairSceneOptions o;
  o.vertices = static_cast<int>(s.vertices);
  o.seed = static_cast<std::uint64_t>(s.hull_seed);
  o.radius = s.radius_m;
  o.gap = s.gap_m;
  return RandomHullPairScene(o);
}

std::vector<std::int64_t> CheckedVertices(const ProfileConfig& config, const std::vector<std::int64_t>& v) {
  if (v.empty()) throw InvalidArgument(config.file() + ": vertices: empty list");
  for (std::int64_t n : v) {
    // 1000: one evaluation cannot be interrupted by the case's deadline (all pairs: ~4e6 pairs).
    if (n < 4 || n > 1000) {
      throw InvalidArgument(config.file() + ": vertices: " + std::to_string(n) + " is outside [4, 1000]");
    }
    if (std::count(v.begin(), v.end(), n) > 1) {
      throw InvalidArgument(config.file() + ": vertices: " + std::to_string(n) + " is listed twice");
    }
  }
  return v;
}

// Terms the potential evaluated with nonzero derivatives (ContactPotential::ActiveTerms): sdrs's
// vertices within x0 of the plane, ipc's primitive pairs within dhat; NaN for another model.
double Terms(MeshPotential& mesh) { return mesh.contact_potential().ActiveTerms(); }

// Per vertex count, the median over the hull pairs of `column` for `method` (failed rows out).
std::map<double, double> Series(const ResultTable& table, const std::string& method, const std::string& column) {
  const ResultTable t = table.Filter("method", method).FilterBool("failed", false);
  std::map<double, double> out;
  for (const std::string& v : t.Distinct("vertices")) {
    const double median = Median(t.Filter("vertices", v), column);
    if (std::isfinite(median)) out[std::stod(v)] = median;
  }
  return out;
}



std::string Seconds(double s) { return FormatShort(s) + " s"; }

std::string SizeRange(const std::map<double, double>& s) {
  return "V = " + FormatShort(s.begin()->first) + " to " + FormatShort(s.rbegin()->first) + " (" +
         std::to_string(s.size()) + " sizes)";
}

}  // namespace potential_cost_detail

std::vector<Column> PotentialCostExperiment::columns() const {
  return {
      {"method", "sdrs, ipc (dhat = x0: the pairs within it), ipc_all_pairs (every primitive pair) or the model", false,
       ColumnType::kText},
      {"vertices", "points per hull (all of them hull vertices)"},
      {"hull", "which random hull pair of this size (0, 1, ...): the same pair for every method"},
      {"hull_seed", "seed of the pair's points"},
      {"triangles", "triangles per hull, 2V - 4, counted on the model's meshes"},
      {"radius_m", "radius of the sphere the hulls' points lie on (m)"},
      {"gap_m", "exact distance between the two hulls (m)"},
      {"activation_m", "sdrs's x0 or ipc's dhat for this method (m); empty for a model without one"},
      {"eval_repeats", "evaluations timed"},
      {"potential", "the contact potential (the model's units)"},
      {"terms", "terms with nonzero derivatives: sdrs's vertices within x0 of the plane, ipc's primitive pairs within dhat"},
      {"eval_first_s", "seconds of the first evaluation of potential + gradient + projected Hessian (sdrs: cold plane)", true},
      {"eval_s", "median seconds of an evaluation (sdrs: warm-started from the converged plane)", true},
      {"failed", "the potential was not finite and positive, or the deadline passed", false, ColumnType::kBool},
      {"failure", "why", false, ColumnType::kText},
  };
}

Sweep PotentialCostExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  using namespace potential_cost_detail;
  const auto base = ReadSettings<PotentialCostSettings>(config);
  const std::vector<std::int64_t> vertices = CheckedVertices(config, base.vertices_list);
  const std::int64_t hulls = base.hulls_per_size;
  const std::int64_t repeats = base.config_eval_repeats;
  const std::int64_t all_pairs_repeats = base.all_pairs_eval_repeats;
  const std::int64_t all_pairs_max = base.all_pairs_max_vertices;
  Geometry g;
  g.radius = base.radius_m;
  g.gap = base.gap_m;
  g.activation = base.activation_distance_m;
  if (g.gap >= g.activation) {
    throw InvalidArgument(config.file() + ": gap_m (" + FormatValue(g.gap) + ") must be below activation_distance_m (" +
                          FormatValue(g.activation) + "): the potentials would be zero");
  }
  if (all_pairs_max > 0 && g.AllPairsDhat() > kMaxAllPairsDhat) {
    throw InvalidArgument(config.file() + ": radius_m: ipc_all_pairs needs 4 radius_m + 2 gap_m <= 1 m (ipc's largest "
                          "dhat); set all_pairs_max_vertices = 0 or a smaller radius");
  }
  Sweep sweep;
  std::vector<Method> methods;
  std::map<std::string, std::vector<ModelSetting>> settings;
  const std::shared_ptr<const Scene> probe = RandomHullPairScene({.vertices = 10, .radius = g.radius, .gap = g.gap});
  for (const std::string& model : models) {
    if (std::string why = WhyNoContactPotential(model, probe); !why.empty()) {
      sweep.notes.push_back(model + ": skipped (" + why + ")");
      continue;
    }
    std::vector<std::string> controlled;
    if (!ActivationOption(model).empty()) controlled.push_back(ActivationOption(model));
    settings[model] = ExpandModelSweep(config, model, controlled, "set activation_distance_m instead");
    for (Method& m : MethodsOf(model, g, all_pairs_max > 0)) methods.push_back(std::move(m));
  }
  double per_size = 0.0;
  for (const Method& m : methods) per_size += static_cast<double>(settings[m.model].size());
  CheckSweepSize(config, name(), {{"vertices", static_cast<double>(vertices.size())},
                                  {"hulls_per_size", static_cast<double>(hulls)},
                                  {"runnable (method, swept option value)", per_size}});
  bool noted_cap = false;
  // The methods of one hull pair back to back: their timings share the machine's state.
  for (std::int64_t v : vertices) {
    for (std::int64_t h = 0; h < hulls; ++h) {
      const std::string pair_key = "V=" + std::to_string(v) + "/hull=" + std::to_string(h);
      const std::uint64_t hull_seed = DeriveSeed(name(), pair_key) >> 11;  // exact as a double
      for (const Method& m : methods) {
        const bool all_pairs = m.name == "ipc_all_pairs";
        if (all_pairs && v > all_pairs_max) {
          if (!noted_cap) sweep.notes.push_back("ipc_all_pairs: skipped above V = " + std::to_string(all_pairs_max) +
                                                " (all_pairs_max_vertices)");
          noted_cap = true;
          continue;
        }
        for (const ModelSetting& setting : settings[m.model]) {
          Case c;
          c.index = static_cast<int>(sweep.cases.size());
          c.model = m.model;
          c.id = m.model + "/" + m.name + "/" + pair_key + setting.IdSuffix();
          c.model_options = setting.options;
          for (const auto& [k, value] : m.options) c.model_options[k] = value;
          const std::string key = ActivationOption(m.model);
          PotentialCostSettings one = base;
          one.method = m.name;
          one.vertices = v;
          one.hull = h;
          one.hull_seed = static_cast<std::int64_t>(hull_seed);
          one.triangles = 2 * v - 4;
          one.eval_repeats = all_pairs ? all_pairs_repeats : repeats;
          c.params = CaseParams(one);
          c.params.emplace_back("activation_m", key.empty() ? Value{} : Value{ParamValue(c.model_options.at(key))});
          c.seed = DeriveSeed(name(), c.id);
          sweep.cases.push_back(std::move(c));
        }
      }
    }
  }
  return sweep;
}

std::vector<Row> PotentialCostExperiment::Run(const Case& c) const {
  using namespace potential_cost_detail;
  const auto settings = DecodeSettings<PotentialCostSettings>(c);
  const std::shared_ptr<const Scene> scene = HullPair(settings);
  {
    // One untimed evaluation on a simulator of its own first: the timed one's first evaluation
    // stays cold (no warm start), but the process's one-time costs (first allocations, code
    // and data not yet in cache) do not land on whichever case happens to run first.
    std::unique_ptr<Simulator> warmup = MakeSimulator(c.model, scene, c.model_options);
    TimeContactPotential(AsContactPotentialModel(*warmup), DefaultState(*scene), 1);
  }
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, scene, c.model_options);
  MeshPotential& mesh = *AsContactPotentialModel(*sim).mesh_potential();
  std::int64_t triangles = 0;
  for (const ColliderMesh& m : mesh.meshes()) triangles = std::max<std::int64_t>(triangles, m.triangles.rows());
  if (triangles != settings.triangles) {
    throw Error("a hull has " + std::to_string(triangles) + " triangles, not 2V - 4 = " + std::to_string(settings.triangles));
  }
  const int repeats = static_cast<int>(settings.eval_repeats);
  const PotentialTiming t = TimeContactPotential(*sim, DefaultState(*scene), repeats);
  Row row;
  row["potential"] = t.value;
  row["terms"] = Terms(mesh);
  row["eval_first_s"] = t.first_s;
  row["eval_s"] = t.median_s;
  std::string failure;
  // Both hulls are gap < activation distance apart: every method's potential is positive there.
  if (!(t.value > 0.0) || !std::isfinite(t.value)) failure = "the potential is " + FormatShort(t.value) + ", not finite and > 0";
  if (t.repeats < repeats && failure.empty()) failure = DeadlineMessage();
  row["failed"] = !failure.empty();
  row["failure"] = failure;
  return {row};
}

std::vector<ClaimResult> PotentialCostExperiment::Summarize(const ResultTable& table) const {
  using namespace potential_cost_detail;
  std::vector<ClaimResult> out;
  const auto sdrs_cold = Series(table, "sdrs", "eval_first_s"), sdrs_warm = Series(table, "sdrs", "eval_s");
  const auto ipc = Series(table, "ipc", "eval_s"), all_pairs = Series(table, "ipc_all_pairs", "eval_s");
  if (const double n = LargestCommonSize(sdrs_cold, ipc); n > 0.0) {
    ClaimResult r{"potential_cost.speedup"};
    r.ours = ipc.at(n) / sdrs_cold.at(n);
    r.values = {{"vertices", n}, {"ipc_eval_s", ipc.at(n)}, {"sdrs_cold_s", sdrs_cold.at(n)},
                {"sdrs_warm_s", sdrs_warm.at(n)}, {"warm_speedup", ipc.at(n) / sdrs_warm.at(n)}};
    r.note = "ipc (dhat = x0) / sdrs (cold plane) at V = " + FormatShort(n) + ", medians over the hull pairs: ipc " +
             Seconds(ipc.at(n)) + ", sdrs " + Seconds(sdrs_cold.at(n)) + " cold, " + Seconds(sdrs_warm.at(n)) +
             " warm (ratio " + FormatShort(ipc.at(n) / sdrs_warm.at(n)) + ")";
    if (all_pairs.count(n) > 0) {
      r.values["all_pairs_speedup"] = all_pairs.at(n) / sdrs_cold.at(n);
      r.note += "; every primitive pair: " + Seconds(all_pairs.at(n)) + " (ratio " +
                FormatShort(all_pairs.at(n) / sdrs_cold.at(n)) + ")";
    }
    out.push_back(r);
  }
  // The paper's O(V^2) is the mesh's worst case, "one [term] for each pair of geometric
  // primitives": the exponent the claim reads is ipc's with every pair active; ipc's at dhat = x0
  // (only the pairs near the contact) is reported beside it.
  if (sdrs_cold.size() >= 2 && all_pairs.size() >= 2) {
    ClaimResult r{"potential_cost.scaling"};
    r.ours = LogLogSlope(sdrs_cold);
    r.values = {{"ipc_exponent", LogLogSlope(all_pairs)}, {"ipc_dhat_exponent", LogLogSlope(ipc)}, {"sdrs_warm_exponent", LogLogSlope(sdrs_warm)}};
    r.note = "least-squares log-log slopes of seconds against V: sdrs cold " + FormatShort(r.ours) + ", warm " +
             FormatShort(LogLogSlope(sdrs_warm)) + " (" + SizeRange(sdrs_cold) + "); ipc with every primitive pair " +
             FormatShort(LogLogSlope(all_pairs)) + " (" + SizeRange(all_pairs) + "); ipc at dhat = x0 " + FormatShort(LogLogSlope(ipc));
    out.push_back(r);
  }
  return out;
}

std::vector<Observation> PotentialCostExperiment::Observe(const ResultTable& table) const {
  using namespace potential_cost_detail;
  std::vector<Observation> out;
  for (const std::string& method : table.Distinct("method")) {
    for (const std::string column : {"eval_s", "terms"}) {
      const std::map<double, double> series = Series(table, method, column);
      if (series.size() < 2) continue;
      Observation o;
      o.quantity = column == "eval_s" ? "eval_loglog_slope" : "terms_loglog_slope";
      o.model = method;
      o.value = LogLogSlope(series);
      o.note = (column == "eval_s" ? "median seconds of potential + gradient + Hessian" : "terms with derivatives") +
               std::string(" against hull vertices, ") + SizeRange(series);
      out.push_back(o);
    }
  }
  return out;
}

}  // namespace arena
