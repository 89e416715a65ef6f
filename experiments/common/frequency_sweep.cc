#include "experiments/common/frequency_sweep.h"

#include <cmath>

#include "core/common/error.h"
#include "experiments/common/case_params.h"
#include "experiments/common/model_sweep.h"
#include "config/profile_config.h"
#include "models/registry.h"

namespace arena {

FrequencyGrid ReadFrequencyGrid(const ProfileConfig& config, const std::string& experiment,
                                const std::string& count_key, const std::string& instance_key) {
  FrequencyGrid g;
  g.experiment = experiment;
  g.instance_key = instance_key;
  g.variants = config.Strings("variants");
  g.frequencies_hz = config.Doubles("frequencies_hz");
  g.instances = config.Int(count_key);
  g.duration_s = config.Double("duration_s");
  if (g.instances <= 0) throw InvalidArgument(config.file() + ": " + count_key + " must be > 0");
  if (!(g.duration_s > 0.0)) throw InvalidArgument(config.file() + ": duration_s must be > 0");
  for (double f : g.frequencies_hz) {
    if (!(f > 0.0)) {
      throw InvalidArgument(config.file() + ": frequencies_hz must all be > 0, got " +
                            options_detail::FormatDouble(f));
    }
  }
  return g;
}

Sweep ExpandFrequencyGrid(const ProfileConfig& config, const std::vector<std::string>& models,
                          const FrequencyGrid& grid,
                          const std::function<std::shared_ptr<const Scene>(const std::string&)>& scene) {
  Sweep sweep;
  for (const std::string& model : models) {
    const ModelInfo& info = FindModel(model);
    const std::vector<ModelSetting> settings =
        ExpandModelSweep(config, model, {"timestep"}, "set frequencies_hz instead");
    for (const std::string& variant : grid.variants) {
      const std::string why = CheckSupport(info.capabilities, *scene(variant));
      if (!why.empty()) {
        sweep.notes.push_back(model + ": skipped variant " + variant + " (" + why + ")");
        continue;
      }
      for (double f : grid.frequencies_hz) {
        for (const ModelSetting& setting : settings) {
          for (std::int64_t i = 0; i < grid.instances; ++i) {
            const std::string instance = grid.instance_key + "=" + std::to_string(i);
            Case c;
            c.index = static_cast<int>(sweep.cases.size());
            c.model = model;
            c.id = model + "/" + variant + "/f=" + options_detail::FormatDouble(f) + "/" +
                   setting.param_name + "=" + setting.param_text + "/" + instance;
            c.model_options = setting.options;
            c.model_options["timestep"] = options_detail::FormatDouble(1.0 / f);
            c.params = {{"variant", variant},
                        {"frequency_hz", f},
                        {"param_name", setting.param_name},
                        {"param_value", ParamValue(setting.param_text)},
                        {grid.instance_key, i},
                        {"duration_s", grid.duration_s}};
            c.seed = DeriveSeed(grid.experiment, variant + "/" + instance);
            sweep.cases.push_back(std::move(c));
          }
        }
      }
    }
  }
  return sweep;
}

int StepsOf(const Case& c) {
  return static_cast<int>(std::floor(ParamNumber(c, "duration_s") * ParamNumber(c, "frequency_hz") + 1e-9));
}

std::vector<Column> FrequencyGridColumns(const std::string& instance_key, const std::string& instance_doc) {
  return {
      {"variant", "scene variant: planar (the paper's) or spatial (3D)"},
      {"frequency_hz", "simulation frequency 1/dt"},
      {"param_name", "the model option swept as the stiffness axis (rho, stiffness, ...)"},
      {"param_value", "its value"},
      {instance_key, instance_doc},
      {"duration_s", "simulated time"},
  };
}

}  // namespace arena
