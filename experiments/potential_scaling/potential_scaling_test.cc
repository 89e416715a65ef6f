// potential_scaling (seed 004 Fig. 6, App. A.6.5): the sweep's sizes, methods, caps and input
// checks; one case end to end; the potential timed on its own; the log-log fit and the claims it
// summarizes. Its quick profile is checked against the committed reference with every
// experiment's (quick_profiles_test.cc).
#include "experiments/potential_scaling/potential_scaling.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "experiments/result_table.h"
#include "core/common/error.h"
#include "experiments/common/summaries/loglog_fit.h"
#include "experiments/common/meters/potential_timing.h"
#include "models/registry.h"
#include "scenes/scene_registry.h"
#include "tests/experiments/experiment_test_config.h"

namespace arena {
namespace potential_scaling_test {

using ::testing::HasSubstr;
using testing_config::CasesById;
using testing_config::NumberParam;
using testing_config::QuickConfig;

const char* kConfig =
    "models = [\"longrange\", \"ipc\"]\n"
    "vertices_per_ball = [18, 36, 196]\n"
    "eval_repeats = 2\n"
    "step_repeats = 1\n"
    "step_max_triangles = 1088\n"
    "brute_force_max_triangles = 1088\n"
    "brute_force_step_max_triangles = 512\n"
    "cue_speed_mps = 2.0\n"
    "ground_gap_m = [0.105]\n";

// 16 (2V - 4) ball triangles; three methods per size, brute force and the steps capped.
TEST(PotentialScaling, ExpandsSizesMethodsAndCaps) {
  const PotentialScalingExperiment e;
  const Sweep sweep = e.Expand(QuickConfig("potential_scaling", kConfig), {"longrange", "ipc"});
  const auto cases = CasesById(sweep);
  ASSERT_EQ(sweep.cases.size(), 8u);  // 3 sizes x (bsh, ipc) + brute at 512 and 1088
  ASSERT_TRUE(cases.count("longrange/brute/V=36/gap=0.105"));
  EXPECT_FALSE(cases.count("longrange/brute/V=196/gap=0.105"));
  EXPECT_EQ(NumberParam(*cases.at("longrange/bsh/V=18/gap=0.105"), "triangles"), 512);
  EXPECT_EQ(NumberParam(*cases.at("longrange/bsh/V=196/gap=0.105"), "triangles"), 6208);
  EXPECT_EQ(cases.at("longrange/brute/V=18/gap=0.105")->model_options.at("brute_force"), "true");
  EXPECT_EQ(cases.at("longrange/bsh/V=18/gap=0.105")->model_options.at("brute_force"), "false");
  EXPECT_EQ(cases.at("ipc/ipc/V=36/gap=0.105")->model_options.at("sphere_vertices"), "36");
  EXPECT_EQ(NumberParam(*cases.at("longrange/bsh/V=36/gap=0.105"), "step_repeats"), 1);
  EXPECT_EQ(NumberParam(*cases.at("longrange/brute/V=36/gap=0.105"), "step_repeats"), 0);  // brute step cap 512
  EXPECT_EQ(NumberParam(*cases.at("ipc/ipc/V=196/gap=0.105"), "step_repeats"), 0);         // step cap 1088
  EXPECT_EQ(NumberParam(*cases.at("ipc/ipc/V=196/gap=0.105"), "ground_gap_m"), 0.105);
}

// A second ground gap repeats every case at it; the balls' meshes sit that far above the ground
// (their lowest vertices, not their spheres'): 0.5 mm is inside ipc's dhat = 1 mm, so ipc's
// potential is positive there and zero at the authors' 0.105 m.
TEST(PotentialScaling, PlacesTheMeshesAtEachGroundGap) {
  const PotentialScalingExperiment e;
  std::string body = kConfig;
  body.replace(body.find("[0.105]"), 7, "[0.105, 5e-4]");
  const Sweep sweep = e.Expand(QuickConfig("potential_scaling", body), {"ipc"});
  ASSERT_EQ(sweep.cases.size(), 6u);
  const auto cases = CasesById(sweep);
  ASSERT_TRUE(cases.count("ipc/ipc/V=18/gap=0.105"));
  ASSERT_TRUE(cases.count("ipc/ipc/V=18/gap=5e-04"));
  const double far = std::get<double>(e.Run(*cases.at("ipc/ipc/V=18/gap=0.105"))[0].at("potential"));
  const double near = std::get<double>(e.Run(*cases.at("ipc/ipc/V=18/gap=5e-04"))[0].at("potential"));
  EXPECT_EQ(far, 0.0);
  EXPECT_GT(near, 0.0);
  body.replace(body.find("[0.105, 5e-4]"), 13, "[0.0]");
  EXPECT_THROW(e.Expand(QuickConfig("potential_scaling", body), {"ipc"}), InvalidArgument);
}

TEST(PotentialScaling, RejectsOutOfRangeCountsAndControlledOptions) {
  const PotentialScalingExperiment e;
  auto expand = [&](const std::string& from, const std::string& to) {
    std::string body = kConfig;
    body.replace(body.find(from), from.size(), to);
    return e.Expand(QuickConfig("potential_scaling", body), {"longrange", "ipc"});
  };
  EXPECT_THROW(expand("[18, 36, 196]", "[18, 5]"), InvalidArgument);
  EXPECT_THROW(expand("[18, 36, 196]", "[18, 501]"), InvalidArgument);
  EXPECT_THROW(expand("eval_repeats = 2", "eval_repeats = 0"), InvalidArgument);
  EXPECT_THROW(expand("step_repeats = 1", "step_repeats = -1"), InvalidArgument);
  EXPECT_THROW(expand("cue_speed_mps = 2.0", "cue_speed_mps = -1.0"), InvalidArgument);
  EXPECT_THROW(expand("ground_gap_m = [0.105]", "ground_gap_m = [2.0]"), InvalidArgument);
  try {
    expand("ground_gap_m = [0.105]\n", "ground_gap_m = [0.105]\n[quick.options.longrange]\nsphere_vertices = 50\n");
    FAIL() << "sphere_vertices is the experiment's axis";
  } catch (const InvalidArgument& ex) {
    EXPECT_THAT(ex.what(), HasSubstr("sphere_vertices"));
  }
}

// One BSH case: finite potential, timings, a step with Newton iterations and no failure.
TEST(PotentialScaling, RunsOneCase) {
  const PotentialScalingExperiment e;
  const Sweep sweep = e.Expand(QuickConfig("potential_scaling", kConfig), {"longrange"});
  const std::vector<Row> rows = e.Run(*CasesById(sweep).at("longrange/bsh/V=18/gap=0.105"));
  ASSERT_EQ(rows.size(), 1u);
  const Row& r = rows[0];
  EXPECT_GT(std::get<double>(r.at("potential")), 0.0);
  EXPECT_GT(std::get<double>(r.at("eval_s")), 0.0);
  EXPECT_GT(std::get<double>(r.at("step_s")), 0.0);
  EXPECT_GE(std::get<std::int64_t>(r.at("newton_iterations")), 1);
  EXPECT_FALSE(std::get<bool>(r.at("failed"))) << std::get<std::string>(r.at("failure"));
}

// The potential alone: the hierarchy's and brute force's are finite and positive at the rack
// (a global barrier: every pair counts), IPC's is 0 (no pair within dhat = 1 mm there).
TEST(PotentialScaling, TimesThePotentialAlone) {
  const auto scene = MakeScene("billiards");
  const State s = DefaultState(*scene);
  for (const std::string brute : {"false", "true"}) {
    auto sim = MakeSimulator("longrange", scene, {{"sphere_vertices", "18"}, {"brute_force", brute}});
    const PotentialTiming t = TimeContactPotential(*sim, s, 2);
    EXPECT_GT(t.value, 0.0) << brute;
    EXPECT_TRUE(std::isfinite(t.value)) << brute;
    EXPECT_GT(t.checksum, 0.0) << brute;
    EXPECT_LE(t.median_s, std::max(t.first_s, t.median_s));
  }
  auto ipc = MakeSimulator("ipc", scene, {{"sphere_vertices", "18"}});
  EXPECT_EQ(TimeContactPotential(*ipc, s, 1).value, 0.0);
  EXPECT_THROW(TimeContactPotential(*ipc, s, 0), InvalidArgument);
}

TEST(LogLogSlope, RecoversAPowerLawAndSkipsInvalidPoints) {
  EXPECT_NEAR(LogLogSlope({512, 1088, 6208}, {0.1 * std::pow(512, 0.7), 0.1 * std::pow(1088, 0.7), 0.1 * std::pow(6208, 0.7)}),
              0.7, 1e-12);
  EXPECT_NEAR(LogLogSlope({1, 2, 4, 8}, {1, 4, NAN, 64}), 2.0, 1e-12);
  EXPECT_TRUE(std::isnan(LogLogSlope({1, 2}, {1, 0})));
  EXPECT_TRUE(std::isnan(LogLogSlope({3, 3}, {1, 2})));
}

// The claims from a table: the ratio at the largest size both ran, the slope over every size.
TEST(PotentialScaling, SummarizesRatioSlopeAndIpcFrame) {
  const ResultTable t = ResultTable::ParseCsv(
      "method,triangles,eval_s,step_s\n"
      "bsh,512,0.01,0.1\nbrute,512,0.1,\nipc,512,0.001,0.002\n"
      "bsh,6208,0.05,\nbrute,6208,10,\nipc,6208,0.002,0.004\n",
      "table");
  std::map<std::string, ClaimResult> claims;
  for (const ClaimResult& c : PotentialScalingExperiment().Summarize(t)) claims[c.id] = c;
  ASSERT_EQ(claims.size(), 4u);
  EXPECT_DOUBLE_EQ(claims.at("potential_scaling.bsh_vs_brute").ours, 200.0);
  EXPECT_DOUBLE_EQ(claims.at("potential_scaling.bsh_vs_brute").values.at("triangles"), 6208.0);
  EXPECT_DOUBLE_EQ(claims.at("potential_scaling.bsh_eval_s").ours, 0.05);
  EXPECT_NEAR(claims.at("potential_scaling.bsh_slope").ours, std::log(5.0) / std::log(6208.0 / 512.0), 1e-12);
  EXPECT_DOUBLE_EQ(claims.at("potential_scaling.ipc_frame_s").ours, 0.004);
  EXPECT_EQ(PotentialScalingExperiment().Observe(t).size(), 3u);
}

// With two ground gaps the hierarchy's claims read the authors' layout (the larger gap) and
// ipc's frame the nearer one, where it has contacts to resolve.
TEST(PotentialScaling, SummarizesEachClaimAtItsGap) {
  const ResultTable t = ResultTable::ParseCsv(
      "method,triangles,ground_gap_m,eval_s,step_s\n"
      "bsh,512,0.105,0.01,0.1\nbrute,512,0.105,0.1,\nipc,512,0.105,0.001,0.002\n"
      "bsh,512,5e-04,0.02,0.3\nbrute,512,5e-04,0.5,\nipc,512,5e-04,0.003,0.009\n",
      "table");
  std::map<std::string, ClaimResult> claims;
  for (const ClaimResult& c : PotentialScalingExperiment().Summarize(t)) claims[c.id] = c;
  EXPECT_DOUBLE_EQ(claims.at("potential_scaling.bsh_vs_brute").ours, 10.0);
  EXPECT_DOUBLE_EQ(claims.at("potential_scaling.bsh_eval_s").ours, 0.01);
  EXPECT_DOUBLE_EQ(claims.at("potential_scaling.ipc_frame_s").ours, 0.009);
}

}  // namespace potential_scaling_test
}  // namespace arena
