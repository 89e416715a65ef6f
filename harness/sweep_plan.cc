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

// <dir>/<experiment>/config.toml (the experiment's folder), else <dir>/<experiment>.toml (a
// folder of the user's own configs).
std::string ConfigFile(const std::string& config_dir, const std::string& experiment) {
  const fs::path dir = config_dir.empty() ? fs::path(SourceDir()) / "experiments" : fs::path(config_dir);
  const fs::path in_folder = dir / experiment / "config.toml";
  if (fs::exists(in_folder)) return in_folder.string();
  const fs::path flat = dir / (experiment + ".toml");
  if (fs::exists(flat)) return flat.string();
  throw ParseError(in_folder.string(), "", "no config file for experiment '" + experiment + "' (nor " + flat.string() + ")");
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
  for (const ModelInfo& m : models_) {
    names_.push_back(m.name);
    std::vector<std::string>& keys = option_keys_[m.name];
    for (const OptionInfo& o : m.options()) keys.push_back(o.key);
  }
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
  if (options.profile.empty()) throw InvalidArgument("--profile is empty; give quick or paper");
  if (options.threads < 0 || options.threads > kMaxThreads) {
    throw InvalidArgument("--threads " + std::to_string(options.threads) + " is out of range; give 0 (every core) to " +
                          std::to_string(kMaxThreads));
  }
  if (!(options.case_timeout_s > 0.0 && options.case_timeout_s <= kMaxCaseTimeout)) {
    throw InvalidArgument("--case-timeout " + options_detail::FormatDouble(options.case_timeout_s) +
                          " is out of range; give seconds > 0 and <= " + options_detail::FormatDouble(kMaxCaseTimeout));
  }
  if (options.max_cases < 1) throw InvalidArgument("max_cases must be >= 1, got " + std::to_string(options.max_cases));
  if (!(options.shards >= 1 && options.shards <= kMaxShards && options.shard >= 1 && options.shard <= options.shards)) {
    throw InvalidArgument("--shard " + std::to_string(options.shard) + "/" + std::to_string(options.shards) +
                          " is out of range; give K/N with 1 <= K <= N <= " + std::to_string(kMaxShards));
  }
  std::vector<Override> overrides = ParseOverrides(options.overrides, registry);
  std::string config_file = ConfigFile(options.config_dir, name);
  ProfileConfig config =
      ProfileConfig::Load(config_file, options.profile, options.overrides, registry.option_keys());
  config.set_max_cases(options.max_cases);
  double case_timeout_s = options.case_timeout_s;
  // Read (and range-checked) even when --case-timeout holds over it: a bad value is an error
  // either way, and a key never read would count as misspelled.
  if (config.Has("case_timeout_s")) {
    const double declared = config.Double("case_timeout_s", NumberRange::Positive(kMaxCaseTimeout));
    if (!options.case_timeout_given) case_timeout_s = declared;
  }

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
  // What the experiment's own checks cannot see: every model skipped, or a sweep that grew past
  // the limit anyway.
  if (sweep.cases.empty()) {
    throw InvalidArgument(name + ": the sweep has no cases" +
                          (sweep.notes.empty() ? std::string() : " (" + Join(sweep.notes, "; ") + ")") +
                          "; choose models and values that run something (arena models, " + config_file + ")");
  }
  if (static_cast<std::int64_t>(sweep.cases.size()) > options.max_cases) {
    throw InvalidArgument(name + ": the sweep has " + std::to_string(sweep.cases.size()) + " cases, more than the " +
                          std::to_string(options.max_cases) + " a run may have; make the lists of " + config_file +
                          " shorter");
  }
  NumberCases(name, sweep);
  const int full_sweep_cases = static_cast<int>(sweep.cases.size());
  if (options.shards > 1) {
    std::erase_if(sweep.cases, [&](const Case& c) { return c.index % options.shards != options.shard - 1; });
    if (sweep.cases.empty()) {
      throw InvalidArgument(name + ": shard " + std::to_string(options.shard) + "/" + std::to_string(options.shards) +
                            " has no cases: the sweep has " + std::to_string(full_sweep_cases) +
                            "; use fewer shards");
    }
  }

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
                   .model_overrides = std::move(model_overrides),
                   .case_timeout_s = case_timeout_s,
                   .shard = options.shard,
                   .shards = options.shards,
                   .full_sweep_cases = full_sweep_cases};
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
        // The model's message may not name the option; the options it was given do.
        std::vector<std::string> given;
        for (const auto& [key, value] : c.model_options) given.push_back(c.model + "." + key + "=" + value);
        throw InvalidArgument(experiment + ": case '" + c.id + "': " + e.what() + " (its options: " +
                              Join(given, ", ") + ")");
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
