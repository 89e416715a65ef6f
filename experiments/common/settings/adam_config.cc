#include "experiments/common/settings/adam_config.h"

namespace arena {

AdamOptions AdamSettings::options() const {
  AdamOptions adam;
  adam.learning_rate = learning_rate;
  adam.beta1 = adam_beta1;
  adam.beta2 = adam_beta2;
  return adam;
}

}  // namespace arena
