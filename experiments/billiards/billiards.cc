#include "experiments/billiards/billiards.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "core/common/error.h"
#include "core/common/strings.h"
#include "experiments/billiards/billiards_task.h"
#include "experiments/common/settings/adam_config.h"
#include "experiments/common/settings/bundle_config.h"
#include "experiments/common/settings/settings.h"
#include "experiments/common/sweeps/method_comparison.h"
#include "experiments/common/sweeps/model_sweep.h"
#include "experiments/common/meters/recording_objective.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "experiments/common/summaries/table_stats.h"
#include "models/option_ranges.h"
#include "models/registry.h"
#include "solvers/first_order_optimizers.h"
#include "trajectory/gradient_bundle.h"
#include "trajectory/launch_objective.h"

namespace arena {

namespace {

constexpr std::int64_t kMaxSampledInitialisations = 1000;

// The initialisation's key: "trivial" or "sampled=k"; it also seeds its targets and launch.
std::string InitialisationKey(const std::string& initialisation, std::int64_t sample) {
  return initialisation == "trivial" ? initialisation : initialisation + "=" + std::to_string(sample);
}

// The best launch's rollout: every ball's (x, y) at every frame, and the lowest centre height
// (a ball below the ground fell through it: nimble drops contacts deeper than 3 cm).
double AppendPaths(Simulator& sim, const LaunchObjective& launch, const VecX& x, int frames, std::vector<Row>* rows) {
  Rollout rollout;
  RunRollout(sim, launch.StartAt(x), VecX(), frames, &rollout);
  const MultibodyModel& model = sim.scene().model;
  double lowest = std::numeric_limits<double>::infinity();
  for (size_t t = 0; t < rollout.states.size(); ++t) {
    for (int b = 0; b < model.num_bodies(); ++b) {
      const int i = model.body(b).idx_q;
      const VecX& q = rollout.states[t].q;
      lowest = std::min(lowest, q[i + 2]);
      rows->push_back({{"record", std::string("path")},
                       {"frame", static_cast<std::int64_t>(t)},
                       {"ball", model.body(b).name},
                       {"x_m", q[i]},
                       {"y_m", q[i + 1]}});
    }
  }
  return lowest;
}

// The config's keys and a case's parameters (its columns are listed in columns(), in the CSV's order).
struct BilliardsSettings {
  std::vector<std::string> initialisations;
  std::int64_t sampled_initialisations = 0;
  std::string method, gradient, initialisation;
  std::int64_t sample = 0;
  std::int64_t frames = 0;
  double timestep_s = 0.0;
  std::int64_t iterations = 0;
  AdamSettings adam;
  double target_tolerance_m = 0.0;
  BundleSettings bundle;

  template <class V>
  void VisitFields(V&& v) {
    constexpr SettingRole kCase = SettingRole::kCase;
    v("timestep_s", timestep_s, "dt", "s", kTimestepRange);
    v("frames", frames, "rollout length T; the loss is at frame T", "", Closed(1, kMaxStepsPerCase));
    v("iterations", iterations, "Adam iterations", "", Closed(1, kMaxIterationsPerCase));
    adam.VisitFields(v);
    v("target_tolerance_m", target_tolerance_m, "eps_target of the loss ReLU(|x_COM - x*|^2 - eps^2)", "m",
      Closed(0.0, 100.0));
    v("initialisations", initialisations, "trivial and/or sampled", "", std::nullopt, SettingRole::kConfig);
    v("sampled_initialisations", sampled_initialisations, "sampled initialisations per model and method", "",
      Closed(0, kMaxSampledInitialisations), SettingRole::kConfig);
    bundle.VisitFields(v);
    v("method", method, "gradient or bundle", "", std::nullopt, kCase);
    v("gradient", gradient, "where the model's gradient comes from", "", std::nullopt, kCase);
    v("initialisation", initialisation, "trivial or sampled", "", std::nullopt, kCase);
    v("sample", sample, "index of the sampled initialisation (0 for trivial)", "", std::nullopt, kCase);
  }
};

}  // namespace

std::vector<Column> BilliardsExperiment::columns() const {
  return {
      {"method", "gradient (the model's own derivatives) or bundle (first- or zeroth-order gradient bundle around the "
                 "model)", false, ColumnType::kText},
      {"gradient", "where the model's gradient comes from: analytical or finite_differences", false, ColumnType::kText},
      {"initialisation", "trivial (cue ball at rest, far from the rack) or sampled", false, ColumnType::kText},
      {"sample", "index of the sampled initialisation (0 for trivial)"},
      {"frames", "rollout length T; the loss is at frame T"},
      {"timestep_s", "dt"},
      {"iterations", "Adam iterations"},
      {"learning_rate", "Adam's step size"},
      {"target_tolerance_m", "eps_target of the loss ReLU(|x_COM - x*|^2 - eps^2)"},
      {"adam_beta1", "Adam's first-moment decay"},
      {"adam_beta2", "Adam's second-moment decay"},
      {"bundle_order", "bundle: first_order or zeroth_order", false, ColumnType::kText},
      {"bundle_samples", "bundle: samples per gradient"},
      {"bundle_sigma", "bundle: std of the launch perturbations (m, m/s)"},
      {"record", "iteration (one optimiser iteration), path (a ball's position at a frame of the best launch) or "
                 "target (a target ball's target)",
       false, ColumnType::kText},
      {"iteration", "iteration: 0 = the initial launch"},
      {"loss", "iteration: this iterate's loss (inf: its rollout failed)"},
      {"best_loss", "iteration: the best loss so far"},
      {"gradient_norm", "iteration: |dL/dx| of this iterate (the bundle's estimate for method bundle)"},
      {"zero_gradient", "iteration: every entry of the gradient exactly 0", false, ColumnType::kBool},
      {"launch_x_m", "iteration: the cue ball's start x"},
      {"launch_y_m", "iteration: the cue ball's start y"},
      {"launch_vx_mps", "iteration: the cue ball's start velocity x"},
      {"launch_vy_mps", "iteration: the cue ball's start velocity y"},
      {"rollouts", "iteration: rollouts so far (a bundle gradient costs samples + 1)"},
      {"elapsed_s", "iteration: wall-clock time since the optimiser started", true},
      {"stop", "last iteration row: max_iterations, threshold (loss 0) or failed", false, ColumnType::kText},
      {"lowest_ball_z_m", "last iteration row: the lowest ball centre over the best launch's rollout (below 0: a ball "
                          "fell through the ground)"},
      {"failure", "last iteration row: why the run failed (a rollout, or a ball through the ground)", false,
       ColumnType::kText},
      {"frame", "path: the frame"},
      {"ball", "path, target: the ball's body name", false, ColumnType::kText},
      {"x_m", "path: the ball's centre x; target: the target's x"},
      {"y_m", "path: the ball's centre y; target: the target's y"},
  };
}

Sweep BilliardsExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const auto settings = ReadSettings<BilliardsSettings>(config);
  const std::vector<std::string>& initialisations = settings.initialisations;
  settings.bundle.Check(config);
  for (const std::string& init : initialisations) {
    if (init != "trivial" && init != "sampled") {
      throw InvalidArgument(config.file() + ": key initialisations: unknown '" + init + "'; valid: trivial, sampled");
    }
  }
  if (static_cast<double>(settings.frames) * static_cast<double>(settings.iterations + 1) *
          static_cast<double>(*settings.bundle.bundle_samples + 1) > 1e12) {
    throw InvalidArgument(config.file() + ": frames x iterations x bundle_samples is beyond any budget");
  }

  Sweep sweep;
  for (const std::string& model : models) {
    for (const ModelSetting& setting : ExpandModelSweep(config, model, {"timestep"}, "set timestep_s instead")) {
      const Capabilities caps = FindModel(model).capabilities_for(setting.options);
      if (std::string why = CheckGradientSupport(caps, *MakeBilliardsTask("trivial", 0, 0, settings.target_tolerance_m).scene); !why.empty()) {
        sweep.notes.push_back(model + ": skipped (" + why + ")");
        continue;
      }
      for (const std::string& method : settings.bundle.MethodsFor(model)) {
        for (const std::string& init : initialisations) {
          const std::int64_t count = init == "trivial" ? 1 : settings.sampled_initialisations;
          for (std::int64_t k = 0; k < count; ++k) {
            Case c;
            c.index = static_cast<int>(sweep.cases.size());
            c.model = model;
            c.id = model + "/" + method + "/" + InitialisationKey(init, k) +
                   setting.IdSuffix();
            c.model_options = setting.options;
            c.model_options["timestep"] = options_detail::FormatDouble(settings.timestep_s);
            BilliardsSettings one = settings;
            one.method = method;
            one.gradient = ToString(caps.derivatives);
            one.initialisation = init;
            one.sample = k;
            one.bundle.KeepFor(method);
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

std::vector<Row> BilliardsExperiment::Run(const Case& c) const {
  const auto settings = DecodeSettings<BilliardsSettings>(c);
  const std::string key = InitialisationKey(settings.initialisation, settings.sample);
  const BilliardsTask task = MakeBilliardsTask(settings.initialisation, DeriveSeed(name(), "targets/" + key),
                                               DeriveSeed(name(), "launch/" + key), settings.target_tolerance_m);
  const int frames = static_cast<int>(settings.frames);
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, task.scene, c.model_options);
  LaunchObjective launch(*sim, task.start, task.cue, frames, task.loss);
  std::unique_ptr<GradientBundleObjective> bundle;
  Objective* objective = &launch;
  if (const std::optional<GradientBundleOptions> options = settings.bundle.options(c.seed)) {
    bundle = std::make_unique<GradientBundleObjective>(launch, *options);
    objective = bundle.get();
  }
  RecordingObjective recording(*objective);
  const AdamOptions adam = settings.adam.options();
  OptimizerBudget budget;
  budget.max_iterations = settings.iterations;
  budget.threshold = 0.0;  // every target ball within its tolerance: nothing left to gain
  const OptimizerTrace trace = MinimizeAdam(recording, task.launch, adam, budget);

  std::vector<Row> rows = IterationRows(trace, recording);
  const auto& records = recording.records();
  for (size_t i = 0; i < trace.iterations.size() && i < records.size(); ++i) {
    rows[i]["launch_x_m"] = records[i].x[0];
    rows[i]["launch_y_m"] = records[i].x[1];
    rows[i]["launch_vx_mps"] = records[i].x[2];
    rows[i]["launch_vy_mps"] = records[i].x[3];
  }
  Row& last = rows.back();
  last["stop"] = std::string(ToString(trace.stop));
  std::string failure = trace.stop == OptimizerStop::kFailed ? trace.message : "";
  if (!failure.empty() && !launch.last_rollout().ok()) failure += ": " + launch.last_rollout().failure;
  if (trace.best_x.size() == 4) {
    std::vector<Row> paths;
    const double lowest = AppendPaths(*sim, launch, trace.best_x, frames, &paths);
    last["lowest_ball_z_m"] = lowest;
    if (lowest < 0.0 && failure.empty()) {
      failure = "a ball fell through the ground (lowest centre z = " + FormatShort(lowest) + " m)";
    }
    if (!failure.empty()) last["failure"] = failure;
    rows.insert(rows.end(), paths.begin(), paths.end());
    for (size_t k = 0; k < task.loss->bodies.size(); ++k) {
      rows.push_back({{"record", std::string("target")},
                      {"ball", task.scene->model.body(task.loss->bodies[k]).name},
                      {"x_m", task.loss->targets[k].x()},
                      {"y_m", task.loss->targets[k].y()}});
    }
  } else if (!failure.empty()) {
    last["failure"] = failure;
  }
  return rows;
}

namespace {

// A case's iteration rows.
ResultTable Iterations(const ResultTable& table) { return table.Filter("record", "iteration"); }

}  // namespace

// From the trivial initialisation: the long-range model's final / initial loss, and the
// smallest ratio any other model or method reached.
std::vector<ClaimResult> BilliardsExperiment::Summarize(const ResultTable& table) const {
  const ResultTable trivial = Iterations(table).Filter("initialisation", "trivial");
  const ResultTable ours_rows = trivial.Filter("model", "longrange").Filter("method", "gradient");
  const double ours = BestLossRatio(ours_rows);
  if (std::isnan(ours)) return {};
  const OtherRuns others = OtherThanLongRange(trivial);
  if (!std::isfinite(others.min_ratio)) return {};
  ClaimResult r{"billiards.trivial_init_progress"};
  r.ours = ours;
  r.values["other_models_min_loss_ratio"] = others.min_ratio;
  r.note = "best / initial loss from the trivial initialisation after " + ours_rows.Text(0, "iterations") +
           " Adam iterations of " + ours_rows.Text(0, "frames") + " frames: longrange " +
           (ours > 0.999 && ours < 1.0 ? "1 - " + FormatShort(1.0 - ours) : FormatShort(ours)) + others.listing;
  return {r};
}

// Per model and method: the fraction of iterations whose gradient was exactly zero, and the
// mean final / initial loss over the sampled initialisations.
std::vector<Observation> BilliardsExperiment::Observe(const ResultTable& table) const {
  std::vector<Observation> out;
  const ResultTable iterations = Iterations(table);
  for (const std::string& model : iterations.Distinct("model")) {
    const ResultTable m = iterations.Filter("model", model);
    for (const std::string& method : m.Distinct("method")) {
      const ResultTable cell = m.Filter("method", method);
      const ZeroGradientCount count = CountZeroGradients(cell);
      if (count.with_gradient > 0) {
        out.push_back({"zero_gradient_fraction", MethodLabel(model, method),
                       static_cast<double>(count.zero) / count.with_gradient, "",
                       std::to_string(count.with_gradient) + " iterations over every initialisation"});
      }
      const ResultTable sampled = cell.Filter("initialisation", "sampled");
      double sum = 0.0;
      int n = 0;
      for (const std::string& s : sampled.Distinct("sample")) {
        const double ratio = BestLossRatio(sampled.Filter("sample", s));
        if (std::isnan(ratio)) continue;
        sum += ratio;
        ++n;
      }
      if (n > 0) {
        out.push_back({"sampled_loss_ratio", MethodLabel(model, method), sum / n, "",
                       "mean best / initial loss over " + std::to_string(n) + " sampled initialisations"});
      }
    }
  }
  return out;
}

}  // namespace arena
