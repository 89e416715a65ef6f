// Adam's settings from an experiment config: the keys learning_rate, adam_beta1, adam_beta2
// (seed 004's Table 3 gives all three per task).
#pragma once

#include "solvers/first_order_optimizers.h"

namespace arena {

class ProfileConfig;
struct Case;

/// Throws InvalidArgument naming the key for a learning rate that is not > 0 or a beta outside [0, 1).
AdamOptions ReadAdamOptions(const ProfileConfig& config);
/// The same settings back from a case's params (learning_rate, adam_beta1, adam_beta2).
AdamOptions AdamOptionsOf(const Case& c);

}  // namespace arena
