// The one list of experiments, keyed by the name used by `arena run <name>` and by
// experiments/configs/<name>.toml. Adding an experiment = one file + one line in registry.cc.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "experiments/experiment.h"

namespace arena {

const std::vector<std::unique_ptr<Experiment>>& Experiments();
/// Throws InvalidArgument listing the registered names when `name` is unknown.
const Experiment& FindExperiment(std::string_view name);

}  // namespace arena
