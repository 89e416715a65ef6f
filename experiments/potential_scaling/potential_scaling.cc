#include "experiments/potential_scaling/potential_scaling.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <vector>

#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "core/common/deadline.h"
#include "core/common/error.h"
#include "experiments/common/settings/settings.h"
#include "experiments/common/summaries/loglog_fit.h"
#include "experiments/common/sweeps/model_sweep.h"
#include "experiments/common/meters/outcome_checks.h"
#include "experiments/common/meters/potential_timing.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "experiments/common/summaries/table_stats.h"
#include "models/incremental_potential/contact_potential.h"
#include "models/registry.h"
#include "scenes/longrange_scenes.h"
#include "scenes/scene_registry.h"

namespace arena {

namespace {

// What one step may not do (experiments/common/meters/outcome_checks.h): a ball sinking half its radius
// into another or the ground, the scene gaining more energy than lifting every ball 0.1 m (one
// 0.04 s step from rest plus a 2 m/s cue ball cannot), or a ball leaving the table's 100 m.
constexpr OutcomeLimits kPotentialScalingLimits{.max_penetration_m = 0.25, .max_energy_gain_height_m = 0.1, .escape_radius_m = 100.0};

// The options the experiment sets itself: the tessellation is its axis, brute force its method.
const std::vector<std::string> kControlled = {"sphere_vertices", "brute_force"};

// One timed method: a model and the options that select its variant.
struct Method {
  std::string name;   // bsh, brute, or the model's own name
  std::string model;
  OptionMap options;
};

// longrange runs twice (seed 004 Fig. 6 compares its hierarchy with brute force); any other
// incremental-potential model once, under its own name.
std::vector<Method> MethodsOf(const std::string& model) {
  if (model == "longrange") {
    return {{"bsh", model, {{"brute_force", "false"}}}, {"brute", model, {{"brute_force", "true"}}}};
  }
  return {{model, model, {}}};
}

// The billiards with its balls `ground_gap` above the ground (the authors' layout: 0.105 m).
std::shared_ptr<const Scene> Billiards(double ground_gap) { return BilliardsScene(ground_gap); }

// The balls: colliders that are spheres (the ground is a half-space).
int CountBalls(const Scene& scene) {
  int n = 0;
  for (const Collider& c : scene.colliders) n += std::holds_alternative<Sphere>(c.shape) ? 1 : 0;
  return n;
}

// The scene's initial configuration with the cue ball rolling towards the rack's apex.
State CueState(const Scene& scene, double cue_speed) {
  State s = DefaultState(scene);
  const int cue = scene.model.FindBody("cue");
  if (cue < 0) throw InvalidArgument("potential_scaling: the billiards scene has no body 'cue'");
  s.v[scene.model.body(cue).idx_v + 4] = -cue_speed;  // v_y of the free joint's (omega, v)
  return s;
}

// `start` with every ball lowered or raised so that its mesh's lowest vertex is `gap` above the
// ground's top face z = 0: a tessellated ball's lowest vertex lies above its sphere's bottom by
// up to centimetres, which would leave IPC's dhat empty at any sphere gap below that.
State PlaceOnMeshGap(Simulator& sim, const State& start, double gap) {
  State s = start;
  ContactConfiguration x;
  RequireMeshPotential(sim).MeshConfiguration(s.q, &x);
  const Scene& scene = sim.scene();
  for (size_t m = 0; m < x.world.size(); ++m) {
    const int body = (*x.meshes)[m].body;
    if (body == kWorldBody) continue;
    s.q[scene.model.body(body).idx_q + 2] -= x.world[m].col(2).minCoeff() - gap;  // free joint: (p, quaternion)
  }
  return s;
}

// Triangles of the moving meshes (the balls; the ground box is static).
std::int64_t BallTriangles(Simulator& sim) {
  std::int64_t n = 0;
  for (const ColliderMesh& m : RequireMeshPotential(sim).meshes()) n += m.body == kWorldBody ? 0 : m.triangles.rows();
  return n;
}

// The config's keys and a case's parameters.
struct PotentialScalingSettings {
  std::vector<std::int64_t> vertices_list;
  std::int64_t config_step_repeats = 0;
  std::int64_t step_max_triangles = 0, brute_force_max_triangles = 0, brute_force_step_max_triangles = 0;
  std::vector<double> ground_gaps_m;
  std::string method;
  std::int64_t vertices_per_ball = 0, triangles = 0;
  double ground_gap_m = 0.0;
  std::int64_t eval_repeats = 0, step_repeats = 0;
  double cue_speed_mps = 0.0;

  template <class V>
  void VisitFields(V&& v) {
    constexpr SettingRole kConfig = SettingRole::kConfig, kCase = SettingRole::kCase;
    const Range triangle_cap = Closed(0, 100'000'000);
    v("vertices_per_ball", vertices_list, "Fibonacci points per ball (the axis)", "", std::nullopt,
      SettingRole::kConfigList);
    v("step_repeats", config_step_repeats, "steps timed per case", "", Closed(0, kMaxIterationsPerCase), kConfig);
    v("step_max_triangles", step_max_triangles, "the most triangles whose step is timed", "", triangle_cap, kConfig);
    v("brute_force_max_triangles", brute_force_max_triangles, "the most triangles brute runs", "", triangle_cap,
      kConfig);
    // A brute-force step costs several brute-force evaluations (Newton iterations and line search).
    v("brute_force_step_max_triangles", brute_force_step_max_triangles, "the most triangles whose brute step is timed",
      "", triangle_cap, kConfig);
    // The balls' meshes' heights above the ground: the authors' 0.105 m leaves every pair farther
    // apart than IPC's dhat (its potential is then zero and nearly free); a gap below dhat puts all 16
    // balls in IPC's contact with the ground, as the frames of a trajectory do. Each gap once (a
    // repeated one would repeat its cases' ids), each in (0, 1] m.
    v("ground_gap_m", ground_gaps_m, "the balls' meshes' heights above the ground (the axis)", "m", Positive(1.0),
      kConfig);
    v("method", method, "bsh (longrange, its bounding-sphere hierarchy), brute (longrange, every triangle pair) or the "
      "model", "", std::nullopt, kCase);
    v("vertices_per_ball", vertices_per_ball, "Fibonacci points per ball (the models' sphere_vertices)", "",
      std::nullopt, kCase);
    v("triangles", triangles, "triangles of the 16 balls, 16 (2V - 4), counted on the model's meshes", "",
      std::nullopt, kCase);
    v("ground_gap_m", ground_gap_m, "each ball's mesh's lowest vertex above the ground (m): 0.105 the authors' layout, "
      "below dhat in ipc's contact", "m", std::nullopt, kCase);
    v("eval_repeats", eval_repeats, "evaluations of the potential timed", "", Closed(1, kMaxIterationsPerCase));
    v("step_repeats", step_repeats, "steps timed (0: this size's step is not timed)", "", std::nullopt, kCase);
    v("cue_speed_mps", cue_speed_mps, "the cue ball's speed towards the rack at the timed steps' start (m/s)", "m/s",
      Closed(0.0, 100.0));
  }
};

std::vector<std::int64_t> CheckedVertices(const ProfileConfig& config, const std::vector<std::int64_t>& v) {
  if (v.empty()) throw InvalidArgument(config.file() + ": vertices_per_ball: empty list");
  for (std::int64_t n : v) {
    // 12: the models' smallest sphere; 500 (15 936 triangles in all, 2.6 times the paper's
    // finest): one evaluation cannot be interrupted by the case's deadline, so the size is bounded.
    if (n < 12 || n > 500) {
      throw InvalidArgument(config.file() + ": vertices_per_ball: " + std::to_string(n) + " is outside [12, 500]");
    }
    if (std::count(v.begin(), v.end(), n) > 1) {
      throw InvalidArgument(config.file() + ": vertices_per_ball: " + std::to_string(n) + " is listed twice");
    }
  }
  return v;
}

// The step from the cue state, `repeats` times on one simulator (the first cold, the others
// warm-started from the previous step's planes as consecutive frames are): median seconds, the
// last step's Newton iterations and why it failed ("" when it did not).
struct StepTiming {
  double median_s = 0.0;
  int iterations = 0;
  int line_search_evaluations = 0;  // line-search trials (the first of each with its derivatives)
  std::string failure;
};

StepTiming TimeStep(Simulator& sim, const State& start, int repeats) {
  StepTiming out;
  std::vector<double> seconds;
  for (int k = 0; k < repeats; ++k) {
    State s = start;
    const StepReport r = sim.Step(s, Control{});
    seconds.push_back(r.wall_time_s);
    out.iterations = r.iterations;
    if (const SolveBreakdown* solve = sim.last_solve_breakdown()) out.line_search_evaluations = solve->line_search_evaluations;
    if (!r.ok() && out.failure.empty()) out.failure = std::string(ToString(r.status)) + ": " + r.message;
    OutcomeMonitor outcome(sim.scene(), start, kPotentialScalingLimits);
    if (std::string why = outcome.Observe(s); !why.empty() && out.failure.empty()) out.failure = why;
  }
  std::sort(seconds.begin(), seconds.end());
  out.median_s = seconds[seconds.size() / 2];
  return out;
}

// The steps a case times: none beyond the step caps.
std::int64_t StepsAt(const Method& m, std::int64_t triangles, std::int64_t step_cap, std::int64_t brute_step_cap,
                     std::int64_t repeats) {
  const bool capped = triangles > step_cap || (m.name == "brute" && triangles > brute_step_cap);
  return capped ? 0 : repeats;
}

// Which ground gap a series is read at: the authors' layout (the run's largest) or the nearest
// (the smallest: ipc in contact when the run has a gap below dhat). A table without the column
// (one gap) is read whole.
enum class Gap { kLayout, kNearest };

double GapOf(const ResultTable& table, Gap which) {
  if (table.ColumnIndex("ground_gap_m") < 0) return NAN;
  double g = which == Gap::kLayout ? 0.0 : INFINITY;
  for (int i = 0; i < table.num_rows(); ++i) {
    const double x = table.Number(i, "ground_gap_m");
    if (std::isfinite(x)) g = which == Gap::kLayout ? std::max(g, x) : std::min(g, x);
  }
  return g;
}

// The rows of one method at one ground gap with a number in `column`: (triangles, value).
std::map<double, double> Series(const ResultTable& table, const std::string& method, const std::string& column,
                                Gap which = Gap::kLayout) {
  const ResultTable t = table.Filter("method", method);
  const double gap = GapOf(table, which);
  std::map<double, double> out;
  for (int i = 0; i < t.num_rows(); ++i) {
    if (std::isfinite(gap) && t.Number(i, "ground_gap_m") != gap) continue;
    const double y = t.Number(i, column);
    if (std::isfinite(y)) out[t.Number(i, "triangles")] = y;
  }
  return out;
}



std::string Seconds(double s) { return FormatShort(s) + " s"; }

}  // namespace

std::vector<Column> PotentialScalingExperiment::columns() const {
  std::vector<Column> columns = ParamColumns<PotentialScalingSettings>();
  const std::vector<Column> rows = {
      {"potential", "the contact potential at the initial configuration (the model's units)"},
      {"eval_first_s", "seconds of the first evaluation of potential + gradient + projected Hessian (cold)", true},
      {"eval_s", "median seconds of an evaluation of potential + gradient + projected Hessian", true},
      {"step_s", "median seconds of one Simulator::Step from the cue state", true},
      {"newton_iterations", "Newton iterations of the (last) timed step"},
      {"line_search_evaluations", "trials of the (last) timed step's line searches and polish (the first trial of each "
                                  "with its derivatives, kept for the next iterate)"},
      {"failed", "the potential was not finite or a step failed its solver or its outcome check", false, ColumnType::kBool},
      {"failure", "why: the step's status and message, or the outcome violation", false, ColumnType::kText},
  };
  columns.insert(columns.end(), rows.begin(), rows.end());
  return columns;
}

Sweep PotentialScalingExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const auto base = ReadSettings<PotentialScalingSettings>(config);
  const std::vector<std::int64_t> vertices = CheckedVertices(config, base.vertices_list);
  const std::int64_t step_cap = base.step_max_triangles;
  const std::int64_t brute_cap = base.brute_force_max_triangles;
  const std::int64_t brute_step_cap = base.brute_force_step_max_triangles;
  const std::vector<double>& gaps = base.ground_gaps_m;
  const std::shared_ptr<const Scene> scene = Billiards(gaps.front());
  const std::int64_t balls = CountBalls(*scene);
  Sweep sweep;
  std::vector<Method> methods;
  std::map<std::string, std::vector<ModelSetting>> settings;
  for (const std::string& model : models) {
    const std::string why = CheckSupport(FindModel(model).capabilities, *scene);
    if (!why.empty()) {
      sweep.notes.push_back(model + ": skipped (" + why + ")");
      continue;
    }
    settings[model] = ExpandModelSweep(config, model, kControlled, "potential_scaling sets them per case");
    for (Method& m : MethodsOf(model)) methods.push_back(std::move(m));
  }
  double per_size = 0.0;
  for (const Method& m : methods) per_size += static_cast<double>(settings[m.model].size());
  CheckSweepSize(config, name(), {{"vertices_per_ball", static_cast<double>(vertices.size())},
                                  {"ground_gap_m", static_cast<double>(gaps.size())},
                                  {"runnable (method, swept option value)", per_size}});
  // One case: a method with one of its model's swept settings, at V points a ball and the balls'
  // meshes `gap` above the ground.
  auto add = [&](const Method& m, const ModelSetting& setting, std::int64_t v, std::int64_t triangles, double gap) {
    Case c;
    c.index = static_cast<int>(sweep.cases.size());
    c.model = m.model;
    c.id = m.model + "/" + m.name + "/V=" + std::to_string(v) + "/gap=" + FormatValue(gap) +
           setting.IdSuffix();
    c.model_options = setting.options;
    for (const auto& [k, value] : m.options) c.model_options[k] = value;
    c.model_options["sphere_vertices"] = std::to_string(v);
    PotentialScalingSettings one = base;
    one.method = m.name;
    one.vertices_per_ball = v;
    one.triangles = triangles;
    one.ground_gap_m = gap;
    one.step_repeats = StepsAt(m, triangles, step_cap, brute_step_cap, base.config_step_repeats);
    c.params = CaseParams(one);
    c.seed = DeriveSeed(name(), c.id);
    sweep.cases.push_back(std::move(c));
  };
  // The methods of one size back to back: their timings share the machine's state.
  for (double gap : gaps) {
    for (std::int64_t v : vertices) {
      const std::int64_t triangles = balls * (2 * v - 4);
      for (const Method& m : methods) {
        if (m.name == "brute" && triangles > brute_cap) {
          if (gap == gaps.front()) {
            sweep.notes.push_back("brute: skipped at " + std::to_string(triangles) +
                                  " triangles (brute_force_max_triangles = " + std::to_string(brute_cap) + ")");
          }
          continue;
        }
        for (const ModelSetting& setting : settings[m.model]) add(m, setting, v, triangles, gap);
      }
    }
  }
  return sweep;
}

std::vector<Row> PotentialScalingExperiment::Run(const Case& c) const {
  const auto settings = DecodeSettings<PotentialScalingSettings>(c);
  const std::shared_ptr<const Scene> scene = Billiards(settings.ground_gap_m);
  Row row;
  std::string failure;
  State start;
  {
    std::unique_ptr<Simulator> sim = MakeSimulator(c.model, scene, c.model_options);
    Simulator& ip = AsContactPotentialModel(*sim);
    start = PlaceOnMeshGap(ip, CueState(*scene, settings.cue_speed_mps), settings.ground_gap_m);
    const std::int64_t triangles = BallTriangles(ip);
    if (triangles != settings.triangles) {
      throw Error("the balls have " + std::to_string(triangles) + " triangles, not 16 (2V - 4) = " +
                  std::to_string(settings.triangles));
    }
    const PotentialTiming t = TimeContactPotential(ip, start, static_cast<int>(settings.eval_repeats));
    row["potential"] = t.value;
    row["eval_first_s"] = t.first_s;
    row["eval_s"] = t.median_s;
    if (!std::isfinite(t.value)) failure = "the potential is not finite at the initial configuration";
    if (t.repeats < static_cast<int>(settings.eval_repeats) && failure.empty()) failure = DeadlineMessage();
  }
  const int step_repeats = static_cast<int>(settings.step_repeats);
  if (step_repeats > 0 && DeadlinePassed() && failure.empty()) failure = DeadlineMessage();
  if (step_repeats > 0 && !DeadlinePassed()) {
    // A fresh simulator: the step starts cold, not from the evaluations' warm starts.
    std::unique_ptr<Simulator> sim = MakeSimulator(c.model, scene, c.model_options);
    const StepTiming s = TimeStep(*sim, start, step_repeats);
    row["step_s"] = s.median_s;
    row["newton_iterations"] = static_cast<std::int64_t>(s.iterations);
    row["line_search_evaluations"] = static_cast<std::int64_t>(s.line_search_evaluations);
    if (failure.empty()) failure = s.failure;
  }
  row["failed"] = !failure.empty();
  row["failure"] = failure;
  return {row};
}

std::vector<ClaimResult> PotentialScalingExperiment::Summarize(const ResultTable& table) const {
  std::vector<ClaimResult> out;
  const std::map<double, double> bsh = Series(table, "bsh", "eval_s"), brute = Series(table, "brute", "eval_s");
  if (const double n = LargestCommonSize(brute, bsh); n > 0.0) {
    ClaimResult r{"potential_scaling.bsh_vs_brute"};
    r.ours = brute.at(n) / bsh.at(n);
    r.values = {{"triangles", n}, {"brute_eval_s", brute.at(n)}, {"bsh_eval_s", bsh.at(n)}};
    r.note = "median potential + gradient + Hessian at " + FormatShort(n) + " triangles: brute " + Seconds(brute.at(n)) +
             ", BSH " + Seconds(bsh.at(n)) + " (one thread, same run)";
    out.push_back(r);
  }
  if (!bsh.empty()) {
    const auto& [n, t] = *bsh.rbegin();
    ClaimResult r{"potential_scaling.bsh_eval_s"};
    r.ours = t;
    r.values = {{"triangles", n}};
    r.note = "median BSH potential + gradient + Hessian at " + FormatShort(n) + " triangles (one thread)";
    out.push_back(r);
    ClaimResult slope{"potential_scaling.bsh_slope"};
    slope.ours = LogLogSlope(bsh);
    slope.values = {{"sizes", static_cast<double>(bsh.size())}};
    slope.note = "least-squares slope of log eval_s against log triangles over " + std::to_string(bsh.size()) +
                 " sizes, " + FormatShort(bsh.begin()->first) + " to " + FormatShort(n) + " triangles";
    out.push_back(slope);
  }
  // ipc's frame where it has contacts to resolve: at the nearest ground gap of the run.
  if (const std::map<double, double> ipc = Series(table, "ipc", "step_s", Gap::kNearest); !ipc.empty()) {
    const auto& [n, t] = *ipc.rbegin();
    const std::map<double, double> eval = Series(table, "ipc", "eval_s", Gap::kNearest);
    const double gap = GapOf(table, Gap::kNearest);
    ClaimResult r{"potential_scaling.ipc_frame_s"};
    r.ours = t;
    r.values = {{"triangles", n}};
    r.note = "median ipc Simulator::Step (one frame, cue ball rolling) at " + FormatShort(n) + " triangles" +
             (std::isfinite(gap) ? ", balls " + FormatShort(gap) + " m above the ground" : "") +
             "; one potential evaluation there: " + (eval.count(n) ? Seconds(eval.at(n)) : "not timed");
    out.push_back(r);
  }
  return out;
}

std::vector<Observation> PotentialScalingExperiment::Observe(const ResultTable& table) const {
  std::vector<Observation> out;
  for (const std::string method : {"bsh", "brute", "ipc"}) {
    const std::map<double, double> series = Series(table, method, "eval_s");
    if (series.size() < 2) continue;
    Observation o;
    o.quantity = "eval_loglog_slope";
    o.model = method;
    o.value = LogLogSlope(series);
    o.note = "seconds of potential + gradient + Hessian against triangles, " + FormatShort(series.begin()->first) + " to " +
             FormatShort(series.rbegin()->first) + " (" + std::to_string(series.size()) + " sizes)";
    out.push_back(o);
  }
  return out;
}

}  // namespace arena
