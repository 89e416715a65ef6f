#include "experiments/push.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <memory>

#include "config/profile_config.h"
#include "config/result_table.h"
#include "core/common/error.h"
#include "core/multibody/data.h"
#include "core/multibody/kinematics.h"
#include "experiments/common/case_params.h"
#include "experiments/common/model_sweep.h"
#include "experiments/common/sweep_limits.h"
#include "experiments/common/table_stats.h"
#include "models/option_ranges.h"
#include "models/registry.h"
#include "scenes/longrange_scenes.h"
#include "trajectory/com_target_loss.h"
#include "trajectory/receding_horizon.h"

namespace arena {

namespace {

// The cube's and the rod's half sizes along x (PushScene): the rod is behind the cube once their
// centres are this far apart against the target's direction.
constexpr double kBehind = 0.15 + 0.05;

int BodyNamed(const Scene& scene, const std::string& name) {
  for (int b = 0; b < scene.model.num_bodies(); ++b) {
    if (scene.model.body(b).name == name) return b;
  }
  throw InvalidArgument("push: the scene has no body '" + name + "'");
}

// Where the cube and the rod are in one state.
struct Positions {
  Vec3 box, rod;
};
Positions PositionsAt(const Scene& scene, const State& s, int box, int rod) {
  MultibodyData data(scene.model);
  ForwardKinematics(scene.model, data, s.q);
  return {data.X_WB[box].translation(), data.X_WB[rod].translation()};
}

}  // namespace

std::vector<Column> PushExperiment::columns() const {
  return {
      {"timestep_s", "dt"},
      {"steps", "H: real steps at most (the run stops once the cube is at the target)"},
      {"window", "h: frames optimised at each real step"},
      {"iterations", "Adam iterations per real step"},
      {"learning_rate", "Adam's step size"},
      {"adam_beta1", "Adam's first-moment decay"},
      {"adam_beta2", "Adam's second-moment decay"},
      {"target_tolerance_m", "eps_target: the cube is at the target within this distance"},
      {"target_x_m", "the target, relative to the cube's start (the rod starts on the +x side)"},
      {"target_y_m", "the target's y"},
      {"step", "real step"},
      {"time_s", "simulated time at the end of the step"},
      {"box_x_m", "the cube's centre"},
      {"box_y_m", "the cube's centre"},
      {"rod_x_m", "the rod's centre"},
      {"rod_y_m", "the rod's centre"},
      {"box_distance_m", "the cube's centre to the target, in the plane"},
      {"window_loss", "the best loss of this step's window"},
      {"elapsed_s", "wall-clock time since the run started", true},
      {"reached", "last row: the cube came within target_tolerance_m of the target", false, ColumnType::kBool},
      {"reached_at_s", "last row: simulated time when it first did (the paper's time to converge)"},
      {"went_around", "last row: the rod's centre got behind the cube (seen from the target) at some step", false,
       ColumnType::kBool},
      {"min_box_distance_m", "last row: the smallest cube-target distance over the run"},
      {"failure", "last row: why a real step failed", false, ColumnType::kText},
  };
}

Sweep PushExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const double dt = config.Double("timestep_s", NumberRange::Between(kTimestepRange.lo, kTimestepRange.hi));
  const std::int64_t steps = config.Int("steps", 1, kMaxStepsPerCase);
  const std::int64_t window = config.Int("window", 1, kMaxStepsPerCase);
  const std::int64_t iterations = config.Int("iterations", 1, kMaxIterationsPerCase);
  RecedingHorizonOptions mpc;
  mpc.adam.learning_rate = config.PositiveFiniteDouble("learning_rate");
  mpc.adam.beta1 = config.Double("adam_beta1", NumberRange::Between(0.0, 0.999999));
  mpc.adam.beta2 = config.Double("adam_beta2", NumberRange::Between(0.0, 0.999999));
  const double tolerance = config.Double("target_tolerance_m", NumberRange::Positive(100.0));
  const std::vector<double> target = config.Doubles("target_m", NumberRange::Between(-100.0, 100.0));
  if (target.size() != 2) throw InvalidArgument(config.file() + ": key target_m needs 2 numbers (x, y), relative to the cube");
  if (static_cast<double>(steps) * static_cast<double>(window) * static_cast<double>(iterations) > 1e10) {
    throw InvalidArgument(config.file() + ": steps x window x iterations is beyond any budget");
  }
  Sweep sweep;
  for (const std::string& model : models) {
    for (const ModelSetting& setting : ExpandModelSweep(config, model, {"timestep"}, "set timestep_s instead")) {
      const Capabilities caps = FindModel(model).capabilities_for(setting.options);
      if (std::string why = CheckSupport(caps, *PushScene()); !why.empty()) {
        sweep.notes.push_back(model + ": skipped (" + why + ")");
        continue;
      }
      if (!caps.has_derivatives()) {
        sweep.notes.push_back(model + ": skipped (no step derivatives)");
        continue;
      }
      Case c;
      c.index = static_cast<int>(sweep.cases.size());
      c.model = model;
      c.id = model + (setting.param_name.empty() ? "" : "/" + setting.param_name + "=" + setting.param_text);
      c.model_options = setting.options;
      c.model_options["timestep"] = options_detail::FormatDouble(dt);
      c.params = {{"timestep_s", dt},          {"steps", steps},
                  {"window", window},          {"iterations", iterations},
                  {"learning_rate", mpc.adam.learning_rate}, {"adam_beta1", mpc.adam.beta1},
                  {"adam_beta2", mpc.adam.beta2}, {"target_tolerance_m", tolerance},
                  {"target_x_m", target[0]},   {"target_y_m", target[1]}};
      c.seed = DeriveSeed(name(), c.id);
      sweep.cases.push_back(std::move(c));
    }
  }
  return sweep;
}

std::vector<Row> PushExperiment::Run(const Case& c) const {
  auto scene = PushScene();
  const int box = BodyNamed(*scene, "box"), rod = BodyNamed(*scene, "rod");
  const State start = DefaultState(*scene);
  const Positions first = PositionsAt(*scene, start, box, rod);
  const Vec3 target = first.box + Vec3(ParamNumber(c, "target_x_m"), ParamNumber(c, "target_y_m"), 0.0);
  const Vec3 direction = (target - first.box).normalized();
  const double tolerance = ParamNumber(c, "target_tolerance_m"), dt = ParamNumber(c, "timestep_s");
  auto loss = std::make_shared<ComTargetLoss>();
  loss->bodies = {box};
  loss->targets = {target};
  loss->tolerance = tolerance;
  RecedingHorizonOptions mpc;
  mpc.steps = static_cast<int>(ParamNumber(c, "steps"));
  mpc.window = static_cast<int>(ParamNumber(c, "window"));
  mpc.iterations = static_cast<int>(ParamNumber(c, "iterations"));
  mpc.adam.learning_rate = ParamNumber(c, "learning_rate");
  mpc.adam.beta1 = ParamNumber(c, "adam_beta1");
  mpc.adam.beta2 = ParamNumber(c, "adam_beta2");

  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, scene, c.model_options);
  std::vector<Row> rows;
  double reached_at = std::numeric_limits<double>::quiet_NaN(), min_distance = std::numeric_limits<double>::infinity();
  bool went_around = false;
  const auto t0 = std::chrono::steady_clock::now();
  const RecedingHorizonResult result = RunRecedingHorizon(*sim, start, loss, mpc, [&](int step, const State& s) {
    const Positions p = PositionsAt(*scene, s, box, rod);
    const double distance = (p.box - target).head<2>().norm();
    min_distance = std::min(min_distance, distance);
    went_around = went_around || (p.rod - p.box).dot(direction) < -kBehind;
    rows.push_back({{"step", static_cast<std::int64_t>(step)},
                    {"time_s", (step + 1) * dt},
                    {"box_x_m", p.box.x()},
                    {"box_y_m", p.box.y()},
                    {"rod_x_m", p.rod.x()},
                    {"rod_y_m", p.rod.y()},
                    {"box_distance_m", distance},
                    {"elapsed_s", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()}});
    if (distance <= tolerance && std::isnan(reached_at)) reached_at = (step + 1) * dt;
    return std::isnan(reached_at);
  });
  for (size_t k = 0; k < rows.size() && k < result.window_losses.size(); ++k) rows[k]["window_loss"] = result.window_losses[k];
  if (rows.empty()) rows.emplace_back();
  Row& last = rows.back();
  last["reached"] = !std::isnan(reached_at);
  if (!std::isnan(reached_at)) last["reached_at_s"] = reached_at;
  last["went_around"] = went_around;
  if (std::isfinite(min_distance)) last["min_box_distance_m"] = min_distance;
  if (!result.ok()) last["failure"] = result.failure;
  return rows;
}

namespace {

// A model's last row (empty table if it did not run).
ResultTable LastRow(const ResultTable& model_rows) {
  if (model_rows.num_rows() == 0) return model_rows;
  return ResultTable(model_rows.columns(), {model_rows.cells().back()});
}

std::string Describe(const ResultTable& last) {
  const std::string reached = last.Text(0, "reached") == "true" ? "reached at " + last.Text(0, "reached_at_s") + " s"
                                                               : "not reached";
  return reached + ", closest " + FormatShort(last.Number(0, "min_box_distance_m")) + " m, rod " +
         (last.Text(0, "went_around") == "true" ? "went around" : "never behind the cube");
}

}  // namespace

// ours: 1 if the long-range model brought the cube to the target; other_models_reached: how
// many other models did.
std::vector<ClaimResult> PushExperiment::Summarize(const ResultTable& table) const {
  const ResultTable ours = LastRow(table.Filter("model", "longrange"));
  if (ours.num_rows() == 0 || ours.Text(0, "reached").empty()) return {};
  ClaimResult r{"push.goes_around"};
  r.ours = ours.Text(0, "reached") == "true" ? 1.0 : 0.0;
  int others = 0;
  std::string note = "longrange: " + Describe(ours);
  for (const std::string& model : table.Distinct("model")) {
    if (model == "longrange") continue;
    const ResultTable last = LastRow(table.Filter("model", model));
    if (last.Text(0, "reached").empty()) continue;
    others += last.Text(0, "reached") == "true";
    note += "; " + model + ": " + Describe(last);
  }
  r.values["other_models_reached"] = others;
  r.note = note + " (" + ours.Text(0, "step") + " real steps of " + ours.Text(0, "window") + "-frame windows)";
  return {r};
}

std::vector<Observation> PushExperiment::Observe(const ResultTable& table) const {
  std::vector<Observation> out;
  for (const std::string& model : table.Distinct("model")) {
    const ResultTable last = LastRow(table.Filter("model", model));
    if (last.Text(0, "min_box_distance_m").empty()) continue;
    out.push_back({"closest_box_distance", model, last.Number(0, "min_box_distance_m"), "m", Describe(last)});
  }
  return out;
}

}  // namespace arena
