#include "harness/sidecar.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "core/common/error.h"
#include "core/common/strings.h"
#include "harness/run_info.h"

namespace arena {
namespace fs = std::filesystem;
using json = SidecarJson;

namespace {

using OverridesByModel = std::map<std::string, std::vector<std::string>>;

// How a list of --set overrides reads in a message.
std::string SetFlags(const std::vector<std::string>& overrides) {
  return overrides.empty() ? "(none)" : Join(overrides, " ");
}

// Whether two option values are the same (numerically when both are numbers).
bool SameOptionValue(const std::string& a, const std::string& b) {
  if (a == b) return true;
  try {
    return options_detail::ParseDouble(a, "") == options_detail::ParseDouble(b, "");
  } catch (const InvalidArgument&) {
    return false;
  }
}

json CaseCounts(const RunSummary& summary) {
  return {{"total", summary.cases_total},
          {"run", summary.cases_run},
          {"skipped", summary.cases_skipped},
          {"failed", summary.cases_failed}};
}

// Accumulated over every run whose rows the CSV holds: checked by the next resume.
OverridesByModel ModelOverridesSoFar(const std::optional<json>& previous, const SweepPlan& plan) {
  OverridesByModel all = previous ? previous->value("model_overrides", OverridesByModel{})
                                  : OverridesByModel{};
  for (const auto& [m, list] : plan.model_overrides) all[m] = list;
  return all;
}

// Options differing from the model's default; a swept option lists its distinct values.
// The wrapped third-party engines among the run's models, with their one-line descriptions
// (which name the engine's version): figures label their rows as engines.
json Engines(const SweepPlan& plan, const ModelRegistry& registry) {
  json engines = json::object();
  for (const std::string& m : plan.models) {
    const ModelInfo* info = registry.Find(m);
    if (info != nullptr && info->capabilities.engine) engines[m] = info->description;
  }
  return engines;
}

json NonDefaultModelOptions(const SweepPlan& plan, const ModelRegistry& registry) {
  json non_default = json::object();
  for (const std::string& m : plan.models) {
    std::map<std::string, std::string> defaults;
    for (const OptionInfo& o : registry.Find(m)->options()) defaults[o.key] = o.default_value;
    std::map<std::string, std::vector<std::string>> values;
    for (const Case& c : plan.sweep.cases) {
      if (c.model != m) continue;
      for (const auto& [key, value] : c.model_options) {
        if (SameOptionValue(value, defaults[key])) continue;
        auto& list = values[key];
        if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
      }
    }
    json entry = json::object();
    for (const auto& [key, list] : values) {
      entry[key] = list.size() == 1 ? json(list[0]) : json(list);
    }
    non_default[m] = entry;
  }
  return non_default;
}

json Seeds(const Sweep& sweep) {
  json seeds = json::object();
  for (const Case& c : sweep.cases) seeds[c.id] = c.seed;
  return seeds;
}

// The runs before this one, oldest first: a flat list, each entry without its own
// previous_runs (already in the list) and without its seeds.
json PreviousRuns(const std::optional<json>& previous) {
  json history = json::array();
  if (previous) {
    if (previous->contains("previous_runs") && (*previous)["previous_runs"].is_array()) {
      history = (*previous)["previous_runs"];
    }
    json last = *previous;
    last.erase("previous_runs");
    last.erase("seeds");
    history.push_back(last);
  }
  return history;
}

}  // namespace

std::string ShardText(const SidecarJson& sidecar) {
  if (!sidecar.contains("shard") || !sidecar["shard"].is_object()) return "1/1";
  return std::to_string(sidecar["shard"].value("index", 1)) + "/" + std::to_string(sidecar["shard"].value("count", 1));
}

std::string ShardText(const SweepPlan& plan) { return std::to_string(plan.shard) + "/" + std::to_string(plan.shards); }

std::optional<json> ReadSidecar(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  try {
    return json::parse(in);
  } catch (const json::exception& e) {
    spdlog::warn("{}: unreadable sidecar ({}); its history is lost", path, e.what());
    return std::nullopt;
  }
}

std::vector<std::string> ResumeConflicts(const json& previous, const std::string& profile,
                                         const SweepPlan& plan) {
  std::vector<std::string> problems;
  const std::string prev_profile = previous.value("profile", "");
  if (prev_profile != profile) {
    problems.push_back("they are of profile '" + prev_profile + "', this run is '" + profile + "'");
  }
  const std::string prev_shard = ShardText(previous), shard = ShardText(plan);
  if (prev_shard != shard) {
    problems.push_back("they are shard " + prev_shard + " of the sweep, this run is shard " + shard);
  }
  const auto prev_exp = previous.value("experiment_overrides", std::vector<std::string>{});
  if (prev_exp != plan.experiment_overrides) {
    problems.push_back("they were run with --set " + SetFlags(prev_exp) + ", this run with " +
                       SetFlags(plan.experiment_overrides));
  }
  const auto prev_models = previous.value("model_overrides", OverridesByModel{});
  for (const std::string& m : plan.models) {
    auto it = prev_models.find(m);
    const std::vector<std::string>& now = plan.model_overrides.at(m);
    if (it != prev_models.end() && it->second != now) {
      problems.push_back("model " + m + " was run with --set " + SetFlags(it->second) +
                         ", this run with " + SetFlags(now));
    }
  }
  return problems;
}

json RunningSidecar(const SidecarRun& run, const RunSummary& summary,
                    const std::optional<json>& previous) {
  const GitInfo git = QueryGit(SourceDir());
  const MachineInfo machine = QueryMachine();
  json sidecar;
  sidecar["experiment"] = run.experiment.name();
  sidecar["paper"] = run.experiment.paper();
  sidecar["status"] = "running";
  sidecar["git_commit"] = git.commit;
  sidecar["git_dirty"] = git.dirty;
  sidecar["hostname"] = machine.hostname;
  sidecar["cpu"] = machine.cpu;
  sidecar["cores"] = machine.cores;
  sidecar["compiler"] = machine.compiler;
  sidecar["build_type"] = machine.build_type;
  sidecar["config_file"] = run.plan.config_file;
  sidecar["profile"] = run.options.profile;
  sidecar["threads"] = summary.threads;
  sidecar["case_timeout_s"] = run.options.case_timeout_s;
  sidecar["models"] = run.plan.models;
  sidecar["engines"] = Engines(run.plan, run.registry);
  sidecar["overrides"] = run.options.overrides;
  sidecar["experiment_overrides"] = run.plan.experiment_overrides;
  sidecar["model_overrides"] = ModelOverridesSoFar(previous, run.plan);
  sidecar["model_options"] = NonDefaultModelOptions(run.plan, run.registry);
  sidecar["notes"] = run.plan.sweep.notes;
  if (run.plan.shards > 1) sidecar["shard"] = {{"index", run.plan.shard}, {"count", run.plan.shards}};
  sidecar["seeds"] = Seeds(run.plan.sweep);
  sidecar["cases"] = CaseCounts(summary);
  sidecar["start"] = IsoTimeUtc(run.start);
  sidecar["end"] = nullptr;
  sidecar["duration_s"] = nullptr;
  sidecar["previous_runs"] = PreviousRuns(previous);
  return sidecar;
}

void MarkComplete(json& sidecar, const RunSummary& summary,
                  std::chrono::system_clock::time_point end) {
  sidecar["status"] = "complete";
  sidecar["cases"] = CaseCounts(summary);
  sidecar["end"] = IsoTimeUtc(end);
  sidecar["duration_s"] = summary.duration_s;
}

void WriteJsonAtomic(const std::string& path, const json& j) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    out << j.dump(2) << '\n';
    if (!out) throw Error("cannot write " + tmp);
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) throw Error("cannot rename " + tmp + " to " + path + ": " + ec.message());
}

}  // namespace arena
