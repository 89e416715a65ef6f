// stacking (seed 000 Fig. 10): the barrier models' start gaps and their spatial-only sweep, and
// short runs: a barrier tower started where its blocks rest stands apart, started touching its
// model refuses the first step (why the gap exists). Its quick profile is checked against the
// committed reference with every experiment's (quick_profiles_test.cc).
#include "experiments/stacking/stacking.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "core/common/error.h"
#include "models/registry.h"
#include "tests/experiments/experiment_test_config.h"

namespace arena {
namespace stacking_test {

using ::testing::HasSubstr;

std::string Param(const Case& c, const std::string& name) {
  for (const auto& [k, v] : c.params) {
    if (k == name) return ToText(v);
  }
  return "";
}

double Gap(const Case& c) {
  for (const auto& [k, v] : c.params) {
    if (k == "initial_gap_m") return std::get<double>(v);
  }
  return -1.0;
}

ProfileConfig Config(const std::string& extra = "") {
  return testing_config::QuickConfig("stacking",
                                     "variants = [\"planar\", \"spatial\"]\nfrequencies_hz = [30]\nconfigurations = 2\n"
                                     "duration_s = 0.5\n[quick.sweep.longrange]\nmu = [1e-6, 1e-8]\n"
                                     "[quick.sweep.ipc]\ndhat = [1e-3, 1e-4]\n[quick.sweep.sdrs]\nkappa = [1e-2, 1e-4]\n" +
                                         extra);
}

// silico starts touching (the paper's towers); longrange where its blocks rest, sqrt(48 mu / m g);
// ipc at 0.8 dhat; sdrs where its separating-plane potential carries the upper block. The barrier
// models skip the planar variant with the reason.
TEST(Stacking, BarrierModelsStartWhereTheirBlocksRest) {
  const Sweep sweep = StackingExperiment().Expand(Config("[quick.grid.longrange]\nconfigurations = 1\n"),
                                                  {"silico", "longrange", "ipc", "sdrs"});
  const std::string notes = ::testing::PrintToString(sweep.notes);
  EXPECT_THAT(notes, HasSubstr("longrange: skipped variant planar (planar (2D) scenes are not supported)"));
  EXPECT_THAT(notes, HasSubstr("ipc: skipped variant planar (planar (2D) scenes are not supported)"));
  EXPECT_THAT(notes, HasSubstr("sdrs: skipped variant planar (planar (2D) scenes are not supported)"));
  std::map<std::string, std::set<std::string>> configs;
  for (const Case& c : sweep.cases) {
    configs[c.model].insert(Param(c, "config"));
    if (c.model == "silico") {
      EXPECT_EQ(Gap(c), 0.0) << c.id;
      continue;
    }
    const double value = std::stod(Param(c, "param_value"));
    if (c.model == "longrange") {
      EXPECT_EQ(Param(c, "variant"), "spatial");
      EXPECT_NEAR(Gap(c), std::sqrt(48.0 * value / 9.81), 1e-15) << c.id;
    } else if (c.model == "sdrs") {
      EXPECT_EQ(Param(c, "variant"), "spatial");
      // sdrs::RestingGap (tests/models/sdrs), reached through the registry entry.
      EXPECT_DOUBLE_EQ(Gap(c), FindModel("sdrs").stacking_gap({{"kappa", Param(c, "param_value")}}, 9.81)) << c.id;
      EXPECT_GT(Gap(c), 0.0) << c.id;
    } else {
      EXPECT_EQ(Param(c, "variant"), "spatial");
      EXPECT_NEAR(Gap(c), 0.8 * value, 1e-18) << c.id;
    }
  }
  EXPECT_EQ(configs["longrange"], (std::set<std::string>{"0"}));
  EXPECT_EQ(configs["ipc"], (std::set<std::string>{"0", "1"}));
  EXPECT_EQ(configs["sdrs"], (std::set<std::string>{"0", "1"}));
}

// A start gap of half a block or more (a huge mu or dhat) is refused before anything runs.
TEST(Stacking, RejectsAStartGapOfHalfABlock) {
  try {
    StackingExperiment().Expand(testing_config::QuickConfig("stacking",
                                                            "variants = [\"spatial\"]\nfrequencies_hz = [30]\n"
                                                            "configurations = 1\nduration_s = 0.5\n"
                                                            "[quick.sweep.ipc]\ndhat = [1e-3, 0.5]\n"),
                                {"ipc"});
    FAIL() << "a 0.4 m start gap was accepted";
  } catch (const InvalidArgument& error) {
    EXPECT_THAT(error.what(), HasSubstr("dhat"));
    EXPECT_THAT(error.what(), HasSubstr("0.4 m apart"));
  }
}

// ipc's tower stands half a second apart, every distance above 0; started touching, the model
// refuses the first step (a barrier is infinite at contact) and the row says so.
TEST(Stacking, BarrierTowerStandsApartAndCannotStartTouching) {
  const StackingExperiment e;
  const Sweep sweep = e.Expand(Config(), {"ipc"});
  ASSERT_FALSE(sweep.cases.empty());
  Case c = sweep.cases.front();
  const Row row = e.Run(c).at(0);
  EXPECT_EQ(std::get<bool>(row.at("failed")), false) << ToText(row.at("failure"));
  EXPECT_EQ(std::get<bool>(row.at("stands")), true);
  EXPECT_GT(std::get<double>(row.at("min_distance_m")), 0.0);
  EXPECT_LT(std::get<double>(row.at("min_distance_m")), Gap(c));
  EXPECT_LT(std::get<double>(row.at("max_drift_m")), 1e-3);

  for (auto& [k, v] : c.params) {
    if (k == "initial_gap_m") v = 0.0;
  }
  const Row touching = e.Run(c).at(0);
  EXPECT_EQ(std::get<bool>(touching.at("failed")), true);
  EXPECT_THAT(ToText(touching.at("failure")), HasSubstr("infeasible"));
  EXPECT_EQ(std::get<std::int64_t>(touching.at("steps_done")), 0);
}

// sdrs's tower, started where its blocks rest, stands half a second without touching at both of
// the authors' kappas.
TEST(Stacking, SdrsTowerStandsApart) {
  const StackingExperiment e;
  for (const Case& c : e.Expand(Config(), {"sdrs"}).cases) {
    if (Param(c, "config") != "0") continue;
    const Row row = e.Run(c).at(0);
    EXPECT_EQ(std::get<bool>(row.at("failed")), false) << c.id << ": " << ToText(row.at("failure"));
    EXPECT_EQ(std::get<bool>(row.at("stands")), true) << c.id;
    EXPECT_GT(std::get<double>(row.at("min_distance_m")), 0.0) << c.id;
  }
}

}  // namespace stacking_test
}  // namespace arena
