#include "experiments/model_sweep.h"

#include "harness/config.h"

namespace arena {

std::vector<ModelSetting> ExpandModelSweep(const ProfileConfig& config, const std::string& model) {
  const OptionMap fixed = config.ModelOptions(model);
  const auto [key, values] = config.ModelSweep(model);
  if (key.empty()) return {ModelSetting{"", "", fixed}};
  std::vector<ModelSetting> out;
  for (const std::string& value : values) {
    ModelSetting s{key, value, fixed};
    s.options[key] = value;
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace arena
