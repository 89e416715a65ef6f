#include "experiments/ant_push/ant_push.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "core/common/error.h"
#include "core/common/strings.h"
#include "experiments/common/settings/adam_config.h"
#include "experiments/common/settings/bundle_config.h"
#include "experiments/common/settings/settings.h"
#include "experiments/common/meters/hull_distances.h"
#include "experiments/common/sweeps/method_comparison.h"
#include "experiments/common/sweeps/model_sweep.h"
#include "experiments/common/meters/recording_objective.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "experiments/common/summaries/table_stats.h"
#include "models/option_ranges.h"
#include "models/registry.h"
#include "scenes/spider_scenes.h"
#include "solvers/first_order_optimizers.h"
#include "trajectory/com_target_loss.h"
#include "trajectory/controller_objective.h"
#include "trajectory/gradient_bundle.h"
#include "trajectory/shooting_objective.h"

namespace arena {

namespace ant_push {

// Ours (the paper gives none): the sines' start, the same as the walkers' (walker_task.h).
constexpr double kOmegaMin = 4.0, kOmegaMax = 8.0, kPhaseStep = 0.7;

std::shared_ptr<const Scene> SceneWith(std::int64_t foot_points) {
  return AntPushScene({.spider = {.slope_deg = 0.0, .foot_points = static_cast<int>(foot_points)}});
}

// The best iterate's rollout: the spider's root and the box's centre (at q[box]) per step.
void AppendPaths(const Rollout& rollout, int box, std::vector<Row>* rows) {
  for (size_t t = 0; t < rollout.states.size(); ++t) {
    const VecX& q = rollout.states[t].q;
    rows->push_back({{"record", std::string("path")},
                     {"frame", static_cast<std::int64_t>(t)},
                     {"spider_x_m", q[kSpiderRootX]},
                     {"spider_y_m", q[kSpiderRootY]},
                     {"box_x_m", q[box]},
                     {"box_y_m", q[box + 1]}});
  }
}

// Last iteration row: how far the best iterate moved the box and how close it got, its
// smallest hull distance (the barrier models; > 0: no penetration), then its path rows.
void DescribeBest(Simulator& sim, const ComTargetLoss& loss, const Rollout& best, Row* last, std::vector<Row>* paths) {
  const Scene& scene = sim.scene();
  const int i = scene.model.body(loss.bodies[0]).idx_q;
  const Vec3 end = best.states.back().q.segment<3>(i);
  (*last)["box_travel_m"] = (end - best.states.front().q.segment<3>(i)).head<2>().norm();
  (*last)["box_distance_m"] = (end - loss.targets[0]).norm();
  if (sim.mesh_potential() != nullptr) (*last)["min_distance_m"] = MinimumHullDistance(sim, best.states);
  AppendPaths(best, i, paths);
}

}  // namespace ant_push

std::shared_ptr<ComTargetLoss> AntPushBoxLoss(const Scene& scene, double ahead, double tolerance) {
  auto loss = std::make_shared<ComTargetLoss>();
  const int box = scene.model.FindBody(kAntPushBox);
  const int i = scene.model.body(box).idx_q;
  const VecX q = DefaultState(scene).q;
  loss->bodies = {box};
  loss->targets = {Vec3(q[i] + ahead, q[i + 1], q[i + 2])};
  loss->tolerance = tolerance;
  return loss;
}

namespace ant_push {

// The config's keys and a case's parameters (its columns are listed in columns(), in the CSV's order).
struct AntPushSettings {
  std::string method, gradient;
  double timestep_s = 0.0;
  std::int64_t steps = 0;
  std::int64_t terms = 0;
  std::int64_t iterations = 0;
  AdamSettings adam;
  double target_distance_m = 0.0;
  double target_tolerance_m = 0.0;
  double initial_amplitude_rad = 0.0;
  std::int64_t foot_points = 0;
  BundleSettings bundle;

  template <class V>
  void VisitFields(V&& v) {
    v("method", method, "gradient or bundle", "", std::nullopt, SettingRole::kCase);
    v("gradient", gradient, "where the model's gradient comes from", "", std::nullopt, SettingRole::kCase);
    v("timestep_s", timestep_s, "dt", "s", kTimestepRange);
    v("steps", steps, "rollout length T; the loss is at step T", "", Closed(1, kMaxStepsPerCase));
    v("terms", terms, "sines per leg DOF", "", Closed(1, 16));
    v("iterations", iterations, "Adam iterations", "", Closed(1, kMaxIterationsPerCase));
    adam.VisitFields(v);
    v("target_distance_m", target_distance_m, "the target's distance along +x from the box's start", "m",
      Closed(0.0, 100.0));
    v("target_tolerance_m", target_tolerance_m, "eps_target of the loss", "m", Closed(0.0, 100.0));
    v("initial_amplitude_rad", initial_amplitude_rad, "every sine's amplitude at the start", "rad", Closed(0.0, 1.5));
    v("foot_points", foot_points, "points per foot hull (three hulls a foot)", "", Closed(4, 256));
    bundle.VisitFields(v);
  }
};

}  // namespace ant_push

std::vector<Column> AntPushExperiment::columns() const {
  return {
      {"method", "gradient (the model's own derivatives) or bundle (gradient bundle around the model)", false,
       ColumnType::kText},
      {"gradient", "where the model's gradient comes from: analytical or finite_differences", false, ColumnType::kText},
      {"steps", "rollout length T; the loss is at step T"},
      {"timestep_s", "dt"},
      {"terms", "sines per leg DOF"},
      {"iterations", "Adam iterations"},
      {"learning_rate", "Adam's step size"},
      {"target_distance_m", "the target's distance along +x from the box's start"},
      {"target_tolerance_m", "eps_target of the loss ReLU(|x_box - x*|^2 - eps^2)"},
      {"initial_amplitude_rad", "every sine's amplitude at the start"},
      {"foot_points", "points per foot hull (three hulls a foot)"},
      {"adam_beta1", "Adam's first-moment decay"},
      {"adam_beta2", "Adam's second-moment decay"},
      {"bundle_order", "bundle: first_order or zeroth_order", false, ColumnType::kText},
      {"bundle_samples", "bundle: samples per gradient"},
      {"bundle_sigma", "bundle: std of the sine parameters' perturbations"},
      {"record", "iteration (one Adam iteration), path (the best iterate's spider and box at a step) or target",
       false, ColumnType::kText},
      {"iteration", "iteration: 0 = the start"},
      {"loss", "iteration: this iterate's loss (m^2; inf: its rollout failed)"},
      {"best_loss", "iteration: the best loss so far"},
      {"gradient_norm", "iteration: |dL/dtheta| (the bundle's estimate for method bundle)"},
      {"zero_gradient", "iteration: every entry of the gradient exactly 0", false, ColumnType::kBool},
      {"rollouts", "iteration: rollouts so far (a bundle gradient costs samples + 1)"},
      {"elapsed_s", "iteration: wall-clock time since the optimiser started", true},
      {"stop", "last iteration row: max_iterations, threshold (loss 0) or failed", false, ColumnType::kText},
      {"box_travel_m", "last iteration row: how far the best iterate moved the box's centre across the ground"},
      {"box_distance_m", "last iteration row: the best iterate's box centre to the target at step T"},
      {"min_distance_m", "last iteration row: the smallest hull distance over the best iterate's rollout (barrier models; "
                         "> 0: no penetration)"},
      {"failure", "last iteration row: why the run failed", false, ColumnType::kText},
      {"frame", "path: the step"},
      {"spider_x_m", "path: the spider's root x"},
      {"spider_y_m", "path: the spider's root y"},
      {"box_x_m", "path: the box's centre x; target: the target's x"},
      {"box_y_m", "path: the box's centre y; target: the target's y"},
  };
}

Sweep AntPushExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const auto settings = ReadSettings<ant_push::AntPushSettings>(config);
  settings.bundle.Check(config);
  if (static_cast<double>(settings.steps) * static_cast<double>(settings.iterations + 1) *
          static_cast<double>(*settings.bundle.bundle_samples + 1) > 1e12) {
    throw InvalidArgument(config.file() + ": steps x iterations x bundle_samples is beyond any budget");
  }
  const std::shared_ptr<const Scene> scene = ant_push::SceneWith(settings.foot_points);
  Sweep sweep;
  for (const std::string& model : models) {
    for (const ModelSetting& setting : ExpandModelSweep(config, model, {"timestep"}, "set timestep_s instead")) {
      const Capabilities caps = FindModel(model).capabilities_for(setting.options);
      if (std::string why = CheckGradientSupport(caps, *scene); !why.empty()) {
        sweep.notes.push_back(model + ": skipped (" + why + ")");
        continue;
      }
      for (const std::string& method : settings.bundle.MethodsFor(model)) {
        Case c;
        c.index = static_cast<int>(sweep.cases.size());
        c.model = model;
        c.id = model + "/" + method + setting.IdSuffix();
        c.model_options = setting.options;
        c.model_options["timestep"] = options_detail::FormatDouble(settings.timestep_s);
        ant_push::AntPushSettings one = settings;
        one.method = method;
        one.gradient = ToString(caps.derivatives);
        one.bundle.KeepFor(method);
        c.params = CaseParams(one);
        c.seed = DeriveSeed(name(), c.id);
        sweep.cases.push_back(std::move(c));
      }
    }
  }
  return sweep;
}

std::vector<Row> AntPushExperiment::Run(const Case& c) const {
  const auto settings = DecodeSettings<ant_push::AntPushSettings>(c);
  const std::shared_ptr<const Scene> scene = ant_push::SceneWith(settings.foot_points);
  const int steps = static_cast<int>(settings.steps);
  const double dt = settings.timestep_s;
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, scene, c.model_options);
  const std::shared_ptr<ComTargetLoss> loss =
      AntPushBoxLoss(*scene, settings.target_distance_m, settings.target_tolerance_m);
  ShootingObjective shooting(*sim, DefaultState(*scene), steps, loss);
  ControllerObjective controller(
      shooting, SineWaveControls(scene->nu(), dt, steps, SineWaveChannelsOf(*scene), static_cast<int>(settings.terms)));
  std::unique_ptr<GradientBundleObjective> bundle;
  Objective* objective = &controller;
  if (const std::optional<GradientBundleOptions> options = settings.bundle.options(c.seed)) {
    bundle = std::make_unique<GradientBundleObjective>(controller, *options);
    objective = bundle.get();
  }
  RecordingObjective recording(*objective);
  OptimizerBudget budget;
  budget.max_iterations = settings.iterations;
  budget.threshold = 0.0;  // the box within the tolerance of its target
  const VecX start =
      controller.controller().Initial(settings.initial_amplitude_rad, ant_push::kOmegaMin, ant_push::kOmegaMax,
                                      ant_push::kPhaseStep);
  const OptimizerTrace trace = MinimizeAdam(recording, start, settings.adam.options(), budget);

  std::vector<Row> rows = IterationRows(trace, recording);
  Row& last = rows.back();
  last["stop"] = std::string(ToString(trace.stop));
  std::string failure = trace.stop == OptimizerStop::kFailed ? trace.message : "";
  // The failed evaluation is the last one the shooting objective ran: say why its rollout failed.
  if (!failure.empty() && !shooting.last_rollout().ok()) failure += ": " + shooting.last_rollout().failure;
  std::vector<Row> paths;
  if (trace.best_x.size() == controller.dimension() && std::isfinite(controller.Evaluate(trace.best_x, nullptr))) {
    ant_push::DescribeBest(*sim, *loss, shooting.last_rollout(), &last, &paths);
  } else if (failure.empty()) {
    failure = "the best iterate's rollout failed: " + shooting.last_rollout().failure;
  }
  if (!failure.empty()) last["failure"] = failure;
  rows.insert(rows.end(), paths.begin(), paths.end());
  rows.push_back({{"record", std::string("target")},
                  {"box_x_m", loss->targets[0].x()},
                  {"box_y_m", loss->targets[0].y()}});
  return rows;
}

// The long-range model's best / initial loss, and the smallest ratio any other model or method
// reached.
std::vector<ClaimResult> AntPushExperiment::Summarize(const ResultTable& table) const {
  const ResultTable iterations = table.Filter("record", "iteration");
  const ResultTable ours_rows = iterations.Filter("model", "longrange").Filter("method", "gradient");
  const double ours = BestLossRatio(ours_rows);
  if (std::isnan(ours)) return {};
  const OtherRuns others = OtherThanLongRange(iterations);
  if (!std::isfinite(others.min_ratio)) return {};
  ClaimResult r{"ant_push.longrange_best"};
  r.ours = ours;
  r.values["other_models_min_loss_ratio"] = others.min_ratio;
  r.note = "best / initial loss after " + ours_rows.Text(0, "iterations") + " Adam iterations of " +
           ours_rows.Text(0, "steps") + " steps: longrange " + FormatShort(ours) + others.listing;
  return {r};
}

// Per model and method: best / initial loss, the fraction of iterations whose gradient was
// exactly zero, and how far the best iterate moved the box.
std::vector<Observation> AntPushExperiment::Observe(const ResultTable& table) const {
  std::vector<Observation> out;
  const ResultTable iterations = table.Filter("record", "iteration");
  for (const std::string& model : iterations.Distinct("model")) {
    const ResultTable m = iterations.Filter("model", model);
    for (const std::string& method : m.Distinct("method")) {
      const ResultTable cell = m.Filter("method", method);
      const std::string label = MethodLabel(model, method);
      if (const double ratio = BestLossRatio(cell); !std::isnan(ratio)) {
        out.push_back({"loss_ratio", label, ratio, "", "best / initial loss"});
      }
      const ZeroGradientCount count = CountZeroGradients(cell);
      if (count.with_gradient > 0) {
        out.push_back({"zero_gradient_fraction", label, static_cast<double>(count.zero) / count.with_gradient, "",
                       std::to_string(count.with_gradient) + " iterations"});
      }
      const double travel = cell.Number(cell.num_rows() - 1, "box_travel_m");
      if (std::isfinite(travel)) out.push_back({"box_travel_m", label, travel, "m", "the best iterate's push"});
    }
  }
  return out;
}

}  // namespace arena
