#include "experiments/common/meters/resting_gaps.h"

#include "models/registry.h"

namespace arena {

double StackStartGap(const std::string& model, const OptionMap& options, double weight_n) {
  const ModelInfo& info = FindModel(model);
  return info.stacking_gap ? info.stacking_gap(options, weight_n) : 0.0;
}

}  // namespace arena
