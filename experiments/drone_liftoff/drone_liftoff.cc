#include "experiments/drone_liftoff/drone_liftoff.h"

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
#include "solvers/first_order_optimizers.h"
#include "trajectory/shooting_objective.h"
#include "scenes/nimble_robots.h"

namespace arena {

namespace {

const std::vector<std::string> kGradients = {"standard", "complementarity_aware"};
constexpr double kDroneLiftoffTimestep = 0.001;  // DART's default, which Nimble's example keeps
constexpr const char* kAwareOption = "complementarity_aware";
constexpr double kMaxHeight = 1e6;  // m
constexpr double kMaxForce = 1e6;   // N
// A rollout whose drone (a ball 0.6 m across) sinks deeper than it is thick has gone through the
// floor: its loss and gradient describe no physical drone.
constexpr double kMaxPenetration = 0.6;  // m

// The config's keys and a case's parameters.
struct DroneLiftoffSettings {
  std::vector<std::string> gradients;
  std::string gradient;
  std::int64_t steps = 0;
  double learning_rate = 0.0;
  std::int64_t iterations = 0;
  double target_height = 0.0;
  double force_limit = 0.0;

  template <class V>
  void VisitFields(V&& v) {
    v("gradients", gradients, "the gradients compared (the axis)", "", std::nullopt, SettingRole::kConfig);
    v("gradient", gradient, "standard, or complementarity_aware (Sec. IV-D)", "", std::nullopt, SettingRole::kCase);
    v("steps", steps, "timesteps of the rollout (the loss is on the last one)", "", Closed(1, kMaxStepsPerCase));
    v("learning_rate", learning_rate, "gradient descent step", "", Positive());
    v("iterations", iterations, "gradient descent iterations", "", Closed(0, kMaxIterationsPerCase));
    // Heights and forces whose squared loss cannot overflow within kMaxStepsPerCase steps.
    v("target_height", target_height, "the height the loss asks for at the last step (m)", "m",
      Closed(-kMaxHeight, kMaxHeight));
    v("force_limit", force_limit, "forces are projected onto [-limit, limit] (N)", "N", Positive(kMaxForce));
  }
};

}  // namespace

std::vector<Column> DroneLiftoffExperiment::columns() const {
  std::vector<Column> columns = ParamColumns<DroneLiftoffSettings>();
  const std::vector<Column> rows = {
      {"iteration", "0 = the initial forces; the last row is after the final update"},
      {"loss", "(target_height - q_T)^2 with this iteration's forces (m^2)"},
      {"height", "q_T, the drone's height after the rollout (m)"},
      {"gradient_norm", "|dL/du| (empty on the last row, which takes no step)"},
      {"aware_steps", "steps whose backward pass kept the loss-guided contact classes"},
      {"contact_steps", "steps of the rollout with the drone touching the floor"},
      {"mean_force", "mean of the 500 forces (N; the drone weighs 0.981 N)"},
      {"failure", "why the run stopped early, if it did: a failed step, no step, a non-finite loss, or the drone "
                  "went through the floor", false, ColumnType::kText},
  };
  columns.insert(columns.end(), rows.begin(), rows.end());
  return columns;
}

Sweep DroneLiftoffExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const auto settings = ReadSettings<DroneLiftoffSettings>(config);
  const std::vector<std::string>& gradients = settings.gradients;
  for (const std::string& g : gradients) {
    if (std::find(kGradients.begin(), kGradients.end(), g) == kGradients.end()) {
      throw InvalidArgument(config.file() + ": gradients: unknown gradient '" + g + "'; valid: " + Join(kGradients));
    }
  }
  PrismaticBallOptions drone;
  drone.force_limit = settings.force_limit;
  const std::shared_ptr<const Scene> scene = PrismaticBallScene(drone);
  Sweep sweep;
  for (const std::string& model : models) {
    const ModelInfo& info = FindModel(model);
    // The complementarity-aware gradient is an option of the models that have it (nimble).
    bool has_aware_option = false;
    for (const OptionInfo& o : info.options()) has_aware_option |= o.key == kAwareOption;
    const std::vector<std::string> controlled =
        has_aware_option ? std::vector<std::string>{"timestep", kAwareOption} : std::vector<std::string>{"timestep"};
    for (const ModelSetting& setting : ExpandModelSweep(config, model, controlled,
                                                        "the experiment sets them (Nimble's 0.001 s; its gradients axis)")) {
      const Capabilities caps = info.capabilities_for(setting.options);
      if (std::string why = CheckSupport(caps, *scene); !why.empty() || !caps.has_derivatives()) {
        sweep.notes.push_back(model + ": skipped (" + (why.empty() ? "no step derivatives" : why) + ")");
        continue;
      }
      for (const std::string& g : gradients) {
        if (g == "complementarity_aware" && !has_aware_option) {
          sweep.notes.push_back(model + ": skipped gradient " + g + " (the model has no " + kAwareOption + " option)");
          continue;
        }
        Case c;
        c.index = static_cast<int>(sweep.cases.size());
        c.model = model;
        c.id = model + "/" + g + setting.IdSuffix();
        c.model_options = setting.options;
        c.model_options["timestep"] = options_detail::FormatDouble(kDroneLiftoffTimestep);
        if (has_aware_option) c.model_options[kAwareOption] = g == "complementarity_aware" ? "true" : "false";
        DroneLiftoffSettings one = settings;
        one.gradient = g;
        c.params = CaseParams(one);
        c.seed = DeriveSeed(name(), c.id);
        sweep.cases.push_back(std::move(c));
      }
    }
  }
  return sweep;
}

std::vector<Row> DroneLiftoffExperiment::Run(const Case& c) const {
  const auto settings = DecodeSettings<DroneLiftoffSettings>(c);
  const int steps = static_cast<int>(settings.steps);
  const int iterations = static_cast<int>(settings.iterations);
  const double lr = settings.learning_rate;
  PrismaticBallOptions drone;
  drone.force_limit = settings.force_limit;
  const std::shared_ptr<const Scene> scene = PrismaticBallScene(drone);
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, scene, c.model_options);
  if (steps < 1) {
    Row row;
    row["iteration"] = std::int64_t{0};
    row["failure"] = "no step ran: steps = " + std::to_string(steps);
    return {row};
  }
  State start = DefaultState(*scene);
  start.v[0] = -1e-4;  // into the floor: the contact clamps, as in Nimble's example (Sec. VII-C)
  // L = (q_T - target)^2: a terminal loss on the height alone.
  auto loss = std::make_shared<TerminalStateLoss>();
  loss->q_target = VecX::Constant(1, settings.target_height);
  loss->q_weight = VecX::Ones(1);
  loss->v_weight = VecX::Zero(1);
  ShootingObjective objective(*sim, start, steps, loss);

  // Plain projected gradient descent, as the paper's example (Fig. 8), one row per iterate.
  VecX u = VecX::Zero(steps), gradient;
  std::vector<Row> rows;
  for (int it = 0; it <= iterations; ++it) {
    Row row;
    row["iteration"] = static_cast<std::int64_t>(it);
    row["mean_force"] = u.mean();
    const double value = objective.Evaluate(u, it < iterations ? &gradient : nullptr);
    const Rollout& rollout = objective.last_rollout();
    row["contact_steps"] = static_cast<std::int64_t>(rollout.contact_steps());
    std::string failure = rollout.failure;
    if (const double depth = MaxPenetration(*scene, rollout.states); failure.empty() && depth > kMaxPenetration) {
      failure = "went through the floor: penetration " + options_detail::FormatDouble(depth) + " m, deeper than the " +
                options_detail::FormatDouble(kMaxPenetration) + " m the drone is thick";
    }
    // An objective that could not evaluate (a +inf loss) leaves the gradient empty: no descent step.
    const bool gradient_ok = it == iterations || (gradient.size() == u.size() && gradient.allFinite());
    if (failure.empty() && !(std::isfinite(value) && gradient_ok)) {
      failure = "the loss or its gradient is not finite";
    }
    if (!failure.empty()) {
      row["failure"] = failure;
      rows.push_back(std::move(row));
      break;
    }
    row["height"] = rollout.states.back().q[0];
    row["loss"] = value;
    if (it == iterations) {
      rows.push_back(std::move(row));
      break;
    }
    row["gradient_norm"] = gradient.norm();
    row["aware_steps"] = objective.last_gradient().alternative_steps;
    rows.push_back(std::move(row));
    u = ProjectOntoBounds(u - lr * gradient, objective.lower(), objective.upper());
  }
  return rows;
}

// Final / initial loss per gradient (the claims: the standard gradient's loss does not move,
// the aware one's falls).
std::vector<ClaimResult> DroneLiftoffExperiment::Summarize(const ResultTable& table) const {
  std::vector<ClaimResult> claims;
  const ResultTable nimble = table.Filter("model", "nimble");
  for (const std::string& g : kGradients) {
    const ResultTable t = nimble.Filter("gradient", g);
    if (t.num_rows() == 0) continue;
    const int last = t.num_rows() - 1;
    if (!t.Text(last, "failure").empty() || t.Text(0, "loss").empty() || t.Text(last, "loss").empty()) continue;
    const double first = t.Number(0, "loss");
    const double final = t.Number(last, "loss");
    ClaimResult r{g == "standard" ? "drone_liftoff.standard_loss_ratio" : "drone_liftoff.aware_loss_ratio"};
    r.ours = final / first;
    // The iteration at which the loss first fell by 1 %: the escape.
    int escape = -1;
    for (int i = 0; i < t.num_rows() && escape < 0; ++i) {
      if (!t.Text(i, "loss").empty() && t.Number(i, "loss") < 0.99 * first) escape = static_cast<int>(t.Number(i, "iteration"));
    }
    r.note = "loss " + FormatShort(first) + " -> " + FormatShort(final) + " m^2 over " + std::to_string(last) +
             " iterations (height " + FormatShort(t.Number(0, "height")) + " -> " + FormatShort(t.Number(last, "height")) +
             " m); " + (escape < 0 ? std::string("the loss never fell by 1 %") : "it first fell by 1 % at iteration " + std::to_string(escape));
    claims.push_back(std::move(r));
  }
  return claims;
}

// Every model and gradient: the final / initial loss and the first gradient's norm (exactly 0
// where the resting contact clamps and the model's gradient sees no way out).
std::vector<Observation> DroneLiftoffExperiment::Observe(const ResultTable& table) const {
  std::vector<Observation> out;
  for (const std::string& model : table.Distinct("model")) {
    const ResultTable m = table.Filter("model", model);
    for (const std::string& g : m.Distinct("gradient")) {
      const ResultTable t = m.Filter("gradient", g);
      const int last = t.num_rows() - 1;
      if (last < 0 || !t.Text(last, "failure").empty() || t.Text(0, "loss").empty() || t.Text(last, "loss").empty()) continue;
      const std::string first_norm = t.Text(0, "gradient_norm");
      out.push_back({"loss_ratio", model, t.Number(last, "loss") / t.Number(0, "loss"), "",
                     g + " gradient, " + std::to_string(last) + " iterations; first |dL/du| = " +
                         (first_norm.empty() ? "-" : FormatShort(t.Number(0, "gradient_norm")))});
    }
  }
  return out;
}

}  // namespace arena
