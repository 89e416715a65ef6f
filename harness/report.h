// The reproduction report: every paper claim of experiments/claims.toml with the paper's value,
// ours and a verdict, from the finished CSVs of every registered experiment. Writes
// <results>/report.json (a list of claims) and <results>/REPORT.md (per-experiment tables and
// figures, a summary per verdict, the experiments not run).
//
// claims.toml:
//   [[claim]]
//   id = "box_drop.failure_rate.silico"   # unique; Summarize returns a ClaimResult with this id
//   experiment = "box_drop"
//   description = "single-level failure rate over the sweep"
//   paper = "0.001"                       # the paper's value as printed (a string)
//   unit = ""                             # optional
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "experiments/experiment.h"

namespace arena {

struct Claim {
  std::string id;
  std::string experiment;
  std::string description;
  std::string paper;
  std::string unit;
  std::string source;  // seed file and figure/table, e.g. "000 Fig. 9"
};

/// Reads the catalogue. Throws ParseError naming the file and the entry (missing or mistyped
/// field, unknown field, duplicate id).
std::vector<Claim> LoadClaims(const std::string& path);

struct ReportOptions {
  std::string plots_dir;  // figures; empty: <repo>/plots/out
  /// Experiments to report on; nullptr: Experiments(). (Tests pass their own.)
  const std::vector<std::unique_ptr<Experiment>>* experiments = nullptr;
};

struct ReportEntry {
  Claim claim;
  std::string ours;  // as shown: ours_text, or the number with 4 significant digits, or ""
  double ours_value = std::numeric_limits<double>::quiet_NaN();
  Verdict verdict = Verdict::kNotRun;
  std::string note;
};

struct ReportSummary {
  std::string json_path;
  std::string markdown_path;
  std::vector<ReportEntry> entries;  // catalogue order
  int reproduced = 0;
  int differs = 0;
  int not_run = 0;
  /// Experiments whose Summarize threw (their claims are not_run with the message as note).
  std::vector<std::string> errors;
};

/// Reads <results_dir>/<exp>/<exp>.csv of every experiment, calls Summarize, matches the
/// ClaimResults with the catalogue and writes report.json and REPORT.md into results_dir.
/// A ClaimResult whose id is not in the catalogue (or is returned twice) is a programming
/// error: throws Error listing them, before writing anything.
ReportSummary WriteReport(const std::string& results_dir, const std::string& claims_file,
                          const ReportOptions& options = {});

}  // namespace arena
