#include "experiments/common/sweeps/frequency_sweep.h"

#include <algorithm>
#include <cmath>

#include "core/common/error.h"
#include "core/common/strings.h"
#include "experiments/common/settings/case_params.h"
#include "experiments/common/sweeps/model_sweep.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "config/profile_config.h"
#include "models/registry.h"

namespace arena {

FrequencyGrid ReadFrequencyGrid(const ProfileConfig& config, const std::string& experiment,
                                const std::string& count_key, const std::string& instance_key) {
  FrequencyGrid g;
  g.experiment = experiment;
  g.count_key = count_key;
  g.instance_key = instance_key;
  g.settings = ReadSettings<FrequencyGridSettings>(config);
  g.instances = config.Int(count_key, 1, config.max_cases());
  for (double f : g.settings.frequencies_hz) CheckedSteps(config, "duration_s", g.settings.duration_s, "frequencies_hz", f);
  const std::vector<std::string> models = ModelNames();
  for (const std::string& key : config.Keys()) {
    if (key.rfind("grid.", 0) != 0) continue;
    const std::string rest = key.substr(5);
    const std::string model = rest.substr(0, rest.find('.'));
    if (rest != model + "." + count_key || std::find(models.begin(), models.end(), model) == models.end()) {
      throw InvalidArgument(config.file() + " [" + config.profile() + "] key '" + key + "': a model's cap on the " +
                            count_key + " is grid.<model>." + count_key + " (models: " + Join(models) + ")");
    }
    g.model_instances[model] = config.Int(key, 1, config.max_cases());
  }
  return g;
}

std::int64_t FrequencyGrid::InstancesOf(const std::string& model) const {
  const auto cap = model_instances.find(model);
  return cap == model_instances.end() ? instances : std::min(instances, cap->second);
}

Sweep ExpandFrequencyGrid(const ProfileConfig& config, const std::vector<std::string>& models,
                          const FrequencyGrid& grid,
                          const std::function<std::shared_ptr<const Scene>(const std::string&)>& scene) {
  // The size first: models x runnable variants x swept values, times frequencies and instances
  // (the largest count: a bound on the models whose count is capped).
  std::vector<std::vector<ModelSetting>> settings_of;
  std::vector<std::string> skipped;  // "" when the (model, variant) pair runs, else why not
  double cells = 0.0;
  for (const std::string& model : models) {
    settings_of.push_back(ExpandModelSweep(config, model, {"timestep"}, "set frequencies_hz instead"));
    for (const std::string& variant : grid.settings.variants) {
      std::shared_ptr<const Scene> variant_scene;
      try {
        variant_scene = scene(variant);
      } catch (const InvalidArgument& e) {
        throw InvalidArgument(config.file() + " [" + config.profile() + "] key 'variants': " + e.what());
      }
      skipped.push_back(CheckSupport(FindModel(model).capabilities, *variant_scene));
      if (skipped.back().empty()) cells += static_cast<double>(settings_of.back().size());
    }
  }
  CheckSweepSize(config, grid.experiment,
                 {{"runnable (model, variant, swept option value)", cells},
                  {"frequencies_hz", static_cast<double>(grid.settings.frequencies_hz.size())},
                  {grid.count_key, static_cast<double>(grid.instances)}});

  Sweep sweep;
  size_t pair = 0;
  for (size_t m = 0; m < models.size(); ++m) {
    const std::string& model = models[m];
    const std::vector<ModelSetting>& settings = settings_of[m];
    for (const std::string& variant : grid.settings.variants) {
      const std::string& why = skipped[pair++];
      if (!why.empty()) {
        sweep.notes.push_back(model + ": skipped variant " + variant + " (" + why + ")");
        continue;
      }
      for (double f : grid.settings.frequencies_hz) {
        for (const ModelSetting& setting : settings) {
          for (std::int64_t i = 0; i < grid.InstancesOf(model); ++i) {
            const std::string instance = grid.instance_key + "=" + std::to_string(i);
            Case c;
            c.index = static_cast<int>(sweep.cases.size());
            c.model = model;
            c.id = model + "/" + variant + "/f=" + options_detail::FormatDouble(f) + "/" +
                   setting.param_name + "=" + setting.param_text + "/" + instance;
            c.model_options = setting.options;
            c.model_options["timestep"] = options_detail::FormatDouble(1.0 / f);
            FrequencyGridSettings one = grid.settings;
            one.variant = variant;
            one.frequency_hz = f;
            c.params = CaseParams(one);
            c.params.insert(c.params.end(), {{"param_name", setting.param_name},
                                             {"param_value", ParamValue(setting.param_text)},
                                             {grid.instance_key, i}});
            c.seed = DeriveSeed(grid.experiment, variant + "/" + instance);
            sweep.cases.push_back(std::move(c));
          }
        }
      }
    }
  }
  return sweep;
}

int FrequencyGridSettings::steps() const { return static_cast<int>(std::floor(duration_s * frequency_hz + 1e-9)); }

std::vector<Column> FrequencyGridColumns(const std::string& instance_key, const std::string& instance_doc) {
  return {
      {"variant", "scene variant: planar (the paper's) or spatial (3D)", false, ColumnType::kText},
      {"frequency_hz", "simulation frequency 1/dt"},
      {"param_name", "the model option swept as the stiffness axis (rho, stiffness, ...)", false, ColumnType::kText},
      {"param_value", "its value", false, ColumnType::kText},
      {instance_key, instance_doc},
      {"duration_s", "simulated time"},
  };
}

}  // namespace arena
