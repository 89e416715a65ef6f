#include "solvers/optimizer_trace.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/common/case_progress.h"
#include "core/common/deadline.h"

namespace arena {

std::string OptimizerBudget::Validate() const {
  if (max_evaluations < 1) return "max_evaluations must be >= 1";
  if (max_iterations < 1) return "max_iterations must be >= 1";
  if (!(time_budget_s >= 0.0)) return "time_budget_s must be >= 0";
  return "";
}

std::string_view ToString(OptimizerStop stop) {
  switch (stop) {
    case OptimizerStop::kThreshold: return "threshold";
    case OptimizerStop::kMaxEvaluations: return "max_evaluations";
    case OptimizerStop::kTimeBudget: return "time_budget";
    case OptimizerStop::kMaxIterations: return "max_iterations";
    case OptimizerStop::kConverged: return "converged";
    case OptimizerStop::kFailed: return "failed";
  }
  return "?";
}

TraceRecorder::TraceRecorder(const Objective& objective, const OptimizerBudget& budget, OptimizerTrace* trace)
    : objective_(objective),
      budget_(budget),
      trace_(trace),
      start_(Clock::now()),
      evaluations0_(objective.evaluations()),
      gradients0_(objective.gradient_evaluations()) {}

// "optimiser iteration 37 of 100, best loss 2.2275, 31m02s": a long case's sign of life.
std::string TraceRecorder::Describe(const OptimizerIteration& it) const {
  char best[32];
  std::snprintf(best, sizeof(best), "%.6g", best_);
  std::string text = "optimiser iteration " + std::to_string(it.iteration);
  if (budget_.max_iterations < (std::int64_t{1} << 40)) text += " of " + std::to_string(budget_.max_iterations);
  const long s = std::lround(it.elapsed_s);
  return text + ", best loss " + best + ", " + std::to_string(s / 60) + " min " + std::to_string(s % 60) + " s in";
}

bool TraceRecorder::Record(double loss, const VecX& x) {
  OptimizerIteration it;
  it.iteration = static_cast<std::int64_t>(trace_->iterations.size());
  it.evaluations = objective_.evaluations() - evaluations0_;
  it.gradient_evaluations = objective_.gradient_evaluations() - gradients0_;
  it.elapsed_s = std::chrono::duration<double>(Clock::now() - start_).count();
  if (loss < best_ || trace_->best_x.size() == 0) {
    if (loss < best_) best_ = loss;
    trace_->best_x = x;
  }
  it.loss = best_;
  trace_->iterations.push_back(it);
  if (best_ <= budget_.threshold) {
    trace_->stop = OptimizerStop::kThreshold;
  } else if (it.evaluations >= budget_.max_evaluations) {
    trace_->stop = OptimizerStop::kMaxEvaluations;
  } else if (budget_.time_budget_s > 0.0 && it.elapsed_s >= budget_.time_budget_s) {
    trace_->stop = OptimizerStop::kTimeBudget;
  } else if (DeadlinePassed()) {
    // The case's wall-clock budget (core/common/deadline.h), not the optimiser's own.
    trace_->stop = OptimizerStop::kTimeBudget;
    trace_->message = DeadlineMessage();
  } else if (it.iteration >= budget_.max_iterations) {
    trace_->stop = OptimizerStop::kMaxIterations;
  } else {
    ReportCaseProgress([&] { return Describe(it); });
    return false;
  }
  stopped_ = true;
  return true;
}

}  // namespace arena
