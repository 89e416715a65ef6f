// A function to minimise over x in R^n, optionally within box bounds: all that the optimisers
// of solvers/ (L-BFGS, Adam, projected gradient descent, the cross-entropy method) ask of a
// problem. Trajectory optimisation (trajectory/) implements it over a rollout's controls.
#pragma once

#include <cstdint>

#include "core/math/types.h"

namespace arena {

class Objective {
 public:
  virtual ~Objective() = default;

  virtual int dimension() const = 0;
  /// f(x), and df/dx into `gradient` when it is not null. +inf means x could not be evaluated
  /// (a failed rollout); `gradient` is then left untouched.
  virtual double Evaluate(const VecX& x, VecX* gradient) = 0;
  /// Box bounds; empty vectors: unbounded. Optimisers that project (Adam, gradient descent,
  /// CEM) keep their iterates inside; L-BFGS ignores them (the objective must accept any x).
  virtual VecX lower() const { return {}; }
  virtual VecX upper() const { return {}; }
  /// The work done so far, which budgets and traces count: evaluations of f (a trajectory
  /// objective: rollouts) and of its gradient (backward passes).
  virtual std::int64_t evaluations() const = 0;
  virtual std::int64_t gradient_evaluations() const = 0;
};

}  // namespace arena
