// The [quick] profile of an experiment's config written inline by a test, with every registered
// model known (as `arena run` parses experiments/configs/<experiment>.toml).
#pragma once

#include <string>
#include <vector>

#include "config/profile_config.h"
#include "models/registry.h"

namespace arena::testing_config {

inline ProfileConfig QuickConfig(const std::string& experiment, const std::string& body) {
  std::vector<std::string> names;
  for (const auto& m : Models()) names.push_back(m.name);
  return ProfileConfig::Parse("[quick]\n" + body, experiment + ".toml", "quick", {}, names);
}

}  // namespace arena::testing_config
