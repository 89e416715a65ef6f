// The sidecar E.json (see runner.h): what produced the results next to it, and the runs before
// it whose rows the table holds. A resume reads it to refuse results of another profile or of
// other --set overrides.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/experiment.h"
#include "harness/runner.h"
#include "harness/sweep_plan.h"

namespace arena {

// Ordered: the sidecar keeps its keys in a readable order.
using SidecarJson = nlohmann::ordered_json;

/// "K/N" of a sharded run's sidecar or plan ("1/1" when not sharded).
std::string ShardText(const SidecarJson& sidecar);
std::string ShardText(const SweepPlan& plan);

/// nullopt when the file is missing, or unreadable (then with a warning).
std::optional<SidecarJson> ReadSidecar(const std::string& path);

/// Why the results `previous` describes cannot be extended by this run: another profile, another
/// shard, other experiment overrides, or other overrides of a model run now. Empty when they can.
std::vector<std::string> ResumeConflicts(const SidecarJson& previous, const std::string& profile,
                                         const SweepPlan& plan);

struct SidecarRun {
  const Experiment& experiment;
  const RunOptions& options;
  const ModelRegistry& registry;
  const SweepPlan& plan;
  std::chrono::system_clock::time_point start;
};

/// The sidecar while the cases run: status "running", no end yet. `previous`, the sidecar of
/// the results being resumed, is appended to its previous_runs.
SidecarJson RunningSidecar(const SidecarRun& run, const RunSummary& summary,
                           const std::optional<SidecarJson>& previous);

/// Status "complete", with the final case counts, end time and duration.
void MarkComplete(SidecarJson& sidecar, const RunSummary& summary,
                  std::chrono::system_clock::time_point end);

/// Through a temporary file and a rename: readers never see a half-written sidecar.
void WriteJsonAtomic(const std::string& path, const SidecarJson& j);

}  // namespace arena
