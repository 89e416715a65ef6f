#include "solvers/first_order_optimizers.h"

#include <cmath>

#include "core/common/error.h"
#include "core/common/options.h"

namespace arena {

std::string AdamOptions::Validate() const {
  if (!(learning_rate > 0.0) || !std::isfinite(learning_rate)) return "learning_rate must be > 0 and finite";
  if (!(beta1 >= 0.0 && beta1 < 1.0)) return "beta1 must be in [0, 1), got " + options_detail::FormatDouble(beta1);
  if (!(beta2 >= 0.0 && beta2 < 1.0)) return "beta2 must be in [0, 1), got " + options_detail::FormatDouble(beta2);
  if (!(epsilon > 0.0)) return "epsilon must be > 0";
  return "";
}

VecX ProjectOntoBounds(const VecX& x, const VecX& lower, const VecX& upper) {
  VecX y = x;
  if (lower.size() == x.size()) y = y.cwiseMax(lower);
  if (upper.size() == x.size()) y = y.cwiseMin(upper);
  return y;
}

namespace {

void CheckStart(const Objective& objective, const VecX& x0, const OptimizerBudget& budget, const char* who) {
  if (x0.size() != objective.dimension()) {
    throw InvalidArgument(std::string(who) + ": the starting point has " + std::to_string(x0.size()) +
                          " entries, the objective " + std::to_string(objective.dimension()));
  }
  if (std::string why = budget.Validate(); !why.empty()) throw InvalidArgument(std::string(who) + ": budget: " + why);
}

// The loop both projected first-order methods share: evaluate, record, stop or take the step
// `update` computes from the gradient.
template <class Update>
OptimizerTrace ProjectedDescent(Objective& objective, const VecX& x0, const OptimizerBudget& budget, Update update) {
  OptimizerTrace trace;
  TraceRecorder recorder(objective, budget, &trace);
  const VecX lower = objective.lower(), upper = objective.upper();
  VecX x = ProjectOntoBounds(x0, lower, upper);
  VecX gradient(x.size());
  for (std::int64_t k = 0;; ++k) {
    const double loss = objective.Evaluate(x, &gradient);
    trace.last_x = x;
    if (recorder.Record(loss, x)) return trace;
    if (!std::isfinite(loss)) {
      trace.stop = OptimizerStop::kFailed;
      trace.message = "the objective could not be evaluated at iteration " + std::to_string(k);
      return trace;
    }
    x = ProjectOntoBounds(x - update(k, gradient), lower, upper);
  }
}

}  // namespace

OptimizerTrace MinimizeAdam(Objective& objective, const VecX& x0, const AdamOptions& options,
                            const OptimizerBudget& budget) {
  CheckStart(objective, x0, budget, "adam");
  if (std::string why = options.Validate(); !why.empty()) throw InvalidArgument("adam: " + why);
  VecX m = VecX::Zero(x0.size()), v = VecX::Zero(x0.size());
  double beta1_power = 1.0, beta2_power = 1.0;
  return ProjectedDescent(objective, x0, budget, [&](std::int64_t, const VecX& g) -> VecX {
    m = options.beta1 * m + (1.0 - options.beta1) * g;
    v = options.beta2 * v + (1.0 - options.beta2) * g.cwiseAbs2();
    beta1_power *= options.beta1;
    beta2_power *= options.beta2;
    const VecX m_hat = m / (1.0 - beta1_power);
    const VecX v_hat = v / (1.0 - beta2_power);
    return options.learning_rate * m_hat.cwiseQuotient((v_hat.cwiseSqrt().array() + options.epsilon).matrix());
  });
}

OptimizerTrace MinimizeGradientDescent(Objective& objective, const VecX& x0, double learning_rate,
                                       const OptimizerBudget& budget) {
  CheckStart(objective, x0, budget, "gradient_descent");
  if (!(learning_rate > 0.0) || !std::isfinite(learning_rate)) {
    throw InvalidArgument("gradient_descent: learning_rate must be > 0 and finite");
  }
  return ProjectedDescent(objective, x0, budget,
                          [learning_rate](std::int64_t, const VecX& g) -> VecX { return learning_rate * g; });
}

}  // namespace arena
