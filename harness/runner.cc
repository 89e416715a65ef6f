#include "harness/runner.h"

#include <spdlog/spdlog.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "core/common/case_progress.h"
#include "core/common/deadline.h"
#include "core/common/error.h"
#include "core/common/strings.h"
#include "config/profile_config.h"
#include "harness/csv_writer.h"
#include "harness/folder_lock.h"
#include "harness/progress.h"
#include "harness/results_store.h"
#include "harness/run_info.h"
#include "harness/sidecar.h"
#include "harness/sweep_plan.h"

namespace arena {
namespace fs = std::filesystem;

namespace {

// Gets the folder ready for this run: --fresh discards the old results, and results of another
// profile, other overrides or other columns are moved aside rather than mixed in or deleted. Returns the
// sidecar of the results this run extends, if any.
std::optional<SidecarJson> PrepareResults(const ResultFiles& files, const std::string& experiment,
                                          const RunOptions& options, const SweepPlan& plan,
                                          const std::vector<std::string>& columns,
                                          std::chrono::system_clock::time_point now) {
  const bool have_results = HasResults(files);
  std::optional<SidecarJson> previous =
      have_results ? ReadSidecar(files.sidecar) : std::nullopt;
  if (options.fresh) {
    if (have_results) {
      spdlog::warn("{}: --fresh: discarding the results in {}", experiment, files.dir);
    }
    DiscardResults(files);
    return std::nullopt;
  }
  if (!have_results) return std::nullopt;
  std::vector<std::string> problems;
  if (previous) {
    problems = ResumeConflicts(*previous, options.profile, plan);
  } else {
    spdlog::warn("{}: no readable sidecar next to the existing results; resuming without "
                 "checking their profile and overrides", experiment);
  }
  // Results written by an older version of the experiment (other columns), or whose header is
  // damaged, are kept aside too: their rows cannot be read as this version's.
  for (std::string& mismatch : HeaderMismatches(files, columns)) problems.push_back(std::move(mismatch));
  if (problems.empty()) return previous;
  const std::string start = previous ? previous->value("start", IsoTimeUtc(now)) : IsoTimeUtc(now);
  const fs::path archive = SupersedeResults(files, start, previous ? previous->value("profile", "") : "");
  spdlog::warn("{}: existing results are not resumable ({}); moved them to {}", experiment,
               Join(problems, "; "), archive.string());
  return std::nullopt;
}

std::vector<const Case*> CasesToRun(const Sweep& sweep, const std::set<std::string>& done) {
  std::vector<const Case*> todo;
  for (const Case& c : sweep.cases) {
    if (!done.count(c.id)) todo.push_back(&c);
  }
  return todo;
}

RunSummary StartSummary(const ResultFiles& files, const Sweep& sweep, size_t cases_to_run) {
  RunSummary summary;
  summary.csv_path = files.csv;
  summary.sidecar_path = files.sidecar;
  summary.cases_total = static_cast<int>(sweep.cases.size());
  summary.cases_skipped = summary.cases_total - static_cast<int>(cases_to_run);
  summary.notes = sweep.notes;
  return summary;
}

struct CaseFailures {
  int count = 0;
  std::string first;  // "case '<id>': <message>"
};

// Each case's lines are appended to E.partial.csv in one write as soon as it finishes, so a
// killed run loses only the cases in flight. A case that throws becomes an error row instead of
// aborting the sweep.
//
// Each case runs under a wall-clock deadline (core/common/deadline.h): the simulator's Step,
// the iterative solvers and the optimisers stop once it has passed, and a case that ran past
// its budget is a failed case, whatever rows it returned.
// How often a running case may say what it is doing (seconds).
constexpr double kCaseNoteInterval = 60.0;

CaseFailures RunCases(const Experiment& experiment, const RowFormatter& formatter,
                      const std::vector<const Case*>& todo, const std::string& partial_path,
                      const RunOptions& options, tbb::task_arena& arena) {
  CaseFailures failures;
  // Nothing to run: no partial file either.
  if (todo.empty()) return failures;
  CsvAppender partial(partial_path, formatter.columns());
  std::mutex write_mutex;  // guards `partial` and `failures`
  Progress progress(experiment.name(), static_cast<int>(todo.size()), options.progress);
  auto run_case = [&](const Case& c) {
    std::string lines;
    bool case_failed = false;
    std::string message;
    {
      const ScopedDeadline deadline(options.case_timeout_s, "the case's wall-clock budget");
      const ScopedCaseProgress heartbeat(kCaseNoteInterval, [&](const std::string& what) { progress.CaseNote(c.id, what); });
      try {
        const std::vector<Row> rows = experiment.Run(c);
        if (rows.empty()) throw Error("Run returned no rows");
        lines = formatter.Format(c, rows);
      } catch (const std::exception& e) {
        message = e.what();
        case_failed = true;
      } catch (...) {
        message = "unknown exception";
        case_failed = true;
      }
      if (deadline.passed()) {
        message = DeadlineMessage() + " (--case-timeout)" + (case_failed ? "; then: " + message : "");
        case_failed = true;
      }
    }
    if (case_failed) lines = formatter.FormatError(c, message);
    std::lock_guard<std::mutex> guard(write_mutex);
    partial.Append(lines);
    if (case_failed && failures.count++ == 0) failures.first = "case '" + c.id + "': " + message;
    progress.CaseDone(case_failed);
  };
  // Grain 1 with the simple partitioner: every case is a task of its own, so a slow case never
  // holds back the cases that would have shared its chunk.
  arena.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<size_t>(0, todo.size(), 1),
        [&](const tbb::blocked_range<size_t>& range) {
          for (size_t i = range.begin(); i != range.end(); ++i) run_case(*todo[i]);
        },
        tbb::simple_partitioner());
  });
  return failures;
}

// The cases a stored row may belong to, with their position in the final table: this run's
// sweep, and, for models with rows in the folder that this run does not include, the sweep of
// every model as it was run (their --set overrides from the sidecar), so that the bytes do not
// depend on the order in which models were added.
ResumePlan PlanResume(const Experiment& experiment, const RunOptions& options, const ModelRegistry& registry,
                      const SweepPlan& plan, const RowFormatter& formatter,
                      const std::optional<SidecarJson>& previous, const std::set<std::string>& models_in_files) {
  ResumePlan resume;
  resume.columns = formatter.columns();
  resume.types = formatter.types();
  for (const Case& c : plan.sweep.cases) resume.cases[c.id] = {c.model, static_cast<size_t>(c.index)};
  std::vector<std::string> all_models = plan.models;
  std::vector<std::string> others;
  for (const std::string& m : models_in_files) {
    if (registry.Find(m) != nullptr && std::find(plan.models.begin(), plan.models.end(), m) == plan.models.end()) {
      all_models.push_back(m);
      others.push_back(m);
    }
  }
  if (others.empty()) return resume;
  try {
    all_models = CanonicalOrder(all_models, plan.config_models, registry);
    std::vector<std::string> overrides;
    for (const Override& o : plan.overrides) overrides.push_back(o.text);
    if (previous) {
      const auto earlier = previous->value("model_overrides", std::map<std::string, std::vector<std::string>>{});
      for (const std::string& m : others) {
        if (auto it = earlier.find(m); it != earlier.end()) {
          overrides.insert(overrides.end(), it->second.begin(), it->second.end());
        }
      }
    }
    ProfileConfig again = ProfileConfig::Load(plan.config_file, options.profile, overrides, registry.option_keys());
    again.set_max_cases(options.max_cases);
    const Sweep full = experiment.Expand(again, all_models);
    resume.cases.clear();
    for (size_t i = 0; i < full.cases.size(); ++i) resume.cases[full.cases[i].id] = {full.cases[i].model, i};
  } catch (const std::exception& e) {
    resume.unchecked_models.insert(others.begin(), others.end());
    spdlog::warn("{}: cannot expand the sweep of every model in the table ({}); rows of {} are checked "
                 "for their column types only, and written last", experiment.name(), e.what(), Join(others));
  }
  return resume;
}

std::map<std::string, size_t> TableOrder(const ResumePlan& plan) {
  std::map<std::string, size_t> order;
  for (const auto& [id, c] : plan.cases) order[id] = c.order;
  return order;
}

void LogOutcome(const std::string& experiment, const RunSummary& summary,
                const std::string& first_failure) {
  spdlog::info("{}: {} cases ({} run, {} already done, {} failed) in {:.1f} s -> {}", experiment,
               summary.cases_total, summary.cases_run, summary.cases_skipped, summary.cases_failed,
               summary.duration_s, summary.csv_path);
  if (summary.cases_failed > 0) {
    spdlog::warn("{}: {} cases failed (error column of {}); first: {}", experiment,
                 summary.cases_failed, summary.csv_path, first_failure);
  }
}

}  // namespace

std::string ExperimentResultsDir(const std::string& out_dir, const std::string& experiment) {
  const std::string root = out_dir.empty() ? SourceDir() + "/results" : out_dir;
  return (fs::path(root) / experiment).string();
}

RunSummary RunExperiment(const Experiment& experiment, const RunOptions& given) {
  const auto wall_start = std::chrono::system_clock::now();
  const auto steady_start = std::chrono::steady_clock::now();
  const std::string name = experiment.name();
  const ModelRegistry registry(given.model_registry != nullptr ? *given.model_registry
                                                               : Models());

  // Every input error surfaces here, before anything is written.
  const SweepPlan plan = PlanSweep(experiment, given, registry);
  RunOptions options = given;  // with the budget the profile may declare
  options.case_timeout_s = plan.case_timeout_s;
  const RowFormatter formatter(experiment);
  ValidateCases(plan, name, options.profile, registry, formatter);
  for (const std::string& note : plan.sweep.notes) spdlog::info("{}: {}", name, note);

  const ResultFiles files = ResultFilesIn(ExperimentResultsDir(options.out_dir, name), name);
  fs::create_directories(files.dir);
  const FolderLock lock(files.dir + "/.lock");
  const std::optional<SidecarJson> previous =
      PrepareResults(files, name, options, plan, formatter.columns(), wall_start);
  const std::vector<std::string>& columns = formatter.columns();
  const std::vector<StoredLine> stored = ReadStoredLines(files, columns);
  const ResumePlan resume_plan =
      PlanResume(experiment, options, registry, plan, formatter, previous, StoredModels(stored));
  ResumeState resume = Resume(files, stored, resume_plan, options.retry_failed, name);
  const std::vector<const Case*> todo = CasesToRun(plan.sweep, resume.done);

  RunSummary summary = StartSummary(files, plan.sweep, todo.size());
  summary.rows_kept = resume.rows_kept;
  summary.rows_dropped = resume.rows_dropped;
  summary.cases_rerun = resume.cases_rerun;
  // Timing experiments run their cases one at a time, so that no case shares the machine with
  // another and the timing ratios they report are not skewed by contention.
  const int threads = experiment.serial() ? 1 : options.threads;
  if (experiment.serial() && options.threads != 1) {
    spdlog::info("{}: runs on one thread (a timing experiment)", name);
  }
  tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
  arena.initialize();
  summary.threads = arena.max_concurrency();

  SidecarJson sidecar =
      RunningSidecar({experiment, options, registry, plan, wall_start}, summary, previous);
  WriteJsonAtomic(files.sidecar, sidecar);
  if (summary.cases_skipped > 0) {
    spdlog::info("{}: {} of {} cases already done (resume)", name, summary.cases_skipped,
                 summary.cases_total);
  }

  const CaseFailures failures =
      RunCases(experiment, formatter, todo, files.partial, options, arena);
  summary.cases_run = static_cast<int>(todo.size());
  summary.cases_failed = failures.count;

  CsvRows rows = CollectRows(files, columns, std::move(resume.final_rows));
  WriteFinalTable(files, columns, std::move(rows), TableOrder(resume_plan));

  const auto wall_end = std::chrono::system_clock::now();
  summary.duration_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - steady_start).count();
  MarkComplete(sidecar, summary, wall_end);
  WriteJsonAtomic(files.sidecar, sidecar);

  LogOutcome(name, summary, failures.first);
  return summary;
}

}  // namespace arena
