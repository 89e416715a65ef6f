#include "harness/runner.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "core/common/error.h"
#include "experiments/result_table.h"
#include "tests/harness/toy_experiment.h"

extern char** environ;

namespace arena {
namespace runner_test {

namespace fs = std::filesystem;
using testing::Contains;
using testing::ReadFile;
using testing::ToyExperiment;
using testing::WithoutTiming;

// quick profile: alpha sweeps 2 stiffnesses, beta none: 5 xs * 2 repeats * (2 + 1) = 30 cases.
constexpr int kQuickCases = 30;

class RunnerTest : public ::testing::Test {
 protected:
  void SetUp() override { testing::WriteFile(dir_ / "configs/toy.toml", testing::kToyConfig); }

  RunOptions Options(const std::string& out = "results") const { return testing::ToyRunOptions(dir_.path(), out); }
  std::string Csv(const std::string& out = "results") const { return dir_ / (out + "/toy/toy.csv"); }
  std::string Partial(const std::string& out = "results") const {
    return dir_ / (out + "/toy/toy.partial.csv");
  }

  testing::ScratchDir dir_;
};

// Every case of the sweep exactly once (one row each for the toy).
void ExpectEachCaseOnce(const ResultTable& t, int cases) {
  std::multiset<std::string> ids;
  for (int r = 0; r < t.num_rows(); ++r) ids.insert(t.Text(r, "case_id"));
  EXPECT_EQ(t.num_rows(), cases);
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), ids.size());
}

TEST_F(RunnerTest, RunsEveryCaseAndWritesSortedCsv) {
  ToyExperiment toy;
  const RunSummary s = RunExperiment(toy, Options());
  EXPECT_EQ(s.cases_total, kQuickCases);
  EXPECT_EQ(s.cases_run, kQuickCases);
  EXPECT_EQ(s.cases_skipped, 0);
  EXPECT_EQ(s.cases_failed, 0);
  EXPECT_EQ(s.notes, (std::vector<std::string>{"toy: nothing skipped"}));
  EXPECT_EQ(s.csv_path, Csv());
  EXPECT_FALSE(fs::exists(Partial()));
  const ResultTable t = ResultTable::ReadCsv(Csv());
  EXPECT_EQ(t.columns(), (std::vector<std::string>{"case_id", "model", "x", "k", "rep", "metric",
                                                   "metric_sq", "note", "run_time_s", "error"}));
  ExpectEachCaseOnce(t, kQuickCases);
  // Sorted by case index: model-major as Expand lists them, params written by the harness.
  EXPECT_EQ(t.Text(0, "case_id"), "alpha/x=1/k=1000/r=0");
  EXPECT_EQ(t.Text(0, "x"), "1");
  EXPECT_EQ(t.Text(0, "k"), "1000");
  EXPECT_EQ(t.Text(kQuickCases - 1, "case_id"), "beta/x=5/k=/r=1");
  EXPECT_EQ(t.Text(0, "note"), "a, \"quoted\" note");
  EXPECT_EQ(toy.calls.load(), kQuickCases);
}

TEST_F(RunnerTest, IdenticalMetricsWithOneAndTwoThreads) {
  ToyExperiment toy;
  RunOptions one = Options("one");
  one.threads = 1;
  RunOptions two = Options("two");
  two.threads = 2;
  EXPECT_EQ(RunExperiment(toy, one).threads, 1);
  EXPECT_EQ(RunExperiment(toy, two).threads, 2);
  const ResultTable a = ResultTable::ReadCsv(Csv("one"));
  const ResultTable b = ResultTable::ReadCsv(Csv("two"));
  EXPECT_EQ(WithoutTiming(a), WithoutTiming(b));
  EXPECT_NE(a.cells(), b.cells());  // the timing column does differ
}

TEST_F(RunnerTest, ThrowingCaseBecomesErrorRowAndSweepContinues) {
  ToyExperiment toy;
  toy.throw_at_x = 3;
  const RunSummary s = RunExperiment(toy, Options());
  EXPECT_EQ(s.cases_failed, 6);  // x = 3: alpha 2 stiffnesses * 2 repeats + beta 2 repeats
  EXPECT_EQ(s.cases_run, kQuickCases);
  const ResultTable t = ResultTable::ReadCsv(Csv());
  ExpectEachCaseOnce(t, kQuickCases);
  int errors = 0;
  for (int r = 0; r < t.num_rows(); ++r) {
    if (t.Text(r, "x") == "3") {
      ++errors;
      EXPECT_EQ(t.Text(r, "error"), "boom at x=3, second line");  // one line in the CSV
      EXPECT_EQ(t.Text(r, "metric"), "");
      EXPECT_FALSE(t.Text(r, "k").empty() && t.Text(r, "model") == "alpha");  // params kept
    } else {
      EXPECT_EQ(t.Text(r, "error"), "");
      EXPECT_FALSE(t.Text(r, "metric").empty());
    }
  }
  EXPECT_EQ(errors, 6);

  // Rerunning skips them; --retry-failed reruns exactly them.
  ToyExperiment fixed;
  EXPECT_EQ(RunExperiment(fixed, Options()).cases_run, 0);
  RunOptions retry = Options();
  retry.retry_failed = true;
  const RunSummary r = RunExperiment(fixed, retry);
  EXPECT_EQ(r.cases_run, 6);
  EXPECT_EQ(r.cases_failed, 0);
  const ResultTable after = ResultTable::ReadCsv(Csv());
  ExpectEachCaseOnce(after, kQuickCases);
  for (int i = 0; i < after.num_rows(); ++i) EXPECT_EQ(after.Text(i, "error"), "");
}

TEST_F(RunnerTest, ResumeFromPartialKeepsRowsAndRunsOnlyTheRest) {
  ToyExperiment reference_toy;
  RunExperiment(reference_toy, Options("reference"));
  const std::string reference_text = ReadFile(Csv("reference"));
  const ResultTable reference = ResultTable::ReadCsv(Csv("reference"));

  // A killed run: the header, 7 finished cases (out of order, as threads finish them) and a
  // line cut off in the middle of a write.
  std::istringstream lines(reference_text);
  std::vector<std::string> all;
  for (std::string line; std::getline(lines, line);) all.push_back(line + "\n");
  std::string partial = all[0];
  for (int i : {3, 1, 2, 9, 4, 20, 11}) partial += all[1 + i];
  partial += all[1 + 15].substr(0, 30);  // past the case id's comma
  testing::WriteFile(Partial(), partial);
  // The sidecar a killed run leaves behind.
  fs::copy_file(dir_ / "reference/toy/toy.json", dir_ / "results/toy/toy.json");

  ToyExperiment toy;
  const RunSummary s = RunExperiment(toy, Options());
  EXPECT_EQ(s.cases_skipped, 7);
  EXPECT_EQ(s.cases_run, kQuickCases - 7);
  EXPECT_EQ(toy.calls.load(), kQuickCases - 7);  // finished cases are not recomputed
  EXPECT_FALSE(fs::exists(Partial()));
  const ResultTable t = ResultTable::ReadCsv(Csv());
  ExpectEachCaseOnce(t, kQuickCases);
  EXPECT_EQ(WithoutTiming(t), WithoutTiming(reference));
  // The kept rows are the very bytes of the first run (timing included).
  for (int i : {3, 1, 2, 9, 4, 20, 11}) EXPECT_EQ(t.cells()[i], reference.cells()[i]);

  // A second rerun has nothing to do and leaves the bytes alone.
  const std::string before = ReadFile(Csv());
  ToyExperiment again;
  EXPECT_EQ(RunExperiment(again, Options()).cases_run, 0);
  EXPECT_EQ(again.calls.load(), 0);
  EXPECT_EQ(ReadFile(Csv()), before);
}

TEST_F(RunnerTest, CutOffBlockOfTheLastCaseIsRerun) {
  ToyExperiment reference_toy;
  RunExperiment(reference_toy, Options("reference"));
  std::istringstream lines(ReadFile(Csv("reference")));
  std::vector<std::string> all;
  for (std::string line; std::getline(lines, line);) all.push_back(line + "\n");
  // Case 5 complete, then a cut-off line whose case id is a prefix of case 5's: the harness
  // cannot tell whether it is case 5's next row, so case 5 is rerun too.
  const std::string id5 = all[1 + 5].substr(0, all[1 + 5].find(','));
  testing::WriteFile(Partial(), all[0] + all[1 + 0] + all[1 + 5] + id5.substr(0, 8));
  ToyExperiment toy;
  const RunSummary s = RunExperiment(toy, Options());
  EXPECT_EQ(s.cases_skipped, 1);
  EXPECT_EQ(toy.calls.load(), kQuickCases - 1);
  ExpectEachCaseOnce(ResultTable::ReadCsv(Csv()), kQuickCases);
}

// Runs in a child process started by ResumeAfterKilledProcess: the sweep kills itself mid-run.
// Not a RunnerTest: a SIGKILL skips destructors, so the child must own no scratch folder.
TEST(RunnerKilledChild, RunsUntilKilled) {
  const char* out = std::getenv("ARENA_TOY_KILL_DIR");
  if (out == nullptr) GTEST_SKIP() << "only run as the child of ResumeAfterKilledProcess";
  testing::WriteFile(std::string(out) + "/configs/toy.toml", testing::kToyConfig);
  ToyExperiment toy;
  toy.kill_at_index = 17;
  RunOptions o = testing::ToyRunOptions(out);
  o.threads = 2;
  RunExperiment(toy, o);
  FAIL() << "the child was not killed";
}

TEST_F(RunnerTest, ResumeAfterKilledProcess) {
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  const std::string env_var = "ARENA_TOY_KILL_DIR=" + dir_.path();
  std::vector<char*> env;
  for (char** e = environ; *e != nullptr; ++e) env.push_back(*e);
  env.push_back(const_cast<char*>(env_var.c_str()));
  env.push_back(nullptr);
  std::string filter = "--gtest_filter=RunnerKilledChild.RunsUntilKilled";
  char* argv[] = {const_cast<char*>(self.c_str()), filter.data(), nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, self.c_str(), &actions, nullptr, argv, env.data()), 0);
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "status " << status;

  // The killed run left its finished rows in the partial file and no final CSV.
  ASSERT_TRUE(fs::exists(Partial()));
  EXPECT_FALSE(fs::exists(Csv()));
  const ResultTable partial = ResultTable::ReadCsv(Partial());
  const int finished = partial.num_rows();
  EXPECT_GE(finished, 10);  // at least the cases before index 17 that one thread ran
  EXPECT_LT(finished, kQuickCases);
  std::map<std::string, std::vector<std::string>> kept;
  for (const auto& row : partial.cells()) kept[row[0]] = row;

  ToyExperiment toy;
  RunOptions o = Options();
  o.threads = 2;
  const RunSummary s = RunExperiment(toy, o);
  EXPECT_EQ(s.cases_skipped, finished);
  EXPECT_EQ(toy.calls.load(), kQuickCases - finished);
  const ResultTable t = ResultTable::ReadCsv(Csv());
  ExpectEachCaseOnce(t, kQuickCases);
  for (const auto& row : t.cells()) {
    if (kept.count(row[0])) {
      EXPECT_EQ(row, kept[row[0]]);  // kept byte for byte, timing too
    }
  }
  ToyExperiment reference_toy;
  RunExperiment(reference_toy, Options("reference"));
  EXPECT_EQ(WithoutTiming(t), WithoutTiming(ResultTable::ReadCsv(Csv("reference"))));
  const auto sidecar = nlohmann::json::parse(ReadFile(dir_ / "results/toy/toy.json"));
  ASSERT_EQ(sidecar["previous_runs"].size(), 1u);
  EXPECT_EQ(sidecar["previous_runs"][0]["status"], "running");  // the killed run
}

TEST_F(RunnerTest, SidecarRecordsTheRun) {
  ToyExperiment toy;
  RunOptions o = Options();
  o.threads = 2;
  o.overrides = {"xs=[1,2]", "alpha.timestep = 0.001"};
  RunExperiment(toy, o);
  const auto j = nlohmann::json::parse(ReadFile(dir_ / "results/toy/toy.json"));
  for (const char* key : {"git_commit", "git_dirty", "hostname", "cpu", "cores", "compiler",
                          "build_type", "profile", "threads", "models", "overrides",
                          "model_options", "seeds", "cases", "start", "end", "duration_s"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["status"], "complete");
  EXPECT_EQ(j["profile"], "quick");
  EXPECT_EQ(j["threads"], 2);
  EXPECT_EQ(j["models"], (std::vector<std::string>{"alpha", "beta"}));
  EXPECT_EQ(j["cases"]["total"], 12);
  EXPECT_EQ(j["cases"]["run"], 12);
  EXPECT_EQ(j["cases"]["failed"], 0);
  EXPECT_EQ(j["seeds"].size(), 12u);
  EXPECT_EQ(j["seeds"]["beta/x=1/k=/r=0"], DeriveSeed("toy", "beta/x=1/k=/r=0"));
  // Non-default options: alpha's damping (0.5 vs 0.1), its timestep override and its swept
  // stiffness (1e4 is the default, 1e3 is not).
  EXPECT_EQ(j["model_options"]["alpha"]["damping"], "0.5");
  EXPECT_EQ(j["model_options"]["alpha"]["timestep"], "0.001");
  EXPECT_EQ(j["model_options"]["alpha"]["stiffness"], "1000");
  EXPECT_TRUE(j["model_options"]["beta"].empty());
  EXPECT_TRUE(std::string(j["start"]).ends_with("Z"));
}

TEST_F(RunnerTest, ModelsRunSeparatelyGiveTheSameTableAsTogether) {
  ToyExperiment toy;
  RunOptions beta = Options("split");
  beta.models = {"beta"};
  RunExperiment(toy, beta);
  RunOptions alpha = Options("split");
  alpha.models = {"alpha"};
  const RunSummary s = RunExperiment(toy, alpha);
  EXPECT_EQ(s.cases_total, 20);
  RunOptions both = Options("together");
  both.models = {"beta", "alpha"};  // order does not matter
  RunExperiment(toy, both);
  EXPECT_EQ(WithoutTiming(ResultTable::ReadCsv(Csv("split"))),
            WithoutTiming(ResultTable::ReadCsv(Csv("together"))));
}

TEST_F(RunnerTest, OtherProfileIsNotMixedIn) {
  ToyExperiment toy;
  RunExperiment(toy, Options());
  RunOptions paper = Options();
  paper.profile = "paper";
  const RunSummary s = RunExperiment(toy, paper);
  EXPECT_EQ(s.cases_skipped, 0);
  EXPECT_EQ(s.cases_total, 8 * 3 * 3);
  ExpectEachCaseOnce(ResultTable::ReadCsv(Csv()), 8 * 3 * 3);
  // The quick results were moved aside, not deleted.
  int archived = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir_ / "results/toy/superseded")) {
    if (e.path().filename() == "toy.csv") ++archived;
  }
  EXPECT_EQ(archived, 1);
  // --fresh deletes and starts over.
  RunOptions fresh = paper;
  fresh.fresh = true;
  ToyExperiment counting;
  RunExperiment(counting, fresh);
  EXPECT_EQ(counting.calls.load(), 8 * 3 * 3);
}

TEST_F(RunnerTest, UnknownOverrideKeyListsValidKeys) {
  ToyExperiment toy;
  RunOptions o = Options();
  o.overrides = {"xz=[1]"};
  try {
    RunExperiment(toy, o);
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_TRUE(Contains(e.what(), "unknown key 'xz'"));
    EXPECT_TRUE(Contains(e.what(), "valid keys: models, repeats, xs"));
  }
  EXPECT_FALSE(fs::exists(dir_ / "results/toy"));  // nothing ran, nothing written
}

TEST_F(RunnerTest, UnknownModelListsRegisteredModels) {
  ToyExperiment toy;
  RunOptions o = Options();
  o.models = {"alpha", "gamma"};
  try {
    RunExperiment(toy, o);
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_TRUE(Contains(e.what(), "unknown model 'gamma'; registered models: alpha, beta"));
  }
}

TEST_F(RunnerTest, UnknownModelOptionListsValidOptions) {
  ToyExperiment toy;
  RunOptions o = Options();
  o.overrides = {"alpha.stifness=3"};
  try {
    RunExperiment(toy, o);
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_TRUE(Contains(e.what(), "unknown option 'stifness' for model alpha"));
    EXPECT_TRUE(Contains(e.what(), "valid options: timestep, stiffness, damping"));
  }
  // The same key in the config file is caught before any case runs.
  testing::WriteFile(dir_ / "configs/toy.toml",
                     std::string(testing::kToyConfig) + "[quick.options.beta]\ndampin = 1\n");
  ToyExperiment counting;
  try {
    RunExperiment(counting, Options());
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_TRUE(Contains(e.what(), "unknown option 'dampin' for model beta"));
    EXPECT_TRUE(Contains(e.what(), "valid options: timestep, stiffness, damping"));
  }
  EXPECT_EQ(counting.calls.load(), 0);
}

TEST_F(RunnerTest, UnreadConfigKeyIsAnError) {
  testing::WriteFile(dir_ / "configs/toy.toml",
                     std::string(testing::kToyConfig) + "[quick.extra]\nrepeat = 3\n");
  ToyExperiment toy;
  try {
    RunExperiment(toy, Options());
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_TRUE(Contains(e.what(), "keys never read by experiment 'toy'"));
    EXPECT_TRUE(Contains(e.what(), "extra.repeat"));
  }
  EXPECT_EQ(toy.calls.load(), 0);
}

TEST_F(RunnerTest, MalformedConfigNamesFileAndLine) {
  testing::WriteFile(dir_ / "configs/toy.toml", "[quick]\nxs = [1, 2\nrepeats = 1\n");
  ToyExperiment toy;
  try {
    RunExperiment(toy, Options());
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_TRUE(Contains(e.file(), "toy.toml"));
    EXPECT_TRUE(Contains(e.where(), "line 3"));
  }
  fs::remove(dir_ / "configs/toy.toml");
  EXPECT_THROW(RunExperiment(toy, Options()), ParseError);
}

// Results of an older version of the experiment (other columns) are moved aside, never mixed
// in or lost, and the run starts afresh.
TEST_F(RunnerTest, ChangedColumnsAreNotResumed) {
  ToyExperiment toy;
  RunExperiment(toy, Options());
  struct Renamed : ToyExperiment {
    std::vector<Column> columns() const override {
      auto c = ToyExperiment::columns();
      c.push_back({"new_metric", ""});
      return c;
    }
  };
  Renamed renamed;
  const RunSummary summary = RunExperiment(renamed, Options());
  EXPECT_EQ(summary.cases_skipped, 0);
  EXPECT_EQ(summary.cases_run, summary.cases_total);
  const fs::path superseded = fs::path(summary.csv_path).parent_path() / "superseded";
  ASSERT_TRUE(fs::exists(superseded));
  int archived_csvs = 0;
  for (const auto& entry : fs::recursive_directory_iterator(superseded)) {
    if (entry.path().extension() == ".csv") ++archived_csvs;
  }
  EXPECT_EQ(archived_csvs, 1);
  EXPECT_NE(ResultTable::ReadCsv(summary.csv_path).ColumnIndex("new_metric"), -1);
}

}  // namespace runner_test
}  // namespace arena
