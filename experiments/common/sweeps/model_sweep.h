// The per-model part of a sweep: a model's fixed options plus its one swept option
// (e.g. silico's relaxation rho, penalty's stiffness), read from [profile.options.<model>]
// and [profile.sweep.<model>] of an experiment config.
#pragma once

#include <string>
#include <vector>

#include "core/common/options.h"

namespace arena {

class ProfileConfig;

struct ModelSetting {
  std::string param_name;   // the swept option, "" when the model has no sweep
  std::string param_text;   // its value as text ("" when no sweep)
  OptionMap options;        // fixed options with the swept value applied

  /// "/<param_name>=<param_text>", the part of a case id that names the setting ("" when none).
  std::string IdSuffix() const { return param_name.empty() ? "" : "/" + param_name + "=" + param_text; }
};

/// One ModelSetting per swept value (a single one when the model has no sweep).
/// `controlled` are options the experiment sets itself (e.g. "timestep" from its frequency
/// axis); setting one in the config or with --set is an InvalidArgument naming `why` (for
/// example "set frequencies_hz instead"), rather than silently overwritten.
std::vector<ModelSetting> ExpandModelSweep(const ProfileConfig& config, const std::string& model,
                                           const std::vector<std::string>& controlled = {},
                                           const std::string& why = "");

}  // namespace arena
