#include "models/registry.h"

#include "core/common/error.h"

namespace arena {

const std::vector<ModelInfo>& Models() {
  static const std::vector<ModelInfo> models = {};
  return models;
}

const ModelInfo& FindModel(std::string_view name) {
  for (const auto& m : Models()) {
    if (m.name == name) return m;
  }
  std::string valid;
  for (const auto& m : Models()) valid += (valid.empty() ? "" : ", ") + m.name;
  throw InvalidArgument("unknown model '" + std::string(name) + "'; registered models: " + valid);
}

std::unique_ptr<Simulator> MakeSimulator(std::string_view name, std::shared_ptr<const Scene> scene,
                                         const OptionMap& options) {
  const ModelInfo& info = FindModel(name);
  if (std::string why = CheckSupport(info.capabilities, *scene); !why.empty()) {
    throw Unsupported("model '" + info.name + "' cannot simulate scene '" + scene->name + "': " + why);
  }
  return info.make(std::move(scene), options);
}

}  // namespace arena
