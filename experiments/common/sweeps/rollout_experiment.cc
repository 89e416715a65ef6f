#include "experiments/common/sweeps/rollout_experiment.h"

#include "core/common/error.h"
#include "experiments/common/settings/case_params.h"
#include "experiments/common/sweeps/model_sweep.h"
#include "experiments/common/sweeps/snapshot_rollout.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "config/profile_config.h"
#include "models/registry.h"

namespace arena {

std::vector<Column> RolloutExperiment::columns() const {
  std::vector<Column> cols = {
      {"param_name", "the model option swept, if any", false, ColumnType::kText},
      {"param_value", "its value", false, ColumnType::kText},
      {"steps", "steps of the rollout"},
      {"snapshot_every", "steps between snapshots"},
  };
  const std::vector<Column> snap = SnapshotColumns();
  cols.insert(cols.end(), snap.begin(), snap.end());
  return cols;
}

Sweep RolloutExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const std::int64_t steps = config.Int("steps", 1, kMaxStepsPerCase);
  const std::int64_t every = config.Int("snapshot_every", 1, kMaxStepsPerCase);
  if (steps / every > kMaxRowsPerCase) {
    throw InvalidArgument(config.file() + " [" + config.profile() + "]: steps " + std::to_string(steps) +
                          " / snapshot_every " + std::to_string(every) + " is more than the " +
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
      c.params = {{"param_name", setting.param_name},
                  {"param_value", ParamValue(setting.param_text)},
                  {"steps", steps},
                  {"snapshot_every", every}};
      sweep.cases.push_back(std::move(c));
    }
  }
  return sweep;
}

std::vector<Row> RolloutExperiment::Run(const Case& c) const {
  const std::shared_ptr<const Scene> scene = MakeScene();
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, scene, c.model_options);
  return SnapshotRollout(*scene, *sim, InitialState(), static_cast<int>(ParamNumber(c, "steps")),
                         static_cast<int>(ParamNumber(c, "snapshot_every")), outcome_limits());
}

}  // namespace arena
