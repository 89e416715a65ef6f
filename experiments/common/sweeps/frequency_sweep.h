// The grid of the Silico paper's robustness sweeps (Figs. 9 and 10), shared by box_drop and
// stacking: model x scene variant x simulation frequency x the model's own stiffness parameter
// (silico's rho, penalty's stiffness, ...) x instances (initial conditions or configurations).
// Each model's timestep is set from the frequency axis. Instances get seeds that depend only on
// (variant, instance), so every cell sees the same instances, as in the paper. A model whose
// steps are costly may run only the first few instances: [<profile>.grid.<model>] with the count
// key (`initial_conditions = 2`) caps its count, so its instances are a prefix of everyone's.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/scene/scene.h"
#include "experiments/common/settings/settings.h"
#include "experiments/experiment.h"

namespace arena {

/// The grid's config keys besides the instance count, and the parameters every case gets that
/// Run reads back (besides the instance, whose key is the experiment's, and the model setting's
/// param_name and param_value).
struct FrequencyGridSettings {
  std::vector<std::string> variants;
  std::vector<double> frequencies_hz;
  std::string variant;
  double frequency_hz = 0.0;
  double duration_s = 0.0;

  template <class V>
  void VisitFields(V&& v) {
    v("variants", variants, "the scene variants (the axis)", "", std::nullopt, SettingRole::kConfig);
    v("frequencies_hz", frequencies_hz, "the simulation frequencies (the axis)", "Hz", Positive(), SettingRole::kConfig);
    v("variant", variant, "scene variant: planar (the paper's) or spatial (3D)", "", std::nullopt, SettingRole::kCase);
    v("frequency_hz", frequency_hz, "simulation frequency 1/dt", "Hz", std::nullopt, SettingRole::kCase);
    v("duration_s", duration_s, "simulated time", "s", Positive());
  }
  /// The number of steps: floor(duration * frequency).
  int steps() const;
};

struct FrequencyGrid {
  std::string experiment;            // for seeds and messages
  std::string count_key;             // "initial_conditions" or "configurations": the config key
  std::string instance_key;          // "ic" or "config": the name of the instance column
  FrequencyGridSettings settings;
  std::int64_t instances = 0;
  std::map<std::string, std::int64_t> model_instances;  // [grid.<model>] caps, where given

  /// The instances `model` runs: the first min(instances, its cap).
  std::int64_t InstancesOf(const std::string& model) const;
};

/// Reads variants, frequencies_hz, duration_s and `count_key` (the number of instances) from
/// the profile, range-checked (sweep_limits.h): non-empty lists without repeats, finite positive
/// numbers, 1 to max_cases instances, and at least one and at most kMaxStepsPerCase steps at
/// every frequency; and every `grid.<model>.<count_key>` (1 to max_cases; a cap above the
/// count changes nothing). Any other key under grid, or an unregistered model, is an
/// InvalidArgument naming the key.
FrequencyGrid ReadFrequencyGrid(const ProfileConfig& config, const std::string& experiment,
                                const std::string& count_key, const std::string& instance_key);

/// Expands the grid for `models`; a model that cannot run a variant's scene is skipped with a
/// note. Checks the number of cases (CheckSweepSize) before it allocates them. Case params:
/// variant, frequency_hz, param_name, param_value, <instance_key>, duration_s.
Sweep ExpandFrequencyGrid(const ProfileConfig& config, const std::vector<std::string>& models,
                          const FrequencyGrid& grid,
                          const std::function<std::shared_ptr<const Scene>(const std::string&)>& scene);

/// Columns every frequency-grid experiment writes first.
std::vector<Column> FrequencyGridColumns(const std::string& instance_key, const std::string& instance_doc);

}  // namespace arena
