// chain_cost (seed 003 Fig. 9, Table II): the sweep's sizes, ipc's cap and input checks; one sdrs
// case whose breakdown adds up; the claims from a table. Its quick profile is checked against
// the committed reference with every experiment's (quick_profiles_test.cc).
#include "experiments/chain_cost/chain_cost.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "experiments/result_table.h"
#include "core/common/error.h"
#include "tests/experiments/experiment_test_config.h"

namespace arena {
namespace chain_cost_test {

using ::testing::HasSubstr;
using testing_config::InvalidArgumentMessage;
using testing_config::QuickConfig;

const char* kConfig =
    "models = [\"sdrs\", \"ipc\"]\n"
    "links = [1, 3]\n"
    "steps = 2\n"
    "timestep_s = 0.033\n"
    "cap_points = 8\n"
    "derivatives_max_links = 3\n"
    "ipc_max_links = 1\n";

Sweep Expand(const std::string& body, const std::vector<std::string>& models = {"sdrs", "ipc"}) {
  return ChainCostExperiment().Expand(QuickConfig("chain_cost", body), models);
}

std::string Replaced(std::string body, const std::string& from, const std::string& to) {
  body.replace(body.find(from), from.size(), to);
  return body;
}

TEST(ChainCost, ExpandsSizesAndCapsIpc) {
  const Sweep sweep = Expand(kConfig);
  ASSERT_EQ(sweep.cases.size(), 3u);  // sdrs at 1 and 3 links, ipc at 1
  EXPECT_EQ(sweep.cases[0].id, "sdrs/links=1");
  EXPECT_EQ(sweep.cases[1].id, "ipc/links=1");
  EXPECT_EQ(sweep.cases[2].id, "sdrs/links=3");
  EXPECT_EQ(sweep.cases[2].model_options.at("timestep"), "0.033");
  ASSERT_FALSE(sweep.notes.empty());
  EXPECT_THAT(sweep.notes.back(), HasSubstr("ipc_max_links"));
  // A model that is not an incremental-potential one has no breakdown to give.
  const Sweep other = Expand(kConfig, {"sdrs", "penalty"});
  EXPECT_EQ(other.cases.size(), 2u);
  EXPECT_THAT(other.notes.front(), HasSubstr("penalty: skipped"));
}

TEST(ChainCost, RejectsBadInputNamingTheKey) {
  auto message = [](const std::string& body) { return InvalidArgumentMessage([&] { Expand(body); }); };
  EXPECT_THAT(message(Replaced(kConfig, "links = [1, 3]", "links = [0]")), HasSubstr("links"));
  EXPECT_THAT(message(Replaced(kConfig, "links = [1, 3]", "links = [3, 3]")), HasSubstr("listed twice"));
  EXPECT_THAT(message(Replaced(kConfig, "steps = 2", "steps = 0")), HasSubstr("steps"));
  EXPECT_THAT(message(Replaced(kConfig, "timestep_s = 0.033", "timestep_s = -1")), HasSubstr("timestep_s"));
  EXPECT_THAT(message(std::string(kConfig) + "[quick.options.sdrs]\ntimestep = 0.01\n"), HasSubstr("timestep"));
}

// Three links a chain: the links two apart start 2 cm from touching and stay apart; the parts of
// a step with its derivatives add up to it.
TEST(ChainCost, RunsOneCaseWhoseBreakdownAddsUp) {
  const Sweep sweep = Expand(kConfig, {"sdrs"});
  const std::vector<Row> rows = ChainCostExperiment().Run(sweep.cases.back());
  ASSERT_EQ(rows.size(), 1u);
  const Row& r = rows[0];
  ASSERT_FALSE(std::get<bool>(r.at("failed"))) << std::get<std::string>(r.at("failure"));
  EXPECT_EQ(std::get<std::int64_t>(r.at("steps")), 2);
  double sum = 0.0;
  for (const char* part : {"potential_fraction", "step_bound_fraction", "newton_fraction", "other_fraction", "backward_fraction"}) {
    const double v = std::get<double>(r.at(part));
    EXPECT_GE(v, 0.0) << part;
    sum += v;
  }
  EXPECT_NEAR(sum, 1.0, 1e-9);
  EXPECT_GT(std::get<double>(r.at("contact_s")), 0.0);
  EXPECT_GT(std::get<double>(r.at("min_distance_m")), 0.0);
  EXPECT_LE(std::get<double>(r.at("min_distance_m")), 0.0201);
}

TEST(ChainCost, SummarizesSlopeAndBackwardShare) {
  const ResultTable t = ResultTable::ParseCsv(
      "model,dof,step_s,total_s,backward_fraction,potential_fraction,newton_fraction,failed\n"
      "sdrs,21,0.001,0.002,0.5,0.2,0.01,false\n"
      "sdrs,173,0.008,0.016,0.3,0.5,0.02,false\n"
      "sdrs,333,1,1,0.9,0.1,0.0,true\n"
      "ipc,21,0.01,0.02,0.1,0.8,0.01,false\n",
      "table");
  std::map<std::string, ClaimResult> claims;
  for (const ClaimResult& c : ChainCostExperiment().Summarize(t)) claims[c.id] = c;
  ASSERT_EQ(claims.size(), 2u);
  EXPECT_NEAR(claims.at("chain_cost.linearity").ours, std::log(8.0) / std::log(173.0 / 21.0), 1e-12);
  EXPECT_DOUBLE_EQ(claims.at("chain_cost.backward_fraction").ours, 0.3);
  EXPECT_DOUBLE_EQ(claims.at("chain_cost.backward_fraction").values.at("dof"), 173.0);
  EXPECT_DOUBLE_EQ(claims.at("chain_cost.backward_fraction").values.at("potential_fraction"), 0.5);
}

}  // namespace chain_cost_test
}  // namespace arena
