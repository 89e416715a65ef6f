// The cross-entropy method (Rubinstein 1999), the stochastic search of seed 002 Fig. 7: a
// diagonal Gaussian over x, sampled (and clipped to the bounds), refitted to the `elites`
// lowest losses of each population. Uses f only.
#pragma once

#include <cstdint>
#include <string>

#include "core/common/random.h"
#include "solvers/objective.h"
#include "solvers/optimizer_trace.h"

namespace arena {

struct CemOptions {
  int population = 64;
  int elites = 8;
  /// The initial std of each coordinate: this fraction of max(|lower|, |upper|) where the
  /// objective has finite bounds, else this value itself.
  double initial_std = 0.5;
  /// "" when valid: population >= 2, 1 <= elites <= population, initial_std > 0.
  std::string Validate() const;
};

/// Iteration 0 evaluates the mean x0; every later iteration one population, recording the best
/// loss of all samples so far. Samples with Rng(seed): the same seed gives the same run.
OptimizerTrace MinimizeCrossEntropy(Objective& objective, const VecX& x0, const CemOptions& options,
                                    const OptimizerBudget& budget, std::uint64_t seed);

}  // namespace arena
