// The reproduction report: every paper claim (experiments/<name>/claims.toml) with the paper's value,
// ours, the claim's criterion and a verdict, from the finished CSVs of every registered
// experiment. Experiments measure (Summarize); the report judges, applying each claim's
// criterion (harness/claim_criterion.h) to what was measured. Writes <results>/report.json (a
// list of claims) and <results>/REPORT.md (per-experiment tables and figures, a summary per
// verdict, the experiments not run).
//
// The claims are read from every experiment's claims.toml (harness/claims.h).
#pragma once

#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/experiment.h"
#include "harness/claims.h"

namespace arena {

/// kReproduced / kDiffers judge a claim by its criterion; kObserved is a measured observation
/// (no criterion); kNotRun: not measured; kNotDecided: measured at a profile that cannot decide
/// it (Claim::decided_at; what it measured is shown, not judged).
enum class Verdict { kReproduced, kDiffers, kObserved, kNotRun, kNotDecided };
/// "reproduced", "differs", "observed", "not_run", "not_decided".
std::string_view ToString(Verdict verdict);

struct ReportOptions {
  std::string plots_dir;  // figures; empty: <repo>/plots/out
  /// Experiments to report on; nullptr: Experiments(). (Tests pass their own.)
  const std::vector<std::unique_ptr<Experiment>>* experiments = nullptr;
};

struct ReportEntry {
  Claim claim;
  std::string ours;  // as shown: ours_text, or the number with 4 significant digits, or ""
  double ours_value = std::numeric_limits<double>::quiet_NaN();
  std::map<std::string, double> values;  // the named values Summarize measured
  Verdict verdict = Verdict::kNotRun;
  std::string note;  // for differs: the failing clauses first, then Summarize's note
};

struct ReportSummary {
  std::string json_path;
  std::string markdown_path;
  std::vector<ReportEntry> entries;  // catalogue order
  // Claims (kind claim) per verdict.
  int reproduced = 0;
  int differs = 0;
  int not_run = 0;
  int not_decided = 0;  // measured at a profile that does not decide them (Claim::decided_at)
  // Observations, counted apart: measured, and not measured.
  int observed = 0;
  int observations_not_run = 0;
  /// Experiments whose Summarize threw (their claims are not_run with the message as note).
  std::vector<std::string> errors;
};

/// One experiment of a results folder, as the report reads it.
struct ExperimentResults {
  const Experiment* experiment = nullptr;
  bool ran = false;                       // its CSV exists
  std::string run_info;                   // from the sidecar: profile, commit, time, host
  std::string profile;                    // the sidecar's profile ("" when unreadable)
  std::vector<Observation> observations;  // Observe() of its table
};

/// The claims of a results folder judged by their criteria (WriteReport's content, unwritten).
struct Judgement {
  std::vector<Claim> claims;                            // the catalogue
  ReportSummary summary;                                // entries and counts (no paths)
  std::map<std::string, ExperimentResults> experiments;  // by name: the registered ones
};

/// Reads <results_dir>/<exp>/<exp>.csv of every experiment, calls Summarize and applies each
/// claim's criterion, as WriteReport does, without writing anything. Throws as WriteReport does.
Judgement JudgeResults(const std::string& results_dir, const std::string& claims_file,
                       const ReportOptions& options = {});

/// Reads <results_dir>/<exp>/<exp>.csv of every experiment, calls Summarize, matches the
/// ClaimResults with the catalogue, applies each claim's criterion and writes report.json and
/// REPORT.md into results_dir. A ClaimResult whose id is not in the catalogue (or is returned
/// twice), or that lacks a value its claim's criterion names, is a programming error: throws
/// Error listing them, before writing anything.
ReportSummary WriteReport(const std::string& results_dir, const std::string& claims_file,
                          const ReportOptions& options = {});

}  // namespace arena
