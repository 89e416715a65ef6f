// The one list of contact models, keyed by the snake_case name used in configs and the CLI.
// Adding a model = one folder under models/ + one entry in registry.cc (no static
// self-registration: linkers drop it from static libraries).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/options.h"
#include "models/simulator.h"

namespace arena {

struct ModelInfo {
  std::string name;
  std::string description;   // one line
  std::string paper;         // seed file and section, or "" for baselines
  Capabilities capabilities;
  /// Option list with defaults and docs (every model has at least `timestep`).
  std::function<std::vector<OptionInfo>()> options;
  /// Throws InvalidArgument (naming the model, key and problem) if `options` would be rejected
  /// by `make`: unknown key, unparsable value, or a value Options::Validate refuses.
  std::function<void(const OptionMap&)> validate;
  /// Builds a simulator; throws InvalidArgument (bad option) or Unsupported (scene).
  std::function<std::unique_ptr<Simulator>(std::shared_ptr<const Scene>, const OptionMap&)> make;
};

const std::vector<ModelInfo>& Models();
/// Throws InvalidArgument listing the registered names when `name` is unknown.
const ModelInfo& FindModel(std::string_view name);
std::unique_ptr<Simulator> MakeSimulator(std::string_view name, std::shared_ptr<const Scene> scene,
                                         const OptionMap& options);

}  // namespace arena
