#include "experiments/common/settings/adam_config.h"

#include "config/profile_config.h"
#include "experiments/common/settings/case_params.h"

namespace arena {

AdamOptions ReadAdamOptions(const ProfileConfig& config) {
  AdamOptions adam;
  adam.learning_rate = config.PositiveFiniteDouble("learning_rate");
  adam.beta1 = config.Double("adam_beta1", NumberRange::Between(0.0, 0.999999));
  adam.beta2 = config.Double("adam_beta2", NumberRange::Between(0.0, 0.999999));
  return adam;
}

AdamOptions AdamOptionsOf(const Case& c) {
  AdamOptions adam;
  adam.learning_rate = ParamNumber(c, "learning_rate");
  adam.beta1 = ParamNumber(c, "adam_beta1");
  adam.beta2 = ParamNumber(c, "adam_beta2");
  return adam;
}

}  // namespace arena
