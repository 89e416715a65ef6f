// Issue 14, classes 1 and 7: bad sizes and misleading messages. Every registered experiment's
// config is read through range-checked getters, so each bad value below is an error before
// anything runs or is written, on one line, naming the key (or option) and what to give.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/common/error.h"
#include "experiments/registry.h"
#include "harness/runner.h"
#include "tests/harness/toy_experiment.h"
#include "tests/test_paths.h"

namespace arena {
namespace input_validation_test {

namespace fs = std::filesystem;
using testing::Contains;

struct BadInput {
  std::string name;
  std::string experiment;
  std::vector<std::string> models;
  std::vector<std::string> overrides;
  std::vector<std::string> expected;  // parts of the message
  int threads = 0;
  double case_timeout_s = kDefaultCaseTimeout;
  std::int64_t max_cases = kDefaultMaxCases;
};

void PrintTo(const BadInput& bad, std::ostream* os) { *os << bad.name; }

class BadInputTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputTest, IsAnErrorOnOneLineNamingTheKeyAndNothingRuns) {
  const BadInput& bad = GetParam();
  testing::ScratchDir dir;
  RunOptions options;
  options.out_dir = dir.path();
  options.config_dir = ::arena::testing::SourceDir() + "/experiments";
  options.progress = false;
  options.models = bad.models;
  options.overrides = bad.overrides;
  options.threads = bad.threads;
  options.case_timeout_s = bad.case_timeout_s;
  options.max_cases = bad.max_cases;
  try {
    RunExperiment(FindExperiment(bad.experiment), options);
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    for (const std::string& part : bad.expected) EXPECT_TRUE(Contains(e.what(), part));
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
  } catch (const ParseError& e) {
    for (const std::string& part : bad.expected) EXPECT_TRUE(Contains(e.what(), part));
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir / bad.experiment)) << "something was written";
}

const std::vector<std::string> kPenalty = {"penalty"};
const std::vector<std::string> kOneBoxDrop = {"frequencies_hz=[100]", "initial_conditions=1",
                                              "variants=[\"planar\"]"};

std::vector<std::string> With(std::vector<std::string> base, const std::vector<std::string>& more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, BadInputTest,
    ::testing::Values(
        // The steps = -2147483648 row, and its relatives.
        BadInput{"infinite_duration", "box_drop", kPenalty, With(kOneBoxDrop, {"duration_s=inf"}),
                 {"key 'duration_s' (set by --set): inf is out of range; give a finite number > 0"}},
        BadInput{"nan_duration", "stacking", kPenalty, {"duration_s=nan"}, {"'duration_s'", "nan is out of range"}},
        BadInput{"duration_shorter_than_one_step", "box_drop", kPenalty, With(kOneBoxDrop, {"duration_s=0.005"}),
                 {"duration_s 0.005 s at frequencies_hz 100 Hz is less than one step"}},
        BadInput{"steps_overflow", "box_drop", kPenalty, With(kOneBoxDrop, {"duration_s=1e9"}),
                 {"duration_s 1e+09 s at frequencies_hz 100 Hz is 1e+11 steps, more than the 1000000 a case may take"}},
        BadInput{"huge_frequency", "box_drop", kPenalty, {"frequencies_hz=[1e300]"}, {"more than the 1000000"}},
        BadInput{"negative_frequency", "stacking", kPenalty, {"frequencies_hz=[10, -10]"},
                 {"'frequencies_hz'", "entry 2, -10 is out of range"}},
        // initial_conditions=100000000 grew to 4.5 GB before running anything.
        BadInput{"too_many_initial_conditions", "box_drop", kPenalty, {"initial_conditions=100000000"},
                 {"'initial_conditions'", "100000000 is out of range; give an integer between 1 and 1000000"}},
        BadInput{"zero_configurations", "stacking", kPenalty, {"configurations=0"}, {"'configurations'", "between 1 and"}},
        BadInput{"fractional_count", "box_drop", kPenalty, {"initial_conditions=1.5"},
                 {"'initial_conditions'", "expected an integer between 1 and 1000000, got float 1.5"}},
        BadInput{"sweep_too_large", "box_drop", kPenalty, {}, {"would run 480 cases", "more than the 100"}, 0,
                 kDefaultCaseTimeout, 100},
        BadInput{"lcp_box_drop_runs", "lcp_warmstart", {}, {"box_drop_runs=100000000"}, {"'box_drop_runs'"}},
        BadInput{"lcp_duration_below_a_step", "lcp_warmstart", {}, {"duration_s=1e-5"}, {"duration_s 1e-05 s is 0 steps"}},
        BadInput{"jacobian_samples", "jacobians", {"penalty"}, {"samples=0"}, {"'samples'"}},
        BadInput{"jacobian_step", "jacobians", {"penalty"}, {"central_step=inf"}, {"'central_step'", "> 0 and <= 1"}},
        BadInput{"solve_time_steps", "solve_time", {}, {"steps=2e9"}, {"'steps'", "between 1 and 1000000"}},
        BadInput{"solve_time_ics", "solve_time", {}, {"initial_conditions=0"}, {"'initial_conditions'"}},
        BadInput{"drone_iterations", "drone_liftoff", {"penalty"}, {"iterations=-1"}, {"'iterations'"}},
        BadInput{"drone_learning_rate", "drone_liftoff", {"penalty"}, {"learning_rate=nan"}, {"'learning_rate'"}},
        BadInput{"cem_population", "trajopt_compare", {"penalty"}, {"cem_population=1e12"},
                 {"'cem_population'", "1e+12 is out of range; give an integer between 2 and 10000"}},
        BadInput{"max_rollouts", "trajopt_compare", {"penalty"}, {"max_rollouts=[1e300, 1, 1]"}, {"'max_rollouts'"}},
        BadInput{"shot_steps", "trajopt_compare", {"penalty"}, {"ms_shot_steps=0"}, {"'ms_shot_steps'"}},
        BadInput{"snapshot_every", "peg_in_hole", {"silico"}, {"snapshot_every=0"}, {"'snapshot_every'"}},
        BadInput{"too_many_snapshots", "peg_in_hole", {"silico"}, {"steps=1000000", "snapshot_every=1"},
                 {"snapshots (rows) a case may write"}},
        BadInput{"model_integer_option_too_large", "box_drop", {"silico"}, {"silico.max_iterations=1e300"},
                 {"max_iterations", "out of range for an integer"}}),
    [](const ::testing::TestParamInfo<BadInput>& info) { return info.param.name; });

INSTANTIATE_TEST_SUITE_P(
    Messages, BadInputTest,
    ::testing::Values(
        // TOML that does not parse is the parser's error with the key, not "got string".
        BadInput{"unclosed_list", "box_drop", kPenalty, {"frequencies_hz=[10,20"},
                 {"--set frequencies_hz=[10,20: not a valid TOML value", "end-of-file", "lists as [10, 20]"}},
        BadInput{"float_out_of_range", "box_drop", kPenalty, {"duration_s=1e999"},
                 {"--set duration_s=1e999: not a valid TOML value", "'1e999' could not be interpreted"}},
        BadInput{"unclosed_string_list", "box_drop", kPenalty, {"variants=[\"planar\""},
                 {"--set variants=[\"planar\": not a valid TOML value"}},
        BadInput{"empty_value", "box_drop", kPenalty, {"duration_s="}, {"no value after '='"}},
        BadInput{"string_for_a_number", "box_drop", kPenalty, {"duration_s=long"},
                 {"'duration_s'", "expected a number, got string 'long'"}},
        // An empty list would run no case.
        BadInput{"empty_frequencies", "box_drop", kPenalty, {"frequencies_hz=[]"},
                 {"'frequencies_hz'", "the list is empty", "give at least one value"}},
        BadInput{"empty_variants", "stacking", kPenalty, {"variants=[]"}, {"'variants'", "the list is empty"}},
        BadInput{"repeated_frequency", "box_drop", kPenalty, {"frequencies_hz=[10, 10]"}, {"10 is listed twice"}},
        BadInput{"empty_rollouts", "lcp_warmstart", {}, {"rollouts=[]"}, {"'rollouts'", "the list is empty"}},
        BadInput{"every_model_skipped", "box_drop", {"dart"}, {"variants=[\"planar\"]"},
                 {"the sweep has no cases (dart: skipped variant planar"}},
        BadInput{"negative_threads", "box_drop", kPenalty, {}, {"--threads -3 is out of range; give 0 (every core) to 1024"},
                 -3},
        BadInput{"zero_case_timeout", "box_drop", kPenalty, {}, {"--case-timeout 0 is out of range"}, 0, 0.0},
        BadInput{"nan_case_timeout", "box_drop", kPenalty, {}, {"--case-timeout nan is out of range"}, 0,
                 std::nan("")}),
    [](const ::testing::TestParamInfo<BadInput>& info) { return info.param.name; });

// A model sweep list in a config that is empty or repeats a value would run no case of that
// model, or the same cases twice.
TEST(BadConfigFile, EmptyOrRepeatedModelSweepIsAnError) {
  for (const std::string& list : {std::string("[]"), std::string("[1e3, 1e3]")}) {
    testing::ScratchDir dir;
    testing::WriteFile(dir / "configs/box_drop.toml",
                       "[quick]\nmodels = [\"penalty\"]\nvariants = [\"planar\"]\nfrequencies_hz = [100]\n"
                       "initial_conditions = 1\nduration_s = 0.1\n[quick.sweep.penalty]\nstiffness = " +
                           list + "\n");
    RunOptions options;
    options.out_dir = dir / "results";
    options.config_dir = dir / "configs";
    options.progress = false;
    try {
      RunExperiment(FindExperiment("box_drop"), options);
      FAIL() << "no error for " << list;
    } catch (const ParseError& e) {
      EXPECT_TRUE(Contains(e.what(), "[quick.sweep.penalty] stiffness"));
      EXPECT_TRUE(Contains(e.what(), list == "[]" ? "the list is empty" : "1000 is listed twice"));
    }
  }
}

}  // namespace input_validation_test
}  // namespace arena
