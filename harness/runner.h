// Runs one experiment: loads its config profile, expands the sweep, validates every case against
// the model registry, runs the cases not already present (resume) in parallel with TBB, appends
// each finished case's rows to <out>/<exp>/<exp>.partial.csv, and finally writes <exp>.csv
// sorted by case index together with the sidecar <exp>.json (docs/conventions.md items 8-9).
//
// Files of experiment E under out_dir:
//   E/E.csv          the finished table: case_id, model, <E's columns>, error; sorted, so the
//                    bytes never depend on scheduling or thread count
//   E/E.partial.csv  rows appended as cases finish (exists while running or after a kill)
//   E/E.json         sidecar: git commit + dirty flag, machine, build, profile, models,
//                    overrides, non-default model options, seeds, case counts, start/end time
//   E/.lock          held while a run writes the folder
//
// Resume: a case whose case_id is already in E.csv or E.partial.csv is skipped, so rerunning
// after a kill computes only what is missing, and running more models adds their rows. Results
// of another profile or other --set overrides are never mixed in: they are moved to
// E/superseded/<start time>-<profile>/ (with a warning) and the run starts afresh; `fresh`
// deletes the old results instead. Every row read back is checked first (results_store.h):
// duplicates and rows of cases not in the sweep are dropped, a case with an invalid or
// unreadable row runs again, and the files as they were are kept in E/superseded/.
//
// Each case has a wall-clock budget (RunOptions::case_timeout_s, core/common/deadline.h): the
// models' steps, the solvers and the optimisers stop once it has run out, and the case becomes
// an error row saying so; the sweep goes on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/profile_config.h"
#include "experiments/experiment.h"
#include "models/registry.h"

namespace arena {

/// Bounds of the run options, checked before anything runs.
inline constexpr int kMaxThreads = 1024;
inline constexpr double kDefaultCaseTimeout = 3600.0;  // s: an hour; profiles whose cases run longer declare case_timeout_s
inline constexpr double kMaxCaseTimeout = 1e6;         // s, about 11.6 days
inline constexpr int kMaxShards = 100000;

struct RunOptions {
  std::string profile = "quick";        // "quick", "paper" or "smoke" (quick shrunk by [smoke]): a table of the config
  std::vector<std::string> models;      // empty: the config's `models`
  std::vector<std::string> overrides;   // --set key=value (see config/profile_config.h)
  int threads = 0;                      // 0: every hardware thread; at most kMaxThreads
  std::string out_dir;                  // empty: <repo>/results
  std::string config_dir;               // empty: <repo>/experiments (<name>/config.toml)
  bool progress = true;                 // progress bar / periodic progress log on stderr
  bool fresh = false;                   // discard this experiment's existing results first
  bool retry_failed = false;            // rerun cases whose existing rows have an error
  double case_timeout_s = kDefaultCaseTimeout;  // wall-clock budget of one case, (0, kMaxCaseTimeout]
  /// --case-timeout given: case_timeout_s holds over the profile's `case_timeout_s` key (the
  /// budget a profile whose cases run for hours declares); not given, the key holds if present.
  bool case_timeout_given = false;
  std::int64_t max_cases = kDefaultMaxCases;    // the largest sweep the run accepts (>= 1)
  /// --shard K/N: run only the cases whose index in the full sweep is K - 1 modulo N, the same
  /// partition on every machine; each shard writes its own results folder, and `arena merge`
  /// (harness/merge.h) combines them into the table an unsharded run writes.
  int shard = 1;
  int shards = 1;
  /// Registry the models, cases and options are checked against; nullptr: Models().
  /// (Tests pass their own.)
  const std::vector<ModelInfo>* model_registry = nullptr;
};

struct RunSummary {
  std::string csv_path;
  std::string sidecar_path;
  int cases_total = 0;     // cases in the expanded sweep
  int cases_run = 0;       // run by this call
  int cases_skipped = 0;   // already present (resume)
  int cases_failed = 0;    // run by this call and threw or ran out of time (an error row each)
  int rows_kept = 0;       // rows found in the folder and kept (resume)
  int rows_dropped = 0;    // rows found and dropped: duplicates, cases not in the sweep
  int cases_rerun = 0;     // cases found with an invalid or unreadable row: run again
  int threads = 0;         // worker threads used
  double duration_s = 0.0;
  std::vector<std::string> notes;  // the sweep's notes (skipped variants)
};

/// Runs `experiment` as described above. The runner sets each case's index to its position in
/// the sweep and, when the experiment left seed at 0, seed = DeriveSeed(experiment, case id).
/// Throws InvalidArgument (unknown model, option key, --set key, a run option out of range, a
/// sweep of no cases or of more than max_cases), ParseError (config file: malformed, a value out
/// of range, unknown keys never read by the experiment) before any case runs, or Error on I/O
/// failure. A case that throws or runs out of time never aborts the sweep: it becomes one row
/// with its params and the error column set.
RunSummary RunExperiment(const Experiment& experiment, const RunOptions& options);

/// The folder RunExperiment writes `experiment` into ("<out_dir>/<name>"), with the defaults.
std::string ExperimentResultsDir(const std::string& out_dir, const std::string& experiment);

}  // namespace arena
