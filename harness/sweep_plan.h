// What a run decides before any case runs: the config profile with its --set overrides, the
// models, and the expanded sweep, each checked against the model registry so that every input
// error surfaces before anything is written.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "experiments/experiment.h"
#include "config/profile_config.h"
#include "harness/csv_writer.h"
#include "harness/runner.h"
#include "models/registry.h"

namespace arena {

/// The models a run is checked against: RunOptions::model_registry, or Models().
class ModelRegistry {
 public:
  explicit ModelRegistry(const std::vector<ModelInfo>& models);

  const std::vector<ModelInfo>& models() const { return models_; }
  const std::vector<std::string>& names() const { return names_; }
  /// Each model's option keys, as the profile config checks a --set against them.
  const ModelOptionKeys& option_keys() const { return option_keys_; }
  /// The first model called `name`, or nullptr.
  const ModelInfo* Find(const std::string& name) const;

 private:
  const std::vector<ModelInfo>& models_;
  std::vector<std::string> names_;
  ModelOptionKeys option_keys_;
};

/// One --set, "key = value " normalised to "key=value".
struct Override {
  std::string text;
  std::string head;  // the key's first dotted segment: a model name for a model option
};

struct SweepPlan {
  std::string config_file;
  ProfileConfig config;
  std::vector<Override> overrides;
  std::vector<std::string> config_models;  // the profile's `models`
  std::vector<std::string> models;         // run by this call, in CanonicalOrder
  Sweep sweep;                             // every case has its index and seed
  // The overrides as the sidecar records them and a resume compares them, sorted so that the
  // order of the --set flags does not matter; every model run has an entry, possibly empty.
  std::vector<std::string> experiment_overrides;
  std::map<std::string, std::vector<std::string>> model_overrides;
  double case_timeout_s = 0.0;  // the budget of one case: --case-timeout, else the profile's key
  int shard = 1, shards = 1;    // --shard K/N: `sweep` holds that shard's cases only
  int full_sweep_cases = 0;     // cases of the whole sweep (all shards)
};

/// Checks the run options and --set keys, loads the profile, resolves the models and expands
/// the sweep. Throws InvalidArgument or ParseError as documented at RunExperiment.
SweepPlan PlanSweep(const Experiment& experiment, const RunOptions& options,
                    const ModelRegistry& registry);

/// Throws InvalidArgument at the first case with an empty or duplicate id, an unknown model,
/// an option key or value its model rejects, or a param that is not one of the columns.
void ValidateCases(const SweepPlan& plan, const std::string& experiment,
                   const std::string& profile, const ModelRegistry& registry,
                   const RowFormatter& formatter);

/// Orders model names as the config lists them, then as the registry does: `--models b,a` and
/// `--models a,b` give the same sweep and the same bytes.
std::vector<std::string> CanonicalOrder(std::vector<std::string> models,
                                        const std::vector<std::string>& config_models,
                                        const ModelRegistry& registry);

}  // namespace arena
