#include "harness/sweep_plan.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <climits>
#include <filesystem>
#include <set>
#include <tuple>

#include "core/common/error.h"
#include "core/common/strings.h"
#include "harness/run_info.h"

namespace arena {
namespace fs = std::filesystem;

namespace {

bool Contains(const std::vector<std::string>& items, const std::string& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

std::vector<std::string> OptionKeys(const ModelInfo& model) {
  std::vector<std::string> keys;
  for (const OptionInfo& o : model.options()) keys.push_back(o.key);
  return keys;
}

Override Normalize(const std::string& raw) {
  const auto eq = raw.find('=');
  const std::string key = Trim(raw.substr(0, eq));
  Override o;
  o.text = eq == std::string::npos ? key : key + "=" + Trim(raw.substr(eq + 1));
  o.head = key.substr(0, key.find('.'));
  return o;
}

// The config checks experiment keys itself, but it cannot know a model's option keys.
std::vector<Override> ParseOverrides(const std::vector<std::string>& raw_overrides,
                                     const ModelRegistry& registry) {
  std::vector<Override> overrides;
  for (const std::string& raw : raw_overrides) {
    Override o = Normalize(raw);
    if (const ModelInfo* m = registry.Find(o.head)) {
      const std::string key = o.text.substr(0, o.text.find('='));
      const std::string option = key.substr(key.find('.') + 1);
      const auto keys = OptionKeys(*m);
      if (key.find('.') != std::string::npos && !Contains(keys, option)) {
        throw InvalidArgument("--set " + raw + ": unknown option '" + option + "' for model " +
                              m->name + "; valid options: " + Join(keys));
      }
    }
    overrides.push_back(o);
  }
  return overrides;
}

std::string ConfigFile(const std::string& config_dir, const std::string& experiment) {
  const std::string dir = config_dir.empty() ? SourceDir() + "/experiments/configs" : config_dir;
  const std::string file = (fs::path(dir) / (experiment + ".toml")).string();
  if (!fs::exists(file)) {
    throw ParseError(file, "", "no config file for experiment '" + experiment + "'");
  }
  return file;
}

// --models, else the config's `models`; every one registered.
std::vector<std::string> ResolveModels(const std::string& experiment, const RunOptions& options,
                                       const std::string& config_file,
                                       const std::vector<std::string>& config_models,
                                       const ModelRegistry& registry) {
  const std::vector<std::string> models = options.models.empty() ? config_models : options.models;
  if (models.empty()) {
    throw InvalidArgument("experiment '" + experiment + "': no models to run (the config's [" +
                          options.profile + "] has no `models` and none were given)");
  }
  for (const std::string& m : models) {
    if (registry.Find(m) == nullptr) {
      throw InvalidArgument("unknown model '" + m + "'" +
                            (options.models.empty() ? " in " + config_file : std::string()) +
                            "; registered models: " + Join(registry.names()));
    }
  }
  return CanonicalOrder(models, config_models, registry);
}

void WarnAboutOverridesOfModelsNotRun(const std::string& experiment,
                                      const std::vector<Override>& overrides,
                                      const std::vector<std::string>& models,
                                      const ModelRegistry& registry) {
  for (const Override& o : overrides) {
    if (registry.Find(o.head) != nullptr && !Contains(models, o.head)) {
      spdlog::warn("{}: --set {} has no effect: model {} is not run", experiment, o.text, o.head);
    }
  }
}

// The index is the final table's sort key. The seed depends on the case id alone, so a case
// draws the same numbers whichever other cases run with it.
void NumberCases(const std::string& experiment, Sweep& sweep) {
  for (size_t i = 0; i < sweep.cases.size(); ++i) {
    Case& c = sweep.cases[i];
    c.index = static_cast<int>(i);
    if (c.seed == 0) c.seed = DeriveSeed(experiment, c.id);
  }
}

// One line per option map, for de-duplicating validation.
std::string OptionsKey(const OptionMap& options) {
  std::string key;
  for (const auto& [k, v] : options) key += k + "=" + v + ";";
  return key;
}

}  // namespace

ModelRegistry::ModelRegistry(const std::vector<ModelInfo>& models) : models_(models) {
  for (const ModelInfo& m : models_) names_.push_back(m.name);
}

const ModelInfo* ModelRegistry::Find(const std::string& name) const {
  for (const ModelInfo& m : models_) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

SweepPlan PlanSweep(const Experiment& experiment, const RunOptions& options,
                    const ModelRegistry& registry) {
  const std::string name = experiment.name();
  if (options.profile.empty()) throw InvalidArgument("empty profile name");
  if (options.threads < 0) throw InvalidArgument("--threads must be >= 0");
  std::vector<Override> overrides = ParseOverrides(options.overrides, registry);
  std::string config_file = ConfigFile(options.config_dir, name);
  ProfileConfig config =
      ProfileConfig::Load(config_file, options.profile, options.overrides, registry.names());

  std::vector<std::string> config_models;
  if (config.Has("models")) config_models = config.Strings("models");
  std::vector<std::string> models =
      ResolveModels(name, options, config_file, config_models, registry);
  WarnAboutOverridesOfModelsNotRun(name, overrides, models, registry);

  Sweep sweep = experiment.Expand(config, models);
  if (auto unread = config.UnreadKeys(models); !unread.empty()) {
    throw ParseError(config_file, "[" + options.profile + "]",
                     "keys never read by experiment '" + name + "' (misspelled?): " + Join(unread));
  }
  NumberCases(name, sweep);

  std::vector<std::string> experiment_overrides;
  std::map<std::string, std::vector<std::string>> model_overrides;
  for (const std::string& m : models) model_overrides[m];
  for (const Override& o : overrides) {
    if (registry.Find(o.head) != nullptr) {
      model_overrides[o.head].push_back(o.text);
    } else {
      experiment_overrides.push_back(o.text);
    }
  }
  std::sort(experiment_overrides.begin(), experiment_overrides.end());
  for (auto& [m, list] : model_overrides) std::sort(list.begin(), list.end());

  return SweepPlan{.config_file = std::move(config_file),
                   .config = std::move(config),
                   .overrides = std::move(overrides),
                   .config_models = std::move(config_models),
                   .models = std::move(models),
                   .sweep = std::move(sweep),
                   .experiment_overrides = std::move(experiment_overrides),
                   .model_overrides = std::move(model_overrides)};
}

void ValidateCases(const SweepPlan& plan, const std::string& experiment,
                   const std::string& profile, const ModelRegistry& registry,
                   const RowFormatter& formatter) {
  std::set<std::string> ids;
  // Many cases share their options; validating each distinct (model, options) once is enough.
  std::set<std::string> validated;
  for (const Case& c : plan.sweep.cases) {
    if (c.id.empty()) {
      throw InvalidArgument(experiment + ": case " + std::to_string(c.index) + " has no id");
    }
    if (!ids.insert(c.id).second) {
      throw InvalidArgument(experiment + ": duplicate case id '" + c.id + "'");
    }
    const ModelInfo* m = registry.Find(c.model);
    if (m == nullptr) {
      throw InvalidArgument(experiment + ": case '" + c.id + "' uses unknown model '" + c.model +
                            "'; registered models: " + Join(registry.names()));
    }
    const auto keys = OptionKeys(*m);
    for (const auto& [key, value] : c.model_options) {
      if (!Contains(keys, key)) {
        throw InvalidArgument(experiment + ": case '" + c.id + "': unknown option '" + key +
                              "' for model " + c.model + " (from " + plan.config_file + " [" +
                              profile + ".options." + c.model + "] or [" + profile + ".sweep." +
                              c.model + "]); valid options: " + Join(keys));
      }
    }
    // Values too (non-positive timestep, unparsable number): fail before anything runs.
    if (m->validate && validated.insert(c.model + "\n" + OptionsKey(c.model_options)).second) {
      try {
        m->validate(c.model_options);
      } catch (const InvalidArgument& e) {
        throw InvalidArgument(experiment + ": case '" + c.id + "': " + e.what());
      }
    }
    for (const auto& [param, value] : c.params) {
      if (!formatter.HasColumn(param) || param == kCaseIdColumn || param == kModelColumn ||
          param == kErrorColumn) {
        throw InvalidArgument(experiment + ": case '" + c.id + "' has param '" + param +
                              "', which is not one of the experiment's columns");
      }
    }
  }
}

std::vector<std::string> CanonicalOrder(std::vector<std::string> models,
                                        const std::vector<std::string>& config_models,
                                        const ModelRegistry& registry) {
  const std::vector<ModelInfo>& registered = registry.models();
  auto rank = [&](const std::string& m) {
    auto c = std::find(config_models.begin(), config_models.end(), m);
    const long in_config = c == config_models.end() ? LONG_MAX : c - config_models.begin();
    long in_registry = LONG_MAX;
    for (size_t i = 0; i < registered.size(); ++i) {
      if (registered[i].name == m) in_registry = static_cast<long>(i);
    }
    return std::make_tuple(in_config, in_registry, m);
  };
  std::sort(models.begin(), models.end(),
            [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
  models.erase(std::unique(models.begin(), models.end()), models.end());
  return models;
}

}  // namespace arena
