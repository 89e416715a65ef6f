// The [quick] profile of an experiment's config written inline by a test, with every registered
// model known (as `arena run` parses experiments/configs/<experiment>.toml).
#pragma once

#include <string>

#include "config/profile_config.h"
#include "harness/sweep_plan.h"
#include "models/registry.h"

namespace arena::testing_config {

/// Every registered model with its option keys, as `arena run` hands them to the config.
inline ModelOptionKeys RegisteredModels() { return ModelRegistry(Models()).option_keys(); }

inline ProfileConfig QuickConfig(const std::string& experiment, const std::string& body) {
  return ProfileConfig::Parse("[quick]\n" + body, experiment + ".toml", "quick", {}, RegisteredModels());
}

}  // namespace arena::testing_config
