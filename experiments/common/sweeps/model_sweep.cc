#include "experiments/common/sweeps/model_sweep.h"

#include "core/common/error.h"
#include "config/profile_config.h"

namespace arena {

std::vector<ModelSetting> ExpandModelSweep(const ProfileConfig& config, const std::string& model,
                                           const std::vector<std::string>& controlled,
                                           const std::string& why) {
  const OptionMap fixed = config.ModelOptions(model);
  const auto [key, values] = config.ModelSweep(model);
  for (const std::string& c : controlled) {
    if (fixed.count(c) || key == c) {
      throw InvalidArgument(config.file() + " [" + config.profile() + "]: option " + model + "." + c +
                            " is set by the experiment itself; " + why);
    }
  }
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
