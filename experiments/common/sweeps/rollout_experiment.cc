#include "experiments/common/sweeps/rollout_experiment.h"

#include "core/common/error.h"
#include "experiments/common/settings/case_params.h"
#include "experiments/common/settings/settings.h"
#include "experiments/common/sweeps/model_sweep.h"
#include "experiments/common/sweeps/snapshot_rollout.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "config/profile_config.h"
#include "models/registry.h"

namespace arena {

namespace {

// A rollout experiment's config keys and case parameters (besides the model setting's
// param_name and param_value).
struct RolloutSettings {
  std::int64_t steps = 0;
  std::int64_t snapshot_every = 0;

  template <class V>
  void VisitFields(V&& v) {
    v("steps", steps, "steps of the rollout", "", Closed(1, kMaxStepsPerCase));
    v("snapshot_every", snapshot_every, "steps between snapshots", "", Closed(1, kMaxStepsPerCase));
  }
};

}  // namespace

std::vector<Column> RolloutExperiment::columns() const {
  std::vector<Column> cols = {
      {"param_name", "the model option swept, if any", false, ColumnType::kText},
      {"param_value", "its value", false, ColumnType::kText},
  };
  const std::vector<Column> params = ParamColumns<RolloutSettings>();
  cols.insert(cols.end(), params.begin(), params.end());
  const std::vector<Column> snap = SnapshotColumns();
  cols.insert(cols.end(), snap.begin(), snap.end());
  return cols;
}

Sweep RolloutExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const auto settings = ReadSettings<RolloutSettings>(config);
  if (settings.steps / settings.snapshot_every > kMaxRowsPerCase) {
    throw InvalidArgument(config.file() + " [" + config.profile() + "]: steps " + std::to_string(settings.steps) +
                          " / snapshot_every " + std::to_string(settings.snapshot_every) + " is more than the " +
                          std::to_string(kMaxRowsPerCase) + " snapshots (rows) a case may write; make "
                          "snapshot_every larger");
  }
  const std::shared_ptr<const Scene> scene = MakeScene();
  Sweep sweep;
  for (const std::string& model : models) {
    const std::string why = CheckSupport(FindModel(model).capabilities, *scene);
    if (!why.empty()) {
      sweep.notes.push_back(model + ": skipped (" + why + ")");
      continue;
    }
    for (const ModelSetting& setting : ExpandModelSweep(config, model, {"timestep"}, "the paper fixes it")) {
      Case c;
      c.index = static_cast<int>(sweep.cases.size());
      c.model = model;
      c.id = model + setting.IdSuffix();
      c.model_options = setting.options;
      c.model_options["timestep"] = options_detail::FormatDouble(timestep());
      c.params = {{"param_name", setting.param_name}, {"param_value", ParamValue(setting.param_text)}};
      const std::vector<std::pair<std::string, Value>> params = CaseParams(settings);
      c.params.insert(c.params.end(), params.begin(), params.end());
      sweep.cases.push_back(std::move(c));
    }
  }
  return sweep;
}

std::vector<Row> RolloutExperiment::Run(const Case& c) const {
  const std::shared_ptr<const Scene> scene = MakeScene();
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, scene, c.model_options);
  const auto settings = DecodeSettings<RolloutSettings>(c);
  return SnapshotRollout(*scene, *sim, InitialState(), static_cast<int>(settings.steps),
                         static_cast<int>(settings.snapshot_every), outcome_limits());
}

}  // namespace arena
