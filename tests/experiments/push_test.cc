// push (seed 004 Fig. 7): the sweep and its config errors, the rod's first windows from rest
// (ipc: zero gradient, the rod never moves; longrange: it moves), the early stop at the target,
// and the claim from a hand-made table.
#include "experiments/push.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "config/result_table.h"
#include "core/common/error.h"
#include "harness/report.h"
#include "tests/experiments/experiment_test_config.h"

namespace arena {
namespace {

using ::testing::HasSubstr;

std::string Body(int steps, int window, int iterations, const std::string& target = "[2.0, 0.0]",
                 double tolerance = 0.15) {
  return "timestep_s = 0.04\nsteps = " + std::to_string(steps) + "\nwindow = " + std::to_string(window) +
         "\niterations = " + std::to_string(iterations) +
         "\nlearning_rate = 1e-2\nadam_beta1 = 0.3\nadam_beta2 = 0.5\ntarget_tolerance_m = " +
         std::to_string(tolerance) + "\ntarget_m = " + target + "\n[quick.options.longrange]\nmu = 1e-6\n";
}

ProfileConfig Config(const std::string& body) { return testing_config::QuickConfig("push", body); }

TEST(Push, ExpandsOneCasePerModel) {
  const Sweep sweep = PushExperiment().Expand(Config(Body(3, 4, 2)), {"longrange", "ipc", "bilevel"});
  ASSERT_EQ(sweep.cases.size(), 2u);
  EXPECT_EQ(sweep.cases[0].id, "longrange");
  EXPECT_EQ(sweep.cases[0].model_options.at("mu"), "1e-06");
  EXPECT_EQ(sweep.cases[1].model_options.at("timestep"), "0.04");
  EXPECT_THAT(::testing::PrintToString(sweep.notes), HasSubstr("bilevel: skipped"));
}

TEST(Push, RejectsBadConfigNamingTheKey) {
  auto error = [](const std::string& body) -> std::string {
    try {
      PushExperiment().Expand(Config(body), {"ipc"});
    } catch (const InvalidArgument& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_THAT(error(Body(3, 4, 2, "[2.0]")), HasSubstr("push.toml: key target_m needs 2 numbers"));
  EXPECT_THAT(error(Body(3, 0, 2)), HasSubstr("window"));
}

double Number(const Row& row, const char* key) { return std::get<double>(row.at(key)); }

// From rest the rod is 0.7 m from the cube: ipc's windows have no gradient, so Adam keeps the
// zero plan and the rod stays exactly where it was; longrange's first window already moves it.
TEST(Push, OnlyLongrangeMovesTheRodFromRest) {
  const PushExperiment e;
  const Sweep sweep = e.Expand(Config(Body(2, 2, 1)), {"ipc", "longrange"});
  const std::vector<Row> ipc = e.Run(sweep.cases[0]);
  ASSERT_EQ(ipc.size(), 2u);
  for (const Row& r : ipc) {
    EXPECT_EQ(Number(r, "rod_x_m"), 0.7);
    EXPECT_EQ(Number(r, "rod_y_m"), 0.1);
  }
  EXPECT_FALSE(std::get<bool>(ipc.back().at("reached")));
  EXPECT_FALSE(std::get<bool>(ipc.back().at("went_around")));
  const std::vector<Row> longrange = e.Run(sweep.cases[1]);
  ASSERT_EQ(longrange.size(), 2u);
  EXPECT_NE(Number(longrange[0], "rod_x_m"), 0.7);
}

// A tolerance the cube already meets: the run stops after its first real step.
TEST(Push, StopsOnceTheCubeIsThere) {
  const PushExperiment e;
  const Sweep sweep = e.Expand(Config(Body(5, 2, 1, "[0.0, 0.0]", 0.1)), {"ipc"});
  const std::vector<Row> rows = e.Run(sweep.cases[0]);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(std::get<bool>(rows[0].at("reached")));
  EXPECT_DOUBLE_EQ(Number(rows[0], "reached_at_s"), 0.04);
}

bool Reproduced(const ClaimResult& r) {
  for (const Claim& c : LoadClaims(std::string(ARENA_SOURCE_DIR) + "/experiments/claims.toml")) {
    if (c.id == r.id) return c.criterion->Evaluate(r.ours, r.values).met;
  }
  ADD_FAILURE() << r.id << " is not in claims.toml";
  return false;
}

ResultTable Table(const std::string& ipc_reached) {
  const std::vector<std::string> columns = {"model", "step", "window", "reached", "reached_at_s", "went_around",
                                             "min_box_distance_m"};
  return ResultTable(columns, {{"longrange", "0", "48", "", "", "", ""},
                               {"longrange", "1", "48", "true", "3.2", "true", "0.1"},
                               {"ipc", "0", "48", "", "", "", ""},
                               {"ipc", "1", "48", ipc_reached, "", "false", "2"}});
}

TEST(Push, SummarizeCountsWhoReachedTheTarget) {
  const PushExperiment e;
  std::vector<ClaimResult> claims = e.Summarize(Table("false"));
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(claims[0].ours, 1.0);
  EXPECT_EQ(claims[0].values.at("other_models_reached"), 0.0);
  EXPECT_TRUE(Reproduced(claims[0]));
  EXPECT_THAT(claims[0].note, HasSubstr("longrange: reached at 3.2 s"));
  EXPECT_THAT(claims[0].note, HasSubstr("ipc: not reached, closest 2 m, rod never behind the cube"));
  claims = e.Summarize(Table("true"));
  EXPECT_FALSE(Reproduced(claims[0]));
  EXPECT_EQ(e.Observe(Table("false")).size(), 2u);
}

}  // namespace
}  // namespace arena
