#include "experiments/drone_liftoff.h"

#include <algorithm>
#include <cmath>

#include "core/common/error.h"
#include "core/common/strings.h"
#include "experiments/case_params.h"
#include "experiments/model_sweep.h"
#include "experiments/nimble_scenes.h"
#include "experiments/table_stats.h"
#include "harness/config.h"
#include "harness/result_table.h"
#include "models/nimble/nimble.h"
#include "models/registry.h"

namespace arena {

namespace {

const std::vector<std::string> kGradients = {"standard", "complementarity_aware"};
constexpr double kTimestep = 0.001;  // Nimble's script (DART's default)

}  // namespace

std::vector<Column> DroneLiftoffExperiment::columns() const {
  return {
      {"gradient", "standard, or complementarity_aware (Sec. IV-D)"},
      {"steps", "timesteps of the rollout (the loss is on the last one)"},
      {"learning_rate", "gradient descent step"},
      {"iterations", "gradient descent iterations"},
      {"target_height", "the height the loss asks for at the last step (m)"},
      {"force_limit", "forces are projected onto [-limit, limit] (N)"},
      {"iteration", "0 = the initial forces; the last row is after the final update"},
      {"loss", "(target_height - q_T)^2 with this iteration's forces (m^2)"},
      {"height", "q_T, the drone's height after the rollout (m)"},
      {"gradient_norm", "|dL/du| (empty on the last row, which takes no step)"},
      {"aware_steps", "steps whose backward pass kept the loss-guided contact classes"},
      {"contact_steps", "steps of the rollout with the drone touching the floor"},
      {"mean_force", "mean of the 500 forces (N; the drone weighs 0.981 N)"},
      {"failure", "why the run stopped early, if it did"},
  };
}

Sweep DroneLiftoffExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const std::vector<std::string> gradients = config.Strings("gradients");
  const std::int64_t steps = config.Int("steps");
  const std::int64_t iterations = config.Int("iterations");
  const double lr = config.Double("learning_rate");
  const double target = config.Double("target_height");
  const double limit = config.Double("force_limit");
  for (const std::string& g : gradients) {
    if (std::find(kGradients.begin(), kGradients.end(), g) == kGradients.end()) {
      throw InvalidArgument(config.file() + ": gradients: unknown gradient '" + g + "'; valid: " + Join(kGradients));
    }
  }
  if (steps <= 0) throw InvalidArgument(config.file() + ": steps must be > 0");
  if (iterations < 0) throw InvalidArgument(config.file() + ": iterations must be >= 0");
  if (!(lr > 0.0)) throw InvalidArgument(config.file() + ": learning_rate must be > 0");
  if (!(limit > 0.0)) throw InvalidArgument(config.file() + ": force_limit must be > 0");
  Sweep sweep;
  for (const std::string& model : models) {
    // Complementarity-aware gradients are nimble's Backprop (they need the loss gradient).
    if (model != "nimble") {
      sweep.notes.push_back(model + ": skipped (complementarity-aware gradients are nimble's)");
      continue;
    }
    for (const ModelSetting& setting : ExpandModelSweep(config, model, {"timestep", "complementarity_aware"},
                                                        "the experiment sets them (Nimble's 0.001 s; its gradients axis)")) {
      for (const std::string& g : gradients) {
        Case c;
        c.index = static_cast<int>(sweep.cases.size());
        c.model = model;
        c.id = model + "/" + g + (setting.param_name.empty() ? "" : "/" + setting.param_name + "=" + setting.param_text);
        c.model_options = setting.options;
        c.model_options["timestep"] = options_detail::FormatDouble(kTimestep);
        c.model_options["complementarity_aware"] = g == "complementarity_aware" ? "true" : "false";
        c.params = {{"gradient", g},
                    {"steps", steps},
                    {"learning_rate", lr},
                    {"iterations", iterations},
                    {"target_height", target},
                    {"force_limit", limit}};
        c.seed = DeriveSeed(name(), c.id);
        sweep.cases.push_back(std::move(c));
      }
    }
  }
  return sweep;
}

std::vector<Row> DroneLiftoffExperiment::Run(const Case& c) const {
  const int steps = static_cast<int>(ParamNumber(c, "steps"));
  const int iterations = static_cast<int>(ParamNumber(c, "iterations"));
  const double lr = ParamNumber(c, "learning_rate");
  const double target = ParamNumber(c, "target_height");
  const double limit = ParamNumber(c, "force_limit");
  PrismaticBallOptions drone;
  drone.force_limit = limit;
  const std::shared_ptr<const Scene> scene = PrismaticBallScene(drone);
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, scene, c.model_options);
  auto* nimble = dynamic_cast<NimbleSimulator*>(sim.get());
  if (nimble == nullptr) throw Unsupported(c.model + " has no complementarity-aware Backprop");
  State start = DefaultState(*scene);
  start.v[0] = -1e-4;  // into the floor: the contact clamps (digest 8.5)

  VecX u = VecX::Zero(steps);
  std::vector<State> states(steps + 1);
  std::vector<Row> rows;
  for (int it = 0; it <= iterations; ++it) {
    Row row;
    row["iteration"] = static_cast<std::int64_t>(it);
    row["mean_force"] = u.mean();
    // Forward: the rollout under the current forces.
    states[0] = start;
    std::int64_t contact_steps = 0;
    std::string failure;
    for (int t = 0; t < steps && failure.empty(); ++t) {
      states[t + 1] = states[t];
      const StepReport r = sim->Step(states[t + 1], Control{VecX::Constant(1, u[t])});
      if (!r.ok()) failure = "step " + std::to_string(t) + ": " + std::string(ToString(r.status)) + " " + r.message;
      contact_steps += r.contacts > 0;
    }
    row["contact_steps"] = contact_steps;
    if (!failure.empty()) {
      row["failure"] = failure;
      rows.push_back(std::move(row));
      break;
    }
    const double height = states[steps].q[0];
    row["height"] = height;
    row["loss"] = (target - height) * (target - height);
    if (it == iterations) {
      rows.push_back(std::move(row));
      break;
    }
    // Backward: dL/du through every step (Backprop's outputs feed the previous step).
    VecX lq = VecX::Constant(1, -2.0 * (target - height)), lv = VecX::Zero(1), lu;
    VecX grad(steps);
    std::int64_t aware = 0;
    for (int t = steps - 1; t >= 0; --t) {
      aware += nimble->Backprop(states[t], Control{VecX::Constant(1, u[t])}, lq, lv, &lq, &lv, &lu);
      grad[t] = lu[0];
    }
    row["gradient_norm"] = grad.norm();
    row["aware_steps"] = aware;
    rows.push_back(std::move(row));
    u = (u - lr * grad).cwiseMax(-limit).cwiseMin(limit);
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

}  // namespace arena
