#include "trajectory/receding_horizon.h"

#include <cstdint>
#include <optional>

#include "core/common/error.h"
#include "trajectory/shooting_objective.h"

namespace arena {

std::string RecedingHorizonOptions::Validate() const {
  if (steps < 1) return "steps must be >= 1";
  if (window < 1) return "window must be >= 1";
  if (iterations < 1) return "iterations must be >= 1";
  if (std::string problem = adam.Validate(); !problem.empty()) return "adam: " + problem;
  if (bundle) {
    if (std::string problem = bundle->Validate(); !problem.empty()) return "bundle: " + problem;
  }
  return "";
}

namespace {

// The plan moved one frame ahead: the next window starts where this one's second frame was, and
// its last frame repeats the last control.
VecX Shifted(const VecX& plan, int nu) {
  if (nu == 0) return plan;
  VecX out(plan.size());
  out.head(plan.size() - nu) = plan.tail(plan.size() - nu);
  out.tail(nu) = plan.tail(nu);
  return out;
}

}  // namespace

RecedingHorizonResult RunRecedingHorizon(Simulator& sim, const State& start,
                                         std::shared_ptr<const TrajectoryLoss> loss,
                                         const RecedingHorizonOptions& options, const AfterRealStep& after_step) {
  if (std::string problem = options.Validate(); !problem.empty()) {
    throw InvalidArgument("receding horizon: " + problem);
  }
  const int nu = sim.scene().nu();
  RecedingHorizonResult result;
  result.states.push_back(start);
  result.controls = VecX::Zero(static_cast<Eigen::Index>(options.steps) * nu);
  VecX plan = VecX::Zero(static_cast<Eigen::Index>(options.window) * nu);
  OptimizerBudget budget;
  budget.max_iterations = options.iterations;
  for (int t = 0; t < options.steps; ++t) {
    ShootingObjective objective(sim, result.states.back(), options.window, loss);
    std::optional<GradientBundleObjective> bundled;
    if (options.bundle) {
      GradientBundleOptions b = *options.bundle;
      b.seed += static_cast<std::uint64_t>(t);
      bundled.emplace(objective, b);
    }
    Objective& followed = bundled ? static_cast<Objective&>(*bundled) : objective;
    const OptimizerTrace trace = MinimizeAdam(followed, plan, options.adam, budget);
    result.window_losses.push_back(trace.best_loss());
    if (trace.best_x.size() == plan.size()) plan = trace.best_x;
    State next = result.states.back();
    const StepReport report = sim.Step(next, ControlAt(plan, nu, 0));
    if (!report.ok()) {
      result.failure = "real step " + std::to_string(t) + ": " + report.message;
      break;
    }
    result.controls.segment(static_cast<Eigen::Index>(t) * nu, nu) = plan.head(nu);
    result.states.push_back(std::move(next));
    plan = Shifted(plan, nu);
    if (after_step && !after_step(t, result.states.back())) break;
  }
  return result;
}

}  // namespace arena
