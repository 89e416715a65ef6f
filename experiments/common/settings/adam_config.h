// Adam's settings in an experiment config: the keys learning_rate, adam_beta1, adam_beta2
// (seed 004's Table 3 gives all three per task), a group an experiment's settings forward to.
#pragma once

#include "experiments/common/settings/settings.h"
#include "solvers/first_order_optimizers.h"

namespace arena {

struct AdamSettings {
  double learning_rate = AdamOptions{}.learning_rate;
  double adam_beta1 = AdamOptions{}.beta1;
  double adam_beta2 = AdamOptions{}.beta2;

  template <class V>
  void VisitFields(V&& v) {
    v("learning_rate", learning_rate, "Adam's step size", "", Positive());
    v("adam_beta1", adam_beta1, "Adam's first-moment decay", "", Closed(0.0, 0.999999));
    v("adam_beta2", adam_beta2, "Adam's second-moment decay", "", Closed(0.0, 0.999999));
  }
  AdamOptions options() const;
};

}  // namespace arena
