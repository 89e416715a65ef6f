#include "harness/merge.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "experiments/result_table.h"
#include "core/common/error.h"
#include "core/common/strings.h"
#include "harness/csv_writer.h"
#include "harness/folder_lock.h"
#include "harness/results_store.h"
#include "harness/sidecar.h"
#include "harness/sweep_plan.h"

namespace arena {

namespace fs = std::filesystem;

namespace {

struct Shard {
  std::string dir;
  ResultFiles files;
  SidecarJson sidecar;
  int index = 1, count = 1;
};

Shard ReadShard(const std::string& dir, const std::string& experiment) {
  Shard s;
  s.dir = dir;
  s.files = ResultFilesIn(ExperimentResultsDir(dir, experiment), experiment);
  if (!fs::exists(s.files.csv)) {
    throw InvalidArgument("merge: " + dir + " holds no results of " + experiment + " (" + s.files.csv + ")");
  }
  std::optional<SidecarJson> sidecar = ReadSidecar(s.files.sidecar);
  if (!sidecar) throw InvalidArgument("merge: " + s.files.sidecar + " is missing or unreadable");
  s.sidecar = std::move(*sidecar);
  if (s.sidecar.value("status", "") != "complete") {
    throw InvalidArgument("merge: the shard in " + dir + " has not finished; resume it (the same arena run command)");
  }
  if (s.sidecar.contains("shard") && s.sidecar["shard"].is_object()) {
    s.index = s.sidecar["shard"].value("index", 1);
    s.count = s.sidecar["shard"].value("count", 1);
  }
  return s;
}

// Every shard 1..N once, all of one sweep (profile, models, overrides, commit).
void CheckShards(const std::vector<Shard>& shards) {
  const Shard& first = shards.front();
  std::map<int, std::string> dir_of;
  for (const Shard& s : shards) {
    if (s.count != first.count) {
      throw InvalidArgument("merge: " + s.dir + " is shard " + ShardText(s.sidecar) + ", " + first.dir + " is " +
                            ShardText(first.sidecar) + ": shards of sweeps cut differently");
    }
    if (dir_of.count(s.index)) {
      throw InvalidArgument("merge: shard " + ShardText(s.sidecar) + " is given twice (" + dir_of[s.index] + ", " + s.dir +
                            ")");
    }
    dir_of[s.index] = s.dir;
    for (const char* key : {"profile", "models", "experiment_overrides", "model_overrides", "git_commit"}) {
      if (s.sidecar.value(key, SidecarJson()) != first.sidecar.value(key, SidecarJson())) {
        throw InvalidArgument("merge: " + s.dir + " is another sweep than " + first.dir + ": its " + key + " is " +
                              s.sidecar.value(key, SidecarJson()).dump() + ", not " +
                              first.sidecar.value(key, SidecarJson()).dump());
      }
    }
  }
  for (int k = 1; k <= first.count; ++k) {
    if (!dir_of.count(k)) {
      throw InvalidArgument("merge: shard " + std::to_string(k) + "/" + std::to_string(first.count) +
                            " is missing (give every shard's results folder)");
    }
  }
}

// The sweep the shards cut, expanded again from the config with their profile and overrides.
SweepPlan PlanOfShards(const Experiment& experiment, const Shard& first, const RunOptions& given,
                       const ModelRegistry& registry) {
  RunOptions o = given;
  o.profile = first.sidecar.value("profile", "quick");
  o.models = first.sidecar.value("models", std::vector<std::string>{});
  o.overrides = first.sidecar.value("overrides", std::vector<std::string>{});
  o.shard = o.shards = 1;
  return PlanSweep(experiment, o, registry);
}

// Every shard's rows; throws unless each case of the sweep is in exactly one shard.
CsvRows CollectShardRows(const std::vector<Shard>& shards, const std::vector<std::string>& columns,
                         const Sweep& sweep) {
  std::set<std::string> planned;
  for (const Case& c : sweep.cases) planned.insert(c.id);
  std::map<std::string, const Shard*> owner;
  CsvRows rows;
  for (const Shard& s : shards) {
    const ResultTable table = ResultTable::ReadCsv(s.files.csv);
    if (table.columns() != columns) {
      throw InvalidArgument("merge: " + s.files.csv + " has other columns than this version of the experiment writes (" +
                            Join(columns) + ")");
    }
    for (const std::vector<std::string>& row : table.cells()) {
      const std::string& id = row.front();
      if (!planned.count(id)) throw InvalidArgument("merge: " + s.files.csv + ": case '" + id + "' is not in the sweep");
      auto [it, fresh] = owner.emplace(id, &s);
      if (!fresh && it->second != &s) {
        throw InvalidArgument("merge: case '" + id + "' is in " + it->second->dir + " and in " + s.dir);
      }
      rows.push_back(row);
    }
  }
  for (const Case& c : sweep.cases) {
    if (!owner.count(c.id)) throw InvalidArgument("merge: case '" + c.id + "' is in no shard (a shard ran fewer cases)");
  }
  return rows;
}

SidecarJson MergedSidecar(const std::vector<Shard>& shards, const Sweep& sweep) {
  SidecarJson merged = shards.front().sidecar;
  merged.erase("shard");
  SidecarJson seeds = SidecarJson::object(), from = SidecarJson::array();
  int run = 0, skipped = 0, failed = 0;
  std::string start = merged.value("start", ""), end = merged.value("end", "");
  for (const Shard& s : shards) {
    const SidecarJson shard_seeds = s.sidecar.value("seeds", SidecarJson::object());
    for (const auto& [id, seed] : shard_seeds.items()) seeds[id] = seed;
    const SidecarJson cases = s.sidecar.value("cases", SidecarJson::object());
    run += cases.value("run", 0);
    skipped += cases.value("skipped", 0);
    failed += cases.value("failed", 0);
    start = std::min(start, s.sidecar.value("start", start));
    end = std::max(end, s.sidecar.value("end", end));
    from.push_back({{"dir", s.dir},
                    {"shard", ShardText(s.sidecar)},
                    {"hostname", s.sidecar.value("hostname", "")},
                    {"threads", s.sidecar.value("threads", 0)},
                    {"start", s.sidecar.value("start", "")},
                    {"end", s.sidecar.value("end", "")},
                    {"duration_s", s.sidecar.value("duration_s", SidecarJson())}});
  }
  SidecarJson ordered_seeds = SidecarJson::object();
  for (const Case& c : sweep.cases) ordered_seeds[c.id] = seeds.value(c.id, SidecarJson());
  merged["seeds"] = ordered_seeds;
  merged["cases"] = {{"total", static_cast<int>(sweep.cases.size())}, {"run", run}, {"skipped", skipped}, {"failed", failed}};
  merged["start"] = start;
  merged["end"] = end;
  merged["merged_from"] = from;
  return merged;
}

}  // namespace

MergeSummary MergeShards(const Experiment& experiment, const std::vector<std::string>& shard_dirs,
                         const RunOptions& options) {
  const std::string name = experiment.name();
  if (shard_dirs.empty()) throw InvalidArgument("merge: give the results folders of the shards");
  const ModelRegistry registry(options.model_registry != nullptr ? *options.model_registry : Models());
  std::vector<Shard> shards;
  for (const std::string& dir : shard_dirs) shards.push_back(ReadShard(dir, name));
  std::sort(shards.begin(), shards.end(), [](const Shard& a, const Shard& b) { return a.index < b.index; });
  CheckShards(shards);
  const SweepPlan plan = PlanOfShards(experiment, shards.front(), options, registry);
  const RowFormatter formatter(experiment);
  CsvRows rows = CollectShardRows(shards, formatter.columns(), plan.sweep);

  const ResultFiles out = ResultFilesIn(ExperimentResultsDir(options.out_dir, name), name);
  for (const Shard& s : shards) {
    if (fs::weakly_canonical(s.files.dir) == fs::weakly_canonical(out.dir)) {
      throw InvalidArgument("merge: the output folder " + out.dir + " is a shard's own; merge into another --out");
    }
  }
  fs::create_directories(out.dir);
  const FolderLock lock(out.dir + "/.lock");
  if (HasResults(out)) {
    if (!options.fresh) {
      throw InvalidArgument("merge: " + out.dir + " already holds results of " + name + "; give --fresh to replace them");
    }
    DiscardResults(out);
  }
  std::map<std::string, size_t> order;
  for (const Case& c : plan.sweep.cases) order[c.id] = static_cast<size_t>(c.index);
  WriteFinalTable(out, formatter.columns(), std::move(rows), order);
  WriteJsonAtomic(out.sidecar, MergedSidecar(shards, plan.sweep));
  spdlog::info("{}: merged {} shards, {} cases -> {}", name, shards.size(), plan.sweep.cases.size(), out.csv);
  return {out.csv, out.sidecar, static_cast<int>(shards.size()), static_cast<int>(plan.sweep.cases.size())};
}

}  // namespace arena
