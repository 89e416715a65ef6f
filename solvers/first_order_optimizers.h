// Minimisers of an Objective (solvers/objective.h) that need its value and gradient:
//   lbfgs             Ceres' line-search L-BFGS (GradientProblemSolver); ignores bounds.
//   adam              Adam (Kingma and Ba 2015) with configurable betas (seed 004 uses
//                     (0.3, 0.5)), iterates projected onto the bounds.
//   gradient_descent  x <- P(x - lr grad f(x)), P the projection onto the bounds (the plain
//                     descent of seed 002 Fig. 8).
// Each records iteration 0 at the starting point and then one entry per iteration (the best
// loss so far) and stops on the budget (solvers/optimizer_trace.h). An evaluation that fails
// (+inf) is recorded as such: L-BFGS backs off in its line search; Adam and gradient descent
// stop with kFailed, since they have no step to take.
#pragma once

#include <functional>
#include <string>

#include "solvers/objective.h"
#include "solvers/optimizer_trace.h"

namespace arena {

/// `after_iteration` (optional) sees each iterate after Ceres' iteration k >= 1 and returns
/// true to stop there (trace.stop is then kMaxIterations unless the budget stopped it).
OptimizerTrace MinimizeLbfgs(Objective& objective, const VecX& x0, const OptimizerBudget& budget,
                             const std::function<bool(const VecX& x)>& after_iteration = {});

struct AdamOptions {
  double learning_rate = 1e-3;
  double beta1 = 0.9;    // first-moment decay
  double beta2 = 0.999;  // second-moment decay
  double epsilon = 1e-8;
  /// "" when valid: learning_rate > 0, betas in [0, 1), epsilon > 0.
  std::string Validate() const;
};
OptimizerTrace MinimizeAdam(Objective& objective, const VecX& x0, const AdamOptions& options,
                            const OptimizerBudget& budget);

OptimizerTrace MinimizeGradientDescent(Objective& objective, const VecX& x0, double learning_rate,
                                       const OptimizerBudget& budget);

/// x clamped to [lower, upper] (either may be empty: no bound).
VecX ProjectOntoBounds(const VecX& x, const VecX& lower, const VecX& upper);

}  // namespace arena
