// `arena merge`: the results of a sweep run in shards (`arena run ... --shard K/N`, each shard
// in its own results folder, on any machines) combined into the folder an unsharded run writes:
// <out>/E/E.csv with every case once, in the sweep's order, and the sidecar E.json (the shards'
// runs listed under merged_from, case counts summed, start and end the earliest and latest).
//
// The shards must be one sweep: every shard 1..N present once and complete, the same profile,
// models, --set overrides and commit. The sweep is expanded again from the config to order the
// rows and to check that every case is there once.
#pragma once

#include <string>
#include <vector>

#include "experiments/experiment.h"
#include "harness/runner.h"

namespace arena {

struct MergeSummary {
  std::string csv_path;
  std::string sidecar_path;
  int shards = 0;
  int cases = 0;
};

/// Merges `experiment`'s results from `shard_dirs` (each a results folder: <dir>/E/E.csv and
/// E.json) into `options.out_dir`. `options` gives the config folder and model registry (its
/// profile, models and overrides come from the shards' sidecars). Throws InvalidArgument naming
/// the folder and the problem: a shard missing, given twice or not finished, shards of other
/// sweeps, a case missing or twice; Error on I/O failure.
MergeSummary MergeShards(const Experiment& experiment, const std::vector<std::string>& shard_dirs,
                         const RunOptions& options);

}  // namespace arena
