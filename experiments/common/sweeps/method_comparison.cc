#include "experiments/common/sweeps/method_comparison.h"

#include <cmath>
#include <algorithm>
#include <limits>

#include "experiments/common/summaries/table_stats.h"

namespace arena {

std::vector<Row> IterationRows(const OptimizerTrace& trace, const RecordingObjective& recording) {
  std::vector<Row> rows;
  const auto& records = recording.records();
  for (size_t i = 0; i < trace.iterations.size() && i < records.size(); ++i) {
    const OptimizerIteration& it = trace.iterations[i];
    Row row{{"record", std::string("iteration")},
            {"iteration", it.iteration},
            {"loss", records[i].loss},
            {"best_loss", it.loss},
            {"rollouts", it.evaluations},
            {"elapsed_s", it.elapsed_s}};
    if (std::isfinite(records[i].gradient_norm)) {
      row["gradient_norm"] = records[i].gradient_norm;
      row["zero_gradient"] = records[i].zero_gradient;
    }
    rows.push_back(std::move(row));
  }
  if (rows.empty()) rows.push_back({{"record", std::string("iteration")}});
  return rows;
}

double BestLossRatio(const ResultTable& iterations) {
  if (iterations.num_rows() == 0) return std::numeric_limits<double>::quiet_NaN();
  const int last = iterations.num_rows() - 1;
  if (!iterations.Text(last, "failure").empty()) return std::numeric_limits<double>::quiet_NaN();
  const double first = iterations.Number(0, "loss"), best = iterations.Number(last, "best_loss");
  if (!(first > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  return best / first;
}

std::string MethodLabel(const std::string& model, const std::string& method) {
  return method == "gradient" ? model : model + " (bundle)";
}

ZeroGradientCount CountZeroGradients(const ResultTable& iterations) {
  ZeroGradientCount count;
  for (int i = 0; i < iterations.num_rows(); ++i) {
    const std::string& z = iterations.Text(i, "zero_gradient");
    if (z.empty()) continue;
    ++count.with_gradient;
    count.zero += z == "true";
  }
  return count;
}

OtherRuns OtherThanLongRange(const ResultTable& iterations) {
  OtherRuns out;
  out.min_ratio = std::numeric_limits<double>::infinity();
  for (const std::string& model : iterations.Distinct("model")) {
    const ResultTable m = iterations.Filter("model", model);
    for (const std::string& method : m.Distinct("method")) {
      if (model == "longrange" && method == "gradient") continue;
      const double ratio = BestLossRatio(m.Filter("method", method));
      out.listing += ", " + MethodLabel(model, method) + " " + (std::isnan(ratio) ? "failed" : FormatShort(ratio));
      if (!std::isnan(ratio)) out.min_ratio = std::min(out.min_ratio, ratio);
    }
  }
  return out;
}

}  // namespace arena
