// Issue 14, class 3: a case has a wall-clock budget (RunOptions::case_timeout_s, `arena run
// --case-timeout`). A case that runs past it stops at the next step, solver iteration or
// optimiser iteration (core/common/deadline.h), becomes an error row saying so, and the sweep
// goes on.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "experiments/result_table.h"
#include "core/common/deadline.h"
#include "core/common/error.h"
#include "experiments/registry.h"
#include "harness/runner.h"
#include "tests/harness/toy_experiment.h"
#include "tests/test_paths.h"

namespace arena {
namespace case_timeout_test {

using testing::Contains;
using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// The toy whose cases at x = 3 loop like a solver that never converges: they only stop at the
// deadline, and then return a row as if all went well.
class LoopingToy : public testing::ToyExperiment {
 public:
  std::vector<Row> Run(const Case& c) const override {
    if (std::get<std::int64_t>(c.params[0].second) == 3) {
      const auto start = Clock::now();
      while (!DeadlinePassed()) {
        // A safety net for the test itself: a deadline that never comes fails the test, not CI.
        if (SecondsSince(start) > 60.0) throw std::runtime_error("no deadline came");
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    }
    return ToyExperiment::Run(c);
  }
};

// The toy's run on two threads, its config and results in `dir`.
RunOptions ToyRunOptions(const testing::ScratchDir& dir) {
  RunOptions o = testing::ToyRunOptions(dir.path());
  o.threads = 2;
  return o;
}

TEST(CaseTimeout, CaseThatRunsOutOfTimeIsAFailedRowAndTheSweepGoesOn) {
  testing::ScratchDir dir;
  testing::WriteFile(dir / "configs/toy.toml", testing::kToyConfig);
  RunOptions o = ToyRunOptions(dir);
  o.case_timeout_s = 0.2;
  LoopingToy toy;
  const auto start = Clock::now();
  const RunSummary s = RunExperiment(toy, o);
  EXPECT_LT(SecondsSince(start), 10.0);
  EXPECT_EQ(s.cases_run, 30);
  EXPECT_EQ(s.cases_failed, 6);  // x = 3: alpha's 2 stiffnesses x 2 repeats, beta's 2 repeats
  const ResultTable t = ResultTable::ReadCsv(s.csv_path);
  ASSERT_EQ(t.num_rows(), 30);
  for (int r = 0; r < t.num_rows(); ++r) {
    if (t.Text(r, "x") == "3") {
      EXPECT_EQ(t.Text(r, "error"), "the case's wall-clock budget of 0.2 s ran out (--case-timeout)");
      EXPECT_EQ(t.Text(r, "metric"), "");  // the rows it returned are not kept
    } else {
      EXPECT_EQ(t.Text(r, "error"), "");
    }
  }
  // The failures are ordinary failed cases: --retry-failed runs them again.
  o.retry_failed = true;
  o.case_timeout_s = 60.0;
  testing::ToyExperiment quick;
  EXPECT_EQ(RunExperiment(quick, o).cases_run, 6);
}

// A profile whose cases run for hours declares its budget (`case_timeout_s`); --case-timeout,
// when given, holds over it. The budget a run used is in its sidecar.
TEST(CaseTimeout, ProfileDeclaresTheBudgetAndTheFlagHoldsOverIt) {
  testing::ScratchDir dir;
  std::string config = testing::kToyConfig;
  config.replace(config.find("repeats = 2\n"), 12, "repeats = 2\ncase_timeout_s = 0.2\n");
  testing::WriteFile(dir / "configs/toy.toml", config);
  RunOptions o = ToyRunOptions(dir);
  LoopingToy toy;
  RunSummary s = RunExperiment(toy, o);
  EXPECT_EQ(s.cases_failed, 6);  // the profile's 0.2 s, not the default hour
  const ResultTable t = ResultTable::ReadCsv(s.csv_path);
  for (int r = 0; r < t.num_rows(); ++r) {
    if (t.Text(r, "x") == "3") {
      EXPECT_EQ(t.Text(r, "error"), "the case's wall-clock budget of 0.2 s ran out (--case-timeout)");
    }
  }
  EXPECT_NE(testing::ReadFile(s.sidecar_path).find("\"case_timeout_s\": 0.2"), std::string::npos);
  // Given, the flag holds: the looping cases now stop at its 0.4 s.
  o.fresh = true;
  o.case_timeout_s = 0.4;
  o.case_timeout_given = true;
  s = RunExperiment(toy, o);
  const ResultTable again = ResultTable::ReadCsv(s.csv_path);
  for (int r = 0; r < again.num_rows(); ++r) {
    if (again.Text(r, "x") == "3") {
      EXPECT_EQ(again.Text(r, "error"), "the case's wall-clock budget of 0.4 s ran out (--case-timeout)");
    }
  }
  // Out of range in the profile: an error naming the key.
  config.replace(config.find("case_timeout_s = 0.2"), 20, "case_timeout_s = -1.0");
  testing::WriteFile(dir / "configs/toy.toml", config);
  o.case_timeout_given = false;
  try {
    RunExperiment(toy, o);
    ADD_FAILURE() << "a negative case_timeout_s was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("case_timeout_s"), std::string::npos) << e.what();
  }
}

struct RealCase {
  std::string experiment;
  std::vector<std::string> models;
  std::vector<std::string> overrides;
};

// Runs one real case under a budget of `budget_s`; returns the error column of its row(s).
std::string RunOutOfTime(const RealCase& r, double budget_s) {
  testing::ScratchDir dir;
  RunOptions o;
  o.out_dir = dir.path();
  o.config_dir = ::arena::testing::SourceDir() + "/experiments";
  o.progress = false;
  o.threads = 1;
  o.models = r.models;
  o.overrides = r.overrides;
  o.case_timeout_s = budget_s;
  const auto start = Clock::now();
  const RunSummary s = RunExperiment(FindExperiment(r.experiment), o);
  // Cooperative: the case stops at its next step or iteration, well within a second more.
  EXPECT_LT(SecondsSince(start), budget_s + 2.0) << r.experiment;
  EXPECT_EQ(s.cases_total, 1);
  EXPECT_EQ(s.cases_failed, 1);
  const ResultTable t = ResultTable::ReadCsv(s.csv_path);
  EXPECT_EQ(t.num_rows(), 1);
  return t.num_rows() > 0 ? t.Text(0, "error") : "";
}

// A real box drop of 5000 s at 100 Hz (5e5 silico steps, about 10 s) stops at its budget.
TEST(CaseTimeout, LongRealRolloutStopsAtTheBudget) {
  const std::string error =
      RunOutOfTime({"box_drop", {"silico"},
                    {"variants=[\"planar\"]", "frequencies_hz=[100]", "initial_conditions=1", "duration_s=5000",
                     "silico.rho=1e-3"}},
                   0.5);
  EXPECT_EQ(error, "the case's wall-clock budget of 0.5 s ran out (--case-timeout)");
}

// An optimiser with an unreachable threshold and a huge rollout budget stops at the case's
// budget (its trace stops with time_budget).
TEST(CaseTimeout, OptimiserStopsAtTheBudget) {
  const std::string error = RunOutOfTime(
      {"trajopt_compare", {"penalty"},
       {"problems=[\"cartpole\"]", "methods=[\"cem\"]", "thresholds=[1e-300]", "max_rollouts=[1e9]",
        "time_budgets_s=[0]"}},
      0.5);
  EXPECT_TRUE(Contains(error, "the case's wall-clock budget of 0.5 s ran out"));
}

// The example: an iteration cap of 2e9 and a tolerance no solve reaches. Either the
// model's options refuse it before anything runs (bounds on max_iterations), or the budget ends
// the case: it never hangs.
TEST(CaseTimeout, HugeIterationCapWithUnreachableToleranceEndsWithinTheBudget) {
  for (const RealCase& r :
       {RealCase{"box_drop", {"silico"},
                 {"variants=[\"planar\"]", "frequencies_hz=[100]", "initial_conditions=1",
                  "silico.max_iterations=2000000000", "silico.residual_tolerance=1e-300", "silico.rho=1e-3"}},
        RealCase{"box_drop", {"bilevel"},
                 {"variants=[\"planar\"]", "frequencies_hz=[100]", "initial_conditions=1",
                  "bilevel.inner_max_iterations=2000000000", "bilevel.inner_residual_tolerance=1e-300",
                  "bilevel.max_iterations=2000000000", "bilevel.residual_tolerance=1e-300", "bilevel.rho=1e-3"}}}) {
    try {
      const std::string error = RunOutOfTime(r, 1.0);
      EXPECT_TRUE(Contains(error, "the case's wall-clock budget of 1 s ran out")) << r.models[0];
    } catch (const InvalidArgument& e) {
      EXPECT_TRUE(Contains(e.what(), "max_iterations") || Contains(e.what(), "residual_tolerance")) << e.what();
    }
  }
}

}  // namespace case_timeout_test
}  // namespace arena
