// What every optimiser of solvers/ records and when it stops: the best loss after each
// iteration with the work and wall-clock time it took, a budget, and the reason it stopped.
#pragma once

#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "core/math/types.h"
#include "solvers/objective.h"

namespace arena {

struct OptimizerBudget {
  double threshold = -std::numeric_limits<double>::infinity();  // stop once the best loss is <= this
  std::int64_t max_evaluations = std::numeric_limits<std::int64_t>::max();  // of f (rollouts)
  double time_budget_s = 0.0;      // wall-clock; 0: none
  std::int64_t max_iterations = std::numeric_limits<std::int64_t>::max();

  /// "" when valid, else the problem (max_evaluations and max_iterations >= 1, time >= 0).
  std::string Validate() const;
};

struct OptimizerIteration {
  std::int64_t iteration = 0;   // 0: the starting point
  std::int64_t evaluations = 0;  // since the optimiser started
  std::int64_t gradient_evaluations = 0;
  double elapsed_s = 0.0;       // since the optimiser started
  double loss = 0.0;            // best so far (+inf if every evaluation so far failed)
};

enum class OptimizerStop { kThreshold, kMaxEvaluations, kTimeBudget, kMaxIterations, kConverged, kFailed };
std::string_view ToString(OptimizerStop stop);

struct OptimizerTrace {
  std::vector<OptimizerIteration> iterations;
  OptimizerStop stop = OptimizerStop::kFailed;
  std::string message;  // the optimiser's own words (Ceres' termination message), or why it failed
  VecX best_x;          // where the best loss was found
  VecX last_x;          // the final iterate (L-BFGS: where Ceres stopped)

  double best_loss() const {
    return iterations.empty() ? std::numeric_limits<double>::infinity() : iterations.back().loss;
  }
};

/// Records iterations into a trace and decides when the budget stops the optimiser.
class TraceRecorder {
 public:
  TraceRecorder(const Objective& objective, const OptimizerBudget& budget, OptimizerTrace* trace);

  /// True once Record has stopped the run.
  bool stopped() const { return stopped_; }
  /// Records an iteration whose loss (at x) is `loss`; returns true when the budget, or the
  /// calling thread's deadline (core/common/deadline.h: stop kTimeBudget), says stop (and sets
  /// trace->stop).
  bool Record(double loss, const VecX& x);

 private:
  std::string Describe(const OptimizerIteration& it) const;

  using Clock = std::chrono::steady_clock;
  const Objective& objective_;
  OptimizerBudget budget_;
  OptimizerTrace* trace_;
  Clock::time_point start_;
  std::int64_t evaluations0_, gradients0_;
  double best_ = std::numeric_limits<double>::infinity();
  bool stopped_ = false;
};

}  // namespace arena
