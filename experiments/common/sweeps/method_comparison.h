// Loss-vs-iteration runs of one task on several models and methods (the model's own gradient,
// or the gradient bundle around it), as seed 004's optimisation figures compare them (billiards,
// ant_push): the rows an Adam run writes per iteration, and the measures read back from them.
#pragma once

#include <string>
#include <vector>

#include "experiments/result_table.h"
#include "experiments/common/meters/recording_objective.h"
#include "experiments/experiment.h"
#include "solvers/first_order_optimizers.h"

namespace arena {

/// One row per iteration (record = iteration): iteration, loss (of the iterate), best_loss (so
/// far), rollouts, elapsed_s, and gradient_norm and zero_gradient where the iterate's gradient was
/// evaluated. Record i of `recording` belongs to iteration i (Adam evaluates once an iteration).
/// Never empty: a run that stopped before its first iteration gets one bare row.
std::vector<Row> IterationRows(const OptimizerTrace& trace, const RecordingObjective& recording);

/// The best loss at the end over the loss at iteration 0 of one run's iteration rows (NaN if it
/// has none, its last row names a failure, or its start's loss is not positive).
double BestLossRatio(const ResultTable& iterations);

/// "model" for the gradient method, "model (bundle)" for the bundle.
std::string MethodLabel(const std::string& model, const std::string& method);

/// How many of the rows had a gradient, and how many of those were exactly zero.
struct ZeroGradientCount {
  int zero = 0;
  int with_gradient = 0;
};
ZeroGradientCount CountZeroGradients(const ResultTable& iterations);

/// BestLossRatio of every (model, method) of `iterations` except longrange's own gradient: their
/// smallest (inf if none ran) and ", <label> <ratio or failed>" for each, in table order.
struct OtherRuns {
  double min_ratio = 0.0;
  std::string listing;
};
OtherRuns OtherThanLongRange(const ResultTable& iterations);

}  // namespace arena
