// potential_cost (seed 003 Figs. 7-8): the sweep's sizes, methods, shared hull pairs and input
// checks; one sdrs and one ipc case end to end; the claims and slopes it summarizes. Its quick
// profile is checked against the committed reference with every experiment's
// (quick_profiles_test.cc).
#include "experiments/potential_cost/potential_cost.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "experiments/result_table.h"
#include "core/common/error.h"
#include "tests/experiments/experiment_test_config.h"

namespace arena {
namespace potential_cost_test {

using ::testing::HasSubstr;
using testing_config::CasesById;
using testing_config::NumberParam;
using testing_config::InvalidArgumentMessage;
using testing_config::QuickConfig;

const char* kConfig =
    "models = [\"sdrs\", \"ipc\"]\n"
    "vertices = [10, 20, 40]\n"
    "hulls_per_size = 2\n"
    "radius_m = 0.2\n"
    "gap_m = 0.02\n"
    "activation_distance_m = 0.1\n"
    "eval_repeats = 2\n"
    "all_pairs_eval_repeats = 1\n"
    "all_pairs_max_vertices = 20\n";

Sweep Expand(const std::string& body, const std::vector<std::string>& models = {"sdrs", "ipc"}) {
  return PotentialCostExperiment().Expand(QuickConfig("potential_cost", body), models);
}

std::string Replaced(std::string body, const std::string& from, const std::string& to) {
  body.replace(body.find(from), from.size(), to);
  return body;
}

// Per size and hull pair: sdrs, ipc at dhat = x0, and ipc with every pair up to its cap; the
// methods of one pair share its seed; the activation distance sets x0 and dhat.
TEST(PotentialCost, ExpandsSizesPairsAndMethods) {
  const Sweep sweep = Expand(kConfig);
  const auto cases = CasesById(sweep);
  ASSERT_EQ(sweep.cases.size(), 16u);  // 3 sizes x 2 pairs x (sdrs, ipc) + all pairs at 10 and 20
  ASSERT_TRUE(cases.count("ipc/ipc_all_pairs/V=20/hull=1"));
  EXPECT_FALSE(cases.count("ipc/ipc_all_pairs/V=40/hull=0"));
  const Case& s = *cases.at("sdrs/sdrs/V=40/hull=1");
  EXPECT_EQ(NumberParam(s, "hull_seed"), NumberParam(*cases.at("ipc/ipc/V=40/hull=1"), "hull_seed"));
  EXPECT_NE(NumberParam(s, "hull_seed"), NumberParam(*cases.at("sdrs/sdrs/V=40/hull=0"), "hull_seed"));
  EXPECT_EQ(NumberParam(s, "triangles"), 76);
  EXPECT_EQ(s.model_options.at("x0"), "0.1");
  EXPECT_EQ(cases.at("ipc/ipc/V=10/hull=0")->model_options.at("dhat"), "0.1");
  EXPECT_NEAR(std::stod(cases.at("ipc/ipc_all_pairs/V=10/hull=0")->model_options.at("dhat")), 0.84, 1e-12);
  EXPECT_EQ(NumberParam(*cases.at("ipc/ipc_all_pairs/V=10/hull=0"), "eval_repeats"), 1);
  EXPECT_EQ(NumberParam(s, "eval_repeats"), 2);
}

TEST(PotentialCost, RejectsBadInputNamingTheKey) {
  auto message = [](const std::string& body) { return InvalidArgumentMessage([&] { Expand(body); }); };
  EXPECT_THAT(message(Replaced(kConfig, "[10, 20, 40]", "[10, 3]")), HasSubstr("vertices"));
  EXPECT_THAT(message(Replaced(kConfig, "[10, 20, 40]", "[10, 10]")), HasSubstr("listed twice"));
  EXPECT_THAT(message(Replaced(kConfig, "gap_m = 0.02", "gap_m = 0.2")), HasSubstr("activation_distance_m"));
  EXPECT_THAT(message(Replaced(kConfig, "radius_m = 0.2", "radius_m = 0.5")), HasSubstr("radius_m"));
  EXPECT_THAT(message(Replaced(kConfig, "hulls_per_size = 2", "hulls_per_size = 0")), HasSubstr("hulls_per_size"));
  EXPECT_THAT(message(std::string(kConfig) + "[quick.options.sdrs]\nx0 = 0.05\n"), HasSubstr("x0"));
  EXPECT_THAT(message(std::string(kConfig) + "[quick.options.ipc]\ndhat = 0.05\n"), HasSubstr("dhat"));
  // Without ipc_all_pairs a larger radius is fine.
  EXPECT_NO_THROW(Expand(Replaced(Replaced(kConfig, "radius_m = 0.2", "radius_m = 0.5"), "all_pairs_max_vertices = 20",
                                  "all_pairs_max_vertices = 0")));
}

// A model without a contact potential of its own is skipped with a note, not run.
TEST(PotentialCost, SkipsModelsWithoutAPotential) {
  const Sweep sweep = Expand(kConfig, {"sdrs", "penalty"});
  EXPECT_EQ(sweep.cases.size(), 6u);
  ASSERT_FALSE(sweep.notes.empty());
  EXPECT_THAT(sweep.notes.front(), HasSubstr("penalty: skipped"));
}

// One pair, three methods: positive finite potentials, terms counted, ipc's every-pair count
// exact (point-triangle pairs both ways plus edge pairs of two 10-vertex hulls: 2 * 10 * 16 + 24^2).
TEST(PotentialCost, RunsOnePairWithEveryMethod) {
  const Sweep sweep = Expand(kConfig);
  const auto cases = CasesById(sweep);
  std::map<std::string, Row> rows;
  for (const std::string method : {"sdrs/sdrs", "ipc/ipc", "ipc/ipc_all_pairs"}) {
    const std::vector<Row> r = PotentialCostExperiment().Run(*cases.at(method + "/V=10/hull=0"));
    ASSERT_EQ(r.size(), 1u);
    rows[method] = r[0];
    EXPECT_FALSE(std::get<bool>(r[0].at("failed"))) << method << ": " << std::get<std::string>(r[0].at("failure"));
    EXPECT_GT(std::get<double>(r[0].at("potential")), 0.0) << method;
    EXPECT_GT(std::get<double>(r[0].at("eval_s")), 0.0) << method;
    EXPECT_GE(std::get<double>(r[0].at("terms")), 1.0) << method;
  }
  EXPECT_EQ(std::get<double>(rows["ipc/ipc_all_pairs"].at("terms")), 2 * 10 * 16 + 24 * 24);
  EXPECT_LT(std::get<double>(rows["ipc/ipc"].at("terms")), std::get<double>(rows["ipc/ipc_all_pairs"].at("terms")));
  EXPECT_LE(std::get<double>(rows["sdrs/sdrs"].at("terms")), 20.0);  // at most every vertex of both hulls
}

// The claims from a table: the ratio at the largest size sdrs and ipc share (medians over the
// pairs, failed rows out), the slopes of power laws.
TEST(PotentialCost, SummarizesSpeedupAndSlopes) {
  const ResultTable t = ResultTable::ParseCsv(
      "method,vertices,hull,eval_first_s,eval_s,terms,failed\n"
      "sdrs,10,0,1e-5,4e-6,5,false\nsdrs,10,1,3e-5,6e-6,7,false\n"
      "sdrs,100,0,1e-4,4e-5,50,false\nsdrs,100,1,9,9,50,true\n"
      "ipc,10,0,,1e-3,10,false\nipc,100,0,,1e-1,1000,false\n"
      "ipc_all_pairs,10,0,,1e-2,100,false\nipc_all_pairs,100,0,,1e1,100000,false\n",
      "table");
  std::map<std::string, ClaimResult> claims;
  for (const ClaimResult& c : PotentialCostExperiment().Summarize(t)) claims[c.id] = c;
  ASSERT_EQ(claims.size(), 2u);
  EXPECT_DOUBLE_EQ(claims.at("potential_cost.speedup").ours, 1e-1 / 1e-4);
  EXPECT_DOUBLE_EQ(claims.at("potential_cost.speedup").values.at("warm_speedup"), 1e-1 / 4e-5);
  EXPECT_DOUBLE_EQ(claims.at("potential_cost.speedup").values.at("all_pairs_speedup"), 1e1 / 1e-4);
  // sdrs cold: median of (1e-5, 3e-5) = 2e-5 at 10, 1e-4 at 100 (the failed row out).
  EXPECT_NEAR(claims.at("potential_cost.scaling").ours, std::log10(5.0), 1e-12);
  EXPECT_NEAR(claims.at("potential_cost.scaling").values.at("ipc_exponent"), 3.0, 1e-12);
  EXPECT_NEAR(claims.at("potential_cost.scaling").values.at("ipc_dhat_exponent"), 2.0, 1e-12);
  // Without the every-pair series there is no worst case to read the scaling claim from.
  const ResultTable no_all = ResultTable::ParseCsv(
      "method,vertices,hull,eval_first_s,eval_s,terms,failed\n"
      "sdrs,10,0,1e-5,4e-6,5,false\nsdrs,100,0,1e-4,4e-5,50,false\n"
      "ipc,10,0,,1e-3,10,false\nipc,100,0,,1e-1,1000,false\n",
      "table");
  const std::vector<ClaimResult> fewer = PotentialCostExperiment().Summarize(no_all);
  ASSERT_EQ(fewer.size(), 1u);
  EXPECT_EQ(fewer[0].id, "potential_cost.speedup");
  EXPECT_EQ(PotentialCostExperiment().Observe(t).size(), 6u);
}

}  // namespace potential_cost_test
}  // namespace arena
