// The one list of experiments, keyed by the name used by `arena run <name>` and by the
// experiment's folder experiments/<name>/ (config.toml, claims.toml, README.md). Adding an
// experiment = one folder + one line in registry.cc (docs/adding_an_experiment.md).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/experiment.h"

namespace arena {

const std::vector<std::unique_ptr<Experiment>>& Experiments();
/// The names of `experiments`, in their order (of Experiments() when none is given).
std::vector<std::string> ExperimentNames(const std::vector<std::unique_ptr<Experiment>>& experiments = Experiments());
/// Throws InvalidArgument listing the registered names when `name` is unknown.
const Experiment& FindExperiment(std::string_view name);

}  // namespace arena
