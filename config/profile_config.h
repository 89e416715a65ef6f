// One profile (`quick` or `paper`) of an experiment's TOML config, with `--set` overrides, typed
// getters whose errors name the file, profile and key, and tracking of the keys the experiment
// read, so that a misspelled key is an error rather than silently ignored.
//
// Layout of experiments/<experiment>/config.toml:
//
//   [quick]
//   models = ["penalty"]
//   frequencies_hz = [10, 30, 100]
//   [quick.options.penalty]          # fixed model options for every case of that model
//   damping_ratio = 0.5
//   [quick.sweep.penalty]            # the model's swept option (one key) and its values
//   stiffness = [1e3, 1e4, 1e5]
//   [quick.grid.longrange]           # box_drop and stacking only: a model that runs only the
//   initial_conditions = 1           # first instances (experiments/common/sweeps/frequency_sweep.h)
//   [paper]
//   ...
//   [smoke]                          # what shrinks [quick] to a run of seconds: profile "smoke"
//   frequencies_hz = [100]           # is [quick] with these keys replaced (the set fuzzer and
//                                    # the smoke test run it)
//
// Overrides (`--set key=value`, value in TOML syntax):
//   frequencies_hz=[10,20]     replaces an experiment key (it must exist in the profile)
//   penalty.stiffness=2e4      sets a model option for every case of `penalty`; if the option is
//                              that model's swept key, the sweep collapses to this one value
//   method=newton              a bare word (letters, digits, _ - . / :, starting with a letter
//                              or _) is a string; any other value that is not valid TOML
//                              ([10,20 or 1e999) is an error with the parser's message
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/common/options.h"

namespace arena {

/// The profiles every experiment's config has: quick (CI, `make reproduce`), paper (the paper's
/// scale), and smoke (quick shrunk by the config's [smoke] table to seconds).
inline constexpr const char* kQuickProfile = "quick";
inline constexpr const char* kPaperProfile = "paper";
inline constexpr const char* kSmokeProfile = "smoke";

/// The most cases one sweep may have unless the run says otherwise (RunOptions::max_cases):
/// about 30 times the largest paper sweep (box_drop, 36,000 cases), and about 1 GB of cases in
/// memory.
inline constexpr std::int64_t kDefaultMaxCases = 1'000'000;

/// The values a numeric config key accepts: finite, and within [min, max], or (min, max] when
/// `open_min`. NaN and infinities are never in a range.
struct NumberRange {
  double min = std::numeric_limits<double>::lowest();
  double max = std::numeric_limits<double>::max();
  bool open_min = false;

  /// (0, max]
  static NumberRange Positive(double max = std::numeric_limits<double>::max()) { return {0.0, max, true}; }
  /// [min, max]
  static NumberRange Between(double min, double max) { return {min, max, false}; }
  /// Any finite number.
  static NumberRange Finite() { return {}; }

  bool Contains(double x) const;
  /// How an error message states it: "a finite number > 0", "a number between 0 and 1".
  std::string ToString() const;
};

/// The models a config may name, each with its option keys: a `--set <model>.<option>=...`
/// is recognised by the model name and checked against the keys. The harness builds it from the
/// model registry (so config/ does not depend on models/).
using ModelOptionKeys = std::map<std::string, std::vector<std::string>>;

class ProfileConfig {
 public:
  /// Loads table [profile] of `file` and applies `overrides` ("key=value"). Throws ParseError
  /// (malformed TOML, missing profile) or InvalidArgument (override of an unknown key, listing
  /// the valid keys). `models` are the registered models and their options (to recognise and
  /// check model overrides).
  static ProfileConfig Load(const std::string& file, const std::string& profile,
                            const std::vector<std::string>& overrides,
                            const ModelOptionKeys& models);
  /// From TOML text (tests).
  static ProfileConfig Parse(const std::string& toml_text, const std::string& source_name,
                             const std::string& profile, const std::vector<std::string>& overrides,
                             const ModelOptionKeys& models);

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

  /// Range-checked getters, so that every experiment reports a bad value the same way: an
  /// InvalidArgument naming the file, profile and key (and "set by --set"), the value, and what
  /// the key accepts (a value of the wrong type is a ParseError, as for the getters above).
  /// Counts and sizes derived from the config are read through these.
  double Double(const std::string& key, const NumberRange& range) const;
  double PositiveFiniteDouble(const std::string& key) const { return Double(key, NumberRange::Positive()); }
  std::int64_t Int(const std::string& key, std::int64_t min, std::int64_t max) const;
  /// Each value in range (a scalar is a one-element list; an empty list is allowed).
  std::vector<double> Doubles(const std::string& key, const NumberRange& range) const;
  /// One axis of the sweep: at least one value and none twice (a value listed twice would make
  /// the same cases twice), each in range.
  std::vector<double> SweepDoubles(const std::string& key, const NumberRange& range) const;
  std::vector<std::string> SweepStrings(const std::string& key) const;

  /// The most cases a sweep of this run may have; experiments check their sweep's size against
  /// it before they allocate the cases (experiments/common/sweeps/sweep_limits.h). The runner sets it
  /// from RunOptions::max_cases.
  std::int64_t max_cases() const;
  void set_max_cases(std::int64_t max_cases);

  /// Fixed options of `model`: [profile.options.<model>] merged with model overrides.
  OptionMap ModelOptions(const std::string& model) const;
  /// The swept option of `model` ([profile.sweep.<model>], one key) as (key, values-as-text);
  /// key is empty when the model has no sweep in this profile. An empty list or a value listed
  /// twice is a ParseError.
  std::pair<std::string, std::vector<std::string>> ModelSweep(const std::string& model) const;

  /// Keys of the profile (dotted, leaves only) that no getter has read. The runner calls this
  /// after Expand and fails listing them; the options, sweep and by_model tables of models not
  /// run are exempt (by_model.<model>.<key>: an experiment's own setting for one model).
  std::vector<std::string> UnreadKeys(const std::vector<std::string>& models_run) const;
  /// Every leaf key of the profile, dotted.
  std::vector<std::string> Keys() const;

 private:
  struct Impl;
  explicit ProfileConfig(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace arena
