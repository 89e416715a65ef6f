// Ceres' L-BFGS on an Objective (declared in solvers/first_order_optimizers.h). Kept in its own
// file: it is the only one that includes Ceres.
#include <cmath>
#include <limits>

#include <ceres/ceres.h>

#include "solvers/first_order_optimizers.h"

namespace arena {

namespace {

// The first evaluation (x0) is recorded as iteration 0 here: Ceres may stop before its first
// callback (e.g. on a zero gradient).
class CeresFunction final : public ceres::FirstOrderFunction {
 public:
  CeresFunction(Objective* objective, TraceRecorder* recorder) : objective_(objective), recorder_(recorder) {}
  // A failed evaluation (+inf) is a failed evaluation for Ceres: its line search backs off.
  bool Evaluate(const double* parameters, double* cost, double* gradient) const override {
    const Eigen::Map<const VecX> x(parameters, objective_->dimension());
    x_ = x;
    *cost = objective_->Evaluate(x_, gradient == nullptr ? nullptr : &gradient_);
    if (first_) {
      first_ = false;
      recorder_->Record(*cost, x_);
    }
    if (!std::isfinite(*cost)) return false;
    if (gradient != nullptr) Eigen::Map<VecX>(gradient, objective_->dimension()) = gradient_;
    return true;
  }
  int NumParameters() const override { return objective_->dimension(); }

 private:
  Objective* objective_;
  TraceRecorder* recorder_;
  mutable bool first_ = true;  // state of the const Evaluate that Ceres requires
  mutable VecX x_, gradient_;  // its scratch
};

class StopCallback final : public ceres::IterationCallback {
 public:
  StopCallback(TraceRecorder* recorder, const double* x, int n, const std::function<bool(const VecX&)>& hook)
      : recorder_(recorder), x_(x), n_(n), hook_(hook) {}
  // Iteration 0 is the first evaluation, which CeresFunction recorded. Ceres updates the
  // parameters before callbacks (update_state_every_iteration).
  ceres::CallbackReturnType operator()(const ceres::IterationSummary& summary) override {
    if (summary.iteration == 0) return recorder_->stopped() ? ceres::SOLVER_TERMINATE_SUCCESSFULLY : ceres::SOLVER_CONTINUE;
    const Eigen::Map<const VecX> x(x_, n_);
    if (recorder_->Record(summary.cost, x)) return ceres::SOLVER_TERMINATE_SUCCESSFULLY;
    if (hook_ && hook_(x)) {
      hooked_ = true;
      return ceres::SOLVER_TERMINATE_SUCCESSFULLY;
    }
    return ceres::SOLVER_CONTINUE;
  }
  bool hooked() const { return hooked_; }

 private:
  TraceRecorder* recorder_;
  const double* x_;
  int n_;
  const std::function<bool(const VecX&)>& hook_;
  bool hooked_ = false;
};

}  // namespace

OptimizerTrace MinimizeLbfgs(Objective& objective, const VecX& x0, const OptimizerBudget& budget,
                             const std::function<bool(const VecX& x)>& after_iteration) {
  OptimizerTrace trace;
  TraceRecorder recorder(objective, budget, &trace);
  VecX x = x0;
  StopCallback callback(&recorder, x.data(), static_cast<int>(x.size()), after_iteration);
  ceres::GradientProblemSolver::Options options;
  options.line_search_direction_type = ceres::LBFGS;
  options.max_num_iterations = std::numeric_limits<int>::max();  // the budget stops it
  options.callbacks.push_back(&callback);
  options.update_state_every_iteration = true;
  options.logging_type = ceres::SILENT;
  // Ceres' relative tolerances would stop on a plateau; here the threshold and budget decide.
  options.function_tolerance = 1e-14;
  options.parameter_tolerance = 1e-14;
  options.gradient_tolerance = 0.0;
  const ceres::GradientProblem problem(new CeresFunction(&objective, &recorder));
  ceres::GradientProblemSolver::Summary summary;
  ceres::Solve(options, problem, x.data(), &summary);
  trace.message = summary.message;
  trace.last_x = x;
  if (callback.hooked()) {
    trace.stop = OptimizerStop::kMaxIterations;
  } else if (trace.iterations.empty() || !std::isfinite(trace.iterations[0].loss)) {
    trace.stop = OptimizerStop::kFailed;  // the starting point could not be evaluated
  } else if (summary.termination_type == ceres::CONVERGENCE) {
    trace.stop = OptimizerStop::kConverged;  // a tolerance of Ceres' before the threshold
  } else if (summary.termination_type != ceres::USER_SUCCESS) {
    trace.stop = OptimizerStop::kFailed;
  }
  return trace;
}

}  // namespace arena
