// The two trajectory optimisers compared in Nimble's Fig. 7 (Werling et al., RSS 2021, Sec.
// VII-B), over the same decision variables (a ShootingProblem's controls, starting from zero):
//   lbfgs  gradient-based: single shooting, dL/du from nimble's backward pass, minimised by
//          Ceres' L-BFGS line search (GradientProblemSolver). It stands in for Nimble's DDP and
//          multiple shooting, whose code was not found (digest 8.6).
//   cem    stochastic search: the cross-entropy method with a diagonal Gaussian over the
//          controls, forward rollouts only (digest 13: "about 64 samples per iteration").
// Both record the best loss found after every iteration with the rollouts used and the
// wall-clock time, and stop at the loss threshold or when a budget runs out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/common/random.h"
#include "experiments/shooting_problem.h"

namespace arena {

struct TrajoptBudget {
  double threshold = 0.0;        // stop once the best loss is <= this
  std::int64_t max_rollouts = 0;  // forward rollouts (a gradient evaluation is one rollout + one backward pass)
  double time_budget_s = 0.0;    // wall-clock; 0: none (the quick profile's runs stop on max_rollouts only)
};

struct CemOptions {
  int population = 64;
  int elites = 8;
  double initial_std = 0.5;  // of each control's limit
};

struct TrajoptIteration {
  std::int64_t iteration = 0;   // 0: the zero controls
  std::int64_t rollouts = 0;
  std::int64_t backward_passes = 0;
  double elapsed_s = 0.0;       // since the optimiser started
  double loss = 0.0;            // best so far (+inf if every rollout failed)
};

enum class TrajoptStop { kThreshold, kMaxRollouts, kTimeBudget, kConverged, kFailed };
std::string_view ToString(TrajoptStop stop);

struct TrajoptTrace {
  std::vector<TrajoptIteration> iterations;
  TrajoptStop stop = TrajoptStop::kFailed;
  std::string message;  // the optimiser's own words (Ceres' termination message)
};

TrajoptTrace RunLbfgs(ShootingProblem& problem, const TrajoptBudget& budget);
/// Samples with Rng(seed); clips every sample to the limits.
TrajoptTrace RunCrossEntropy(ShootingProblem& problem, const CemOptions& options, const TrajoptBudget& budget,
                             std::uint64_t seed);

}  // namespace arena
