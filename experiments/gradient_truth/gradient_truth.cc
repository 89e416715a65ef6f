#include "experiments/gradient_truth/gradient_truth.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "core/common/error.h"
#include "core/common/strings.h"
#include "experiments/common/settings/settings.h"
#include "experiments/common/sweeps/model_sweep.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "experiments/gradient_truth/gradient_truth_problems.h"
#include "models/option_ranges.h"
#include "models/registry.h"
#include "trajectory/endpoint_jacobian.h"

namespace arena {

namespace {

using gradient_truth::CueTask;
using gradient_truth::TruthProblem;

constexpr char kCueTask[] = "cue_to_target";

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// |a - b| / |b|, or |a - b| when b is 0.
double RelativeError(const MatX& a, const MatX& b) {
  const double scale = b.norm();
  return (a - b).norm() / (scale > 0.0 ? scale : 1.0);
}

// DifferentiateEndpoint, with a backward pass that throws a numerical error (a step whose
// derivative does not exist) recorded in `failure` like a failed rollout, so a sweep goes on.
EndpointJacobian Differentiate(Simulator& sim, const State& start, int steps, const std::vector<BodyCoordinate>& outputs,
                               const std::vector<BodyCoordinate>& inputs, std::string* failure) {
  try {
    EndpointJacobian ej = DifferentiateEndpoint(sim, start, steps, outputs, inputs);
    *failure = ej.rollout.failure;
    return ej;
  } catch (const InvalidArgument&) {
    throw;
  } catch (const Unsupported&) {
    throw;
  } catch (const Error& e) {
    *failure = std::string("backward pass: ") + e.what();
    return {};
  }
}

Row SummaryRow(const TruthProblem& p, const EndpointJacobian& ej, const std::string& failure) {
  Row row{{"record", std::string("summary")},
          {"steps", static_cast<std::int64_t>(p.steps)},
          {"exact_contact", p.exact.contact}};
  if (!ej.rollout.states.empty()) {  // empty when the backward pass threw
    row["contact_steps"] = static_cast<std::int64_t>(ej.rollout.contact_steps());
    row["alternative_steps"] = ej.alternative_steps;
  }
  if (!failure.empty()) {
    row["failure"] = failure;
    return row;
  }
  row["final_state_error"] = RelativeError(ej.value, p.exact.value);
  row["gradient_error"] = RelativeError(ej.jacobian, p.exact.jacobian);
  row["gradient_max_abs_error"] = (ej.jacobian - p.exact.jacobian).cwiseAbs().maxCoeff();
  return row;
}

std::vector<Row> RunTruthProblem(Simulator& sim, const TruthProblem& p) {
  const auto start = std::chrono::steady_clock::now();
  std::string failure;
  const EndpointJacobian ej = Differentiate(sim, p.start, p.steps, p.outputs, p.inputs, &failure);
  std::vector<Row> rows{SummaryRow(p, ej, failure)};
  rows[0]["run_time_s"] = Seconds(start);
  if (!failure.empty()) return rows;
  for (size_t i = 0; i < p.outputs.size(); ++i) {
    for (size_t j = 0; j < p.inputs.size(); ++j) {
      rows.push_back({{"record", std::string("entry")},
                      {"output", p.output_names[i]},
                      {"input", p.input_names[j]},
                      {"value", ej.jacobian(i, j)},
                      {"exact", p.exact.jacobian(i, j)},
                      {"output_value", ej.value[i]},
                      {"output_exact", p.exact.value[i]}});
    }
  }
  return rows;
}

// Gradient descent on the cue speed v: L(v) = (x2(T) - target)^2, dL/dv = 2 (x2 - target)
// dx2/dv through the model's backward pass. One row per iterate, then the summary.
std::vector<Row> RunCueTask(Simulator& sim, const CueTask& task, double speed, int iterations, double rate) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<BodyCoordinate> outputs{{task.object, BodyCoordinate::Kind::kPosition, 0}};
  const std::vector<BodyCoordinate> inputs{{task.cue, BodyCoordinate::Kind::kVelocity, 0}};
  std::vector<Row> rows;
  std::string failure;
  double loss = 0.0;
  for (int k = 0; k <= iterations; ++k) {
    State s = task.start;
    s.v[sim.scene().model.body(task.cue).idx_v + 3] = speed;
    const EndpointJacobian ej = Differentiate(sim, s, task.steps, outputs, inputs, &failure);
    if (!failure.empty()) {
      failure = "iteration " + std::to_string(k) + ": " + failure;
      break;
    }
    const double miss = ej.value[0] - task.target, gradient = 2.0 * miss * ej.jacobian(0, 0);
    loss = miss * miss;
    rows.push_back({{"record", std::string("iteration")},
                    {"iteration", static_cast<std::int64_t>(k)},
                    {"cue_speed_mps", speed},
                    {"loss", loss},
                    {"gradient", gradient}});
    if (k < iterations) speed -= rate * gradient;
  }
  Row summary{{"record", std::string("summary")},
              {"steps", static_cast<std::int64_t>(task.steps)},
              {"cue_speed_mps", speed},
              {"optimum_mps", task.optimum},
              {"distance_to_optimum_mps", std::abs(speed - task.optimum)},
              {"run_time_s", Seconds(start)}};
  if (!rows.empty()) summary["loss"] = loss;  // the last iterate's
  if (!failure.empty()) summary["failure"] = failure;
  rows.insert(rows.begin(), summary);
  return rows;
}

// The config's keys and a case's parameters: the control task's cases carry its cue_* keys, the
// others box_clearance_m.
struct GradientTruthSettings {
  std::vector<std::string> scenes;
  std::vector<double> timesteps_s;
  std::string scene;
  double timestep_s = 0.0;
  std::string param_name, param_value;
  std::optional<double> box_clearance_m, cue_target_m, cue_initial_speed_mps;
  std::optional<std::int64_t> cue_iterations;
  std::optional<double> cue_learning_rate;

  template <class V>
  void VisitFields(V&& v) {
    constexpr SettingRole kList = SettingRole::kConfigList, kCase = SettingRole::kCase;
    constexpr SettingRole kSome = SettingRole::kConfigAndSomeCases;
    const Range timestep = Closed(kTimestepRange.lo, 0.1);
    v("scenes", scenes, "the closed-form scenes and the control task", "", std::nullopt, kList);
    v("timesteps_s", timesteps_s, "the step lengths", "s", timestep, kList);
    v("scene", scene, "two_balls, two_balls_inelastic, ball_drop, sliding_box, two_discs or cue_to_target (the control "
      "task)", "", std::nullopt, kCase);
    v("timestep_s", timestep_s, "dt", "s", timestep, kCase);
    v("param_name", param_name, "the model option swept (stiffness, rho, ...), empty when none", "", std::nullopt, kCase);
    v("param_value", param_value, "its value", "", std::nullopt, kCase);
    v("box_clearance_m", box_clearance_m, "sliding_box: the box's release height above the ground (every scene but the "
      "control task carries it)", "m", Closed(0.0, 0.1), kSome);
    v("cue_target_m", cue_target_m, "cue_to_target: where ball 2 should be at the horizon", "m", Closed(0.8, 10.0), kSome);
    v("cue_initial_speed_mps", cue_initial_speed_mps, "cue_to_target: the descent's starting cue speed", "m/s",
      Closed(0.35, 10.0), kSome);
    v("cue_iterations", cue_iterations, "cue_to_target: descent steps", "", Closed(0, kMaxIterationsPerCase), kSome);
    v("cue_learning_rate", cue_learning_rate, "cue_to_target: the step size (m/s per unit of dL/dv)", "", Positive(10.0),
      kSome);
  }

  // A case of `s` keeps only the keys of its kind (the control task or a closed-form scene).
  void KeepSettingsOf(const std::string& s) {
    if (s == kCueTask) {
      box_clearance_m.reset();
    } else {
      cue_target_m.reset(), cue_initial_speed_mps.reset(), cue_iterations.reset(), cue_learning_rate.reset();
    }
  }
};

void CheckScenes(const ProfileConfig& config, const std::vector<std::string>& scenes) {
  if (scenes.empty()) throw InvalidArgument(config.file() + ": scenes: empty list");
  for (const std::string& s : scenes) {
    const auto& names = gradient_truth::TruthProblemNames();
    if (s != kCueTask && std::find(names.begin(), names.end(), s) == names.end()) {
      throw InvalidArgument(config.file() + ": key scenes: unknown '" + s + "'; valid: " + Join(names, ", ") + ", " +
                            kCueTask);
    }
  }
}

// The scene a case builds (the cue task runs on two_balls' scene).
std::shared_ptr<const Scene> CaseScene(const std::string& scene, double dt, double clearance) {
  if (scene == kCueTask) return gradient_truth::MakeCueTask(dt, 1.0).scene;
  return gradient_truth::MakeTruthProblem(scene, dt, clearance).scene;
}

// The row of a finished table's summaries with the smallest gradient error among a model's
// settings at its finest timestep, per scene.
struct Best {
  double error = std::numeric_limits<double>::infinity();
  int row = -1;
};
std::map<std::pair<std::string, std::string>, Best> BestAtFinestStep(const ResultTable& table) {
  std::map<std::pair<std::string, std::string>, double> finest;
  const ResultTable summaries = table.Filter("record", "summary");
  for (int r = 0; r < summaries.num_rows(); ++r) {
    if (!std::isfinite(summaries.Number(r, "gradient_error"))) continue;
    const auto key = std::make_pair(summaries.Text(r, "scene"), summaries.Text(r, "model"));
    const double dt = summaries.Number(r, "timestep_s");
    if (!finest.count(key) || dt < finest[key]) finest[key] = dt;
  }
  std::map<std::pair<std::string, std::string>, Best> best;
  for (int r = 0; r < summaries.num_rows(); ++r) {
    const auto key = std::make_pair(summaries.Text(r, "scene"), summaries.Text(r, "model"));
    const double error = summaries.Number(r, "gradient_error");
    if (!finest.count(key) || summaries.Number(r, "timestep_s") != finest[key] || !(error < best[key].error)) continue;
    best[key] = {error, r};
  }
  return best;
}

std::string Short(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", x);
  return text;
}

// "(a, b, c, d)": the case's d p2x(T) / d(p1x, p2x, v1x, v2x), "" when its entries are missing.
std::string X2Row(const ResultTable& table, const std::string& case_id) {
  const ResultTable entries = table.Filter("case_id", case_id).Filter("record", "entry").Filter("output", "p2x");
  std::string text;
  for (const char* input : {"p1x", "p2x", "v1x", "v2x"}) {
    const ResultTable e = entries.Filter("input", input);
    if (e.num_rows() != 1) return "";
    text += (text.empty() ? "" : ", ") + Short(e.Number(0, "value"));
  }
  return "(" + text + ")";
}

std::string Setting(const ResultTable& t, int r) {
  const std::string& name = t.Text(r, "param_name");
  return "dt " + t.Text(r, "timestep_s") + " s" + (name.empty() ? "" : ", " + name + " " + t.Text(r, "param_value"));
}

}  // namespace

std::vector<Column> GradientTruthExperiment::columns() const {
  std::vector<Column> columns = ParamColumns<GradientTruthSettings>();
  const std::vector<Column> rows = {
      {"record", "summary (one per case), entry (one Jacobian entry) or iteration (a descent step of the control task)",
       false, ColumnType::kText},
      {"steps", "summary: steps of the rollout (horizon / dt)"},
      {"contact_steps", "summary: steps the model reported a contact in"},
      {"exact_contact", "summary: whether the exact motion has its contact event before the horizon", false,
       ColumnType::kBool},
      {"alternative_steps", "summary: steps whose Vjp used the model's alternative gradient (all backward passes)"},
      {"final_state_error", "summary: |y - y*| / |y*| of the end coordinates (positions in m, velocities in m/s)"},
      {"gradient_error", "summary: |J - J*|_F / |J*|_F, J = d end coordinates / d start coordinates"},
      {"gradient_max_abs_error", "summary: the largest |J_ij - J*_ij|"},
      {"run_time_s", "summary: rollout and backward passes", true},
      {"failure", "summary: why the rollout failed", false, ColumnType::kText},
      {"output", "entry: the end coordinate (p2x: ball 2's x position, v1x: ball 1's x velocity)", false,
       ColumnType::kText},
      {"input", "entry: the start coordinate", false, ColumnType::kText},
      {"value", "entry: the model's d output / d input"},
      {"exact", "entry: the closed form's"},
      {"output_value", "entry: the model's end coordinate"},
      {"output_exact", "entry: the closed form's"},
      {"iteration", "iteration: descent step (0 = the initial speed)"},
      {"cue_speed_mps", "iteration: the cue speed; summary: the last iterate"},
      {"loss", "iteration, summary: (x2(T) - target)^2 (m^2)"},
      {"gradient", "iteration: dL/dv by the model"},
      {"optimum_mps", "summary: the analytic optimum"},
      {"distance_to_optimum_mps", "summary: |v - v*| after the iterations"},
  };
  columns.insert(columns.end(), rows.begin(), rows.end());
  return columns;
}

Sweep GradientTruthExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const auto settings = ReadSettings<GradientTruthSettings>(config);
  const std::vector<std::string>& scenes = settings.scenes;
  CheckScenes(config, scenes);
  const std::vector<double>& timesteps = settings.timesteps_s;
  if (timesteps.empty()) throw InvalidArgument(config.file() + ": timesteps_s: empty list");
  Sweep sweep;
  for (const std::string& model : models) {
    for (const ModelSetting& setting : ExpandModelSweep(config, model, {"timestep"}, "set timesteps_s instead")) {
      const Capabilities caps = FindModel(model).capabilities_for(setting.options);
      for (const std::string& scene : scenes) {
        if (std::string why = CheckGradientSupport(caps, *CaseScene(scene, timesteps.front(), *settings.box_clearance_m)); !why.empty()) {
          sweep.notes.push_back(model + ": skipped " + scene + " (" + why + ")");
          continue;
        }
        for (double dt : timesteps) {
          Case c;
          c.index = static_cast<int>(sweep.cases.size());
          c.model = model;
          c.id = model + "/" + scene + "/dt=" + options_detail::FormatDouble(dt) +
                 setting.IdSuffix();
          c.model_options = setting.options;
          c.model_options["timestep"] = options_detail::FormatDouble(dt);
          GradientTruthSettings one = settings;
          one.scene = scene;
          one.timestep_s = dt;
          one.param_name = setting.param_name;
          one.param_value = setting.param_text;
          one.KeepSettingsOf(scene);
          c.params = CaseParams(one);
          c.seed = DeriveSeed(name(), c.id);
          sweep.cases.push_back(std::move(c));
        }
      }
    }
  }
  return sweep;
}

std::vector<Row> GradientTruthExperiment::Run(const Case& c) const {
  const auto s = DecodeSettings<GradientTruthSettings>(c);
  if (s.scene == kCueTask) {
    const CueTask task = gradient_truth::MakeCueTask(s.timestep_s, *s.cue_target_m);
    const std::unique_ptr<Simulator> sim = MakeSimulator(c.model, task.scene, c.model_options);
    return RunCueTask(*sim, task, *s.cue_initial_speed_mps, static_cast<int>(*s.cue_iterations), *s.cue_learning_rate);
  }
  const TruthProblem problem = gradient_truth::MakeTruthProblem(s.scene, s.timestep_s, *s.box_clearance_m);
  const std::unique_ptr<Simulator> sim = MakeSimulator(c.model, problem.scene, c.model_options);
  return RunTruthProblem(*sim, problem);
}

std::vector<ClaimResult> GradientTruthExperiment::Summarize(const ResultTable& table) const {
  // The public report's case: nimble's d x2(T) / d(x1, x2, v1, v2) on two_balls at its finest
  // timestep, one vector per swept setting (bounce_approximation on and off).
  const auto best = BestAtFinestStep(table);
  const auto it = best.find({"two_balls", "nimble"});
  if (it == best.end()) return {};
  const ResultTable summaries = table.Filter("record", "summary");
  const std::string dt = summaries.Text(it->second.row, "timestep_s");
  const ResultTable runs = summaries.Filter("scene", "two_balls")
                               .Filter("model", "nimble")
                               .FilterNumber("timestep_s", summaries.Number(it->second.row, "timestep_s"));
  std::string text;
  for (int r = 0; r < runs.num_rows(); ++r) {
    const std::string vector = X2Row(table, runs.Text(r, "case_id"));
    if (vector.empty()) continue;
    const std::string& param = runs.Text(r, "param_name");
    text += (text.empty() ? "" : "; ") + (param.empty() ? "" : param + " " + runs.Text(r, "param_value") + ": ") + vector;
  }
  ClaimResult nimble("gradient_truth.two_balls.nimble");
  nimble.ours = it->second.error;
  nimble.ours_text = text + " vs exact (1, 0, 1, 0)";
  nimble.note = "d x2(T) / d(x1, x2, v1, v2) through nimble's backward pass at dt " + dt +
                " s; ours = |J - J*|_F / |J*|_F of the 4 x 4 end-state Jacobian, its best setting";
  return {nimble};
}

std::vector<Observation> GradientTruthExperiment::Observe(const ResultTable& table) const {
  std::vector<Observation> out;
  const ResultTable summaries = table.Filter("record", "summary");
  for (const auto& [key, best] : BestAtFinestStep(table)) {
    Observation o;
    o.quantity = "gradient_error:" + key.first;
    o.model = key.second;
    o.value = best.error;
    o.note = Setting(summaries, best.row) + "; end-state error " + Short(summaries.Number(best.row, "final_state_error"));
    out.push_back(std::move(o));
  }
  for (int r = 0; r < summaries.num_rows(); ++r) {
    if (summaries.Text(r, "scene") != kCueTask) continue;
    Observation o;
    o.quantity = "cue_to_target:distance_to_optimum";
    o.model = summaries.Text(r, "model");
    o.value = summaries.Number(r, "distance_to_optimum_mps");
    o.unit = "m/s";
    o.note = Setting(summaries, r) + "; optimum " + summaries.Text(r, "optimum_mps") + " m/s";
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace arena
