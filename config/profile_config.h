// One profile (`quick` or `paper`) of an experiment's TOML config, with `--set` overrides, typed
// getters whose errors name the file, profile and key, and tracking of the keys the experiment
// read, so that a misspelled key is an error rather than silently ignored.
//
// Layout of experiments/configs/<experiment>.toml:
//
//   [quick]
//   models = ["penalty"]
//   frequencies_hz = [10, 30, 100]
//   [quick.options.penalty]          # fixed model options for every case of that model
//   damping_ratio = 0.5
//   [quick.sweep.penalty]            # the model's swept option (one key) and its values
//   stiffness = [1e3, 1e4, 1e5]
//   [paper]
//   ...
//
// Overrides (`--set key=value`, value in TOML syntax):
//   frequencies_hz=[10,20]     replaces an experiment key (it must exist in the profile)
//   penalty.stiffness=2e4      sets a model option for every case of `penalty`; if the option is
//                              that model's swept key, the sweep collapses to this one value
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/common/options.h"

namespace arena {

class ProfileConfig {
 public:
  /// Loads table [profile] of `file` and applies `overrides` ("key=value"). Throws ParseError
  /// (malformed TOML, missing profile) or InvalidArgument (override of an unknown key, listing
  /// the valid keys). `model_names` are the registered models (to recognise model overrides).
  static ProfileConfig Load(const std::string& file, const std::string& profile,
                            const std::vector<std::string>& overrides,
                            const std::vector<std::string>& model_names);
  /// From TOML text (tests).
  static ProfileConfig Parse(const std::string& toml_text, const std::string& source_name,
                             const std::string& profile, const std::vector<std::string>& overrides,
                             const std::vector<std::string>& model_names);

  ProfileConfig(ProfileConfig&&) noexcept;
  ProfileConfig& operator=(ProfileConfig&&) noexcept;
  ~ProfileConfig();

  const std::string& file() const;
  const std::string& profile() const;

  bool Has(const std::string& key) const;
  double Double(const std::string& key) const;   // integers are accepted as doubles
  std::int64_t Int(const std::string& key) const;
  bool Bool(const std::string& key) const;
  std::string String(const std::string& key) const;
  std::vector<double> Doubles(const std::string& key) const;
  std::vector<std::int64_t> Ints(const std::string& key) const;
  std::vector<std::string> Strings(const std::string& key) const;

  /// Fixed options of `model`: [profile.options.<model>] merged with model overrides.
  OptionMap ModelOptions(const std::string& model) const;
  /// The swept option of `model` ([profile.sweep.<model>], one key) as (key, values-as-text);
  /// key is empty when the model has no sweep in this profile.
  std::pair<std::string, std::vector<std::string>> ModelSweep(const std::string& model) const;

  /// Keys of the profile (dotted, leaves only) that no getter has read. The runner calls this
  /// after Expand and fails listing them; options/sweep tables of models not run are exempt.
  std::vector<std::string> UnreadKeys(const std::vector<std::string>& models_run) const;
  /// Every leaf key of the profile, dotted.
  std::vector<std::string> Keys() const;

 private:
  struct Impl;
  explicit ProfileConfig(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace arena
