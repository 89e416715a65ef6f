// The gradient bundle (randomized smoothing; Suh et al., "Do differentiable simulators give
// better policy gradients?", ICML 2022), seed 004's baseline (Sec. 6): the gradient of the
// smoothed loss E_w[f(x + w)], w ~ N(0, sigma^2 I), estimated from N samples, around any
// Objective and so around any model:
//   first order   mean_i grad f(x + w_i)                     (needs the model's derivatives)
//   zeroth order  mean_i (f(x + w_i) - f(x)) w_i / sigma^2    (only rollouts: any model)
// Samples whose evaluation fails (+inf) are left out of the mean; if all fail, Evaluate
// returns +inf. The value returned is f(x) itself (what an optimiser's trace should show).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/common/random.h"
#include "solvers/objective.h"

namespace arena {

enum class BundleOrder { kFirst, kZeroth };
std::string_view ToString(BundleOrder order);  // "first_order", "zeroth_order"
bool FromString(std::string_view text, BundleOrder* order);

struct GradientBundleOptions {
  int samples = 16;      // N
  double sigma = 0.1;    // std of the perturbations, in the units of x
  BundleOrder order = BundleOrder::kFirst;
  std::uint64_t seed = 0;
  /// "" when valid: samples >= 1, sigma > 0 and finite.
  std::string Validate() const;
};

class GradientBundleObjective final : public Objective {
 public:
  /// `inner` (not owned) must outlive this objective.
  GradientBundleObjective(Objective& inner, const GradientBundleOptions& options);

  int dimension() const override { return inner_.dimension(); }
  double Evaluate(const VecX& x, VecX* gradient) override;
  VecX lower() const override { return inner_.lower(); }
  VecX upper() const override { return inner_.upper(); }
  /// The inner objective's counts: the rollouts and backward passes the bundle really took.
  std::int64_t evaluations() const override { return inner_.evaluations(); }
  std::int64_t gradient_evaluations() const override { return inner_.gradient_evaluations(); }
  /// Samples of the last gradient that were finite.
  int last_samples_used() const { return last_used_; }

 private:
  Objective& inner_;
  GradientBundleOptions options_;
  Rng rng_;
  VecX w_, sample_gradient_;
  int last_used_ = 0;
};

}  // namespace arena
