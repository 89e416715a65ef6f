#include "solvers/cross_entropy.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "core/common/error.h"
#include "solvers/first_order_optimizers.h"

namespace arena {

std::string CemOptions::Validate() const {
  if (population < 2) return "population must be >= 2";
  if (elites < 1 || elites > population) return "elites must be in [1, population]";
  if (!(initial_std > 0.0) || !std::isfinite(initial_std)) return "initial_std must be > 0 and finite";
  return "";
}

OptimizerTrace MinimizeCrossEntropy(Objective& objective, const VecX& x0, const CemOptions& options,
                                    const OptimizerBudget& budget, std::uint64_t seed) {
  if (std::string why = options.Validate(); !why.empty()) throw InvalidArgument("cem: " + why);
  if (std::string why = budget.Validate(); !why.empty()) throw InvalidArgument("cem: budget: " + why);
  const int n = objective.dimension();
  if (x0.size() != n) throw InvalidArgument("cem: the starting point has the wrong size");
  const VecX lower = objective.lower(), upper = objective.upper();
  const bool bounded = lower.size() == n && upper.size() == n && lower.allFinite() && upper.allFinite();

  OptimizerTrace trace;
  TraceRecorder recorder(objective, budget, &trace);
  VecX mean = x0;
  VecX std = bounded ? VecX(options.initial_std * upper.cwiseAbs().cwiseMax(lower.cwiseAbs()))
                     : VecX::Constant(n, options.initial_std);
  if (recorder.Record(objective.Evaluate(mean, nullptr), mean)) return trace;
  Rng rng(seed);
  std::vector<VecX> samples(options.population, VecX(n));
  std::vector<double> losses(options.population);
  std::vector<int> order(options.population);
  while (true) {
    for (int s = 0; s < options.population; ++s) {
      for (int i = 0; i < n; ++i) samples[s][i] = mean[i] + std[i] * StandardNormal(rng);
      samples[s] = ProjectOntoBounds(samples[s], lower, upper);
      losses[s] = objective.Evaluate(samples[s], nullptr);
    }
    std::iota(order.begin(), order.end(), 0);
    // Stable: ties (e.g. several failed evaluations) keep the sampling order, so runs repeat.
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return losses[a] < losses[b]; });
    mean.setZero();
    for (int e = 0; e < options.elites; ++e) mean += samples[order[e]];
    mean /= options.elites;
    VecX var = VecX::Zero(n);
    for (int e = 0; e < options.elites; ++e) var += (samples[order[e]] - mean).cwiseAbs2();
    std = (var / options.elites).cwiseSqrt();
    if (recorder.Record(losses[order[0]], samples[order[0]])) return trace;
  }
}

}  // namespace arena
