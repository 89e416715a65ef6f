// billiards (seed 004 Fig. 5): the sweep (every model with derivatives, the bundle where asked,
// one case per initialisation), config errors naming the key, the trivial initialisation's
// zero gradient through ipc and sdrs and non-zero one through longrange in the experiment's own rows, and
// the claim from a hand-made table.
#include "experiments/billiards/billiards.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "experiments/result_table.h"
#include "core/common/error.h"
#include "harness/report.h"
#include "tests/experiments/claim_verdict.h"
#include "tests/experiments/experiment_test_config.h"

namespace arena {
namespace billiards_test {

using ::testing::HasSubstr;
using testing_config::Reproduced;

std::string Body(int frames, int iterations, const std::string& initialisations = "[\"trivial\", \"sampled\"]",
                 const std::string& order = "first_order") {
  return "timestep_s = 0.04\nframes = " + std::to_string(frames) + "\niterations = " + std::to_string(iterations) +
         "\nlearning_rate = 3e-2\nadam_beta1 = 0.3\nadam_beta2 = 0.5\ntarget_tolerance_m = 0.25\n"
         "initialisations = " + initialisations + "\nsampled_initialisations = 2\nbundle_models = [\"ipc\"]\n"
         "bundle_samples = 2\nbundle_sigma = 0.1\nbundle_order = \"" + order + "\"\n"
         "[quick.options.ipc]\nsphere_vertices = 24\n[quick.options.sdrs]\nsphere_vertices = 24\n[quick.options.longrange]\nsphere_vertices = 24\nmu = 1e-7\n";
}

ProfileConfig Config(const std::string& body) { return testing_config::QuickConfig("billiards", body); }

TEST(Billiards, ExpandsEveryInitialisationAndTheBundleWhereAsked) {
  const BilliardsExperiment e;
  const Sweep sweep = e.Expand(Config(Body(10, 5)), {"ipc", "mujoco", "bilevel"});
  std::vector<std::string> ids;
  for (const Case& c : sweep.cases) ids.push_back(c.id);
  EXPECT_THAT(ids, ::testing::ElementsAre("ipc/gradient/trivial", "ipc/gradient/sampled=0", "ipc/gradient/sampled=1",
                                          "ipc/bundle/trivial", "ipc/bundle/sampled=0", "ipc/bundle/sampled=1",
                                          "mujoco/gradient/trivial", "mujoco/gradient/sampled=0",
                                          "mujoco/gradient/sampled=1"));
  EXPECT_EQ(sweep.cases[0].model_options.at("timestep"), "0.04");
  EXPECT_EQ(sweep.cases[0].model_options.at("sphere_vertices"), "24");
  EXPECT_THAT(::testing::PrintToString(sweep.notes), HasSubstr("bilevel: skipped"));
}

std::string ExpandError(const std::string& body) {
  try {
    BilliardsExperiment().Expand(Config(body), {"ipc"});
  } catch (const InvalidArgument& error) {
    return error.what();
  }
  return "";
}

TEST(Billiards, RejectsBadConfigNamingTheKey) {
  EXPECT_THAT(ExpandError(Body(10, 5, "[\"random\"]")), HasSubstr("billiards.toml: key initialisations: unknown 'random'"));
  EXPECT_THAT(ExpandError(Body(10, 5, "[\"trivial\"]", "second_order")), HasSubstr("key bundle_order"));
  EXPECT_THAT(ExpandError(Body(0, 5)), HasSubstr("frames"));
}

std::vector<Row> Iterations(const std::vector<Row>& rows) {
  std::vector<Row> out;
  for (const Row& r : rows) {
    if (std::get<std::string>(r.at("record")) == "iteration") out.push_back(r);
  }
  return out;
}

int CountRecords(const std::vector<Row>& rows, const std::string& record) {
  int n = 0;
  for (const Row& r : rows) n += std::get<std::string>(r.at("record")) == record;
  return n;
}

// Seed 004's central point, in the experiment's rows: from the trivial initialisation the gradient
// of a barrier with compact support (ipc's dhat, sdrs's x0) is exactly zero at every iterate, so
// Adam never moves and the loss never changes.
class BilliardsCompactBarrier : public ::testing::TestWithParam<std::string> {};

TEST_P(BilliardsCompactBarrier, NeverMovesFromTheTrivialInitialisation) {
  const BilliardsExperiment e;
  const Sweep sweep = e.Expand(Config(Body(3, 2, "[\"trivial\"]")), {GetParam()});
  const std::vector<Row> rows = e.Run(sweep.cases[0]);
  const std::vector<Row> it = Iterations(rows);
  ASSERT_EQ(it.size(), 3u);
  for (const Row& r : it) {
    EXPECT_TRUE(std::get<bool>(r.at("zero_gradient")));
    EXPECT_EQ(std::get<double>(r.at("loss")), std::get<double>(it[0].at("loss")));
    EXPECT_GT(std::get<double>(r.at("loss")), 0.0);
  }
  EXPECT_EQ(std::get<std::string>(it.back().at("stop")), "max_iterations");
  EXPECT_EQ(CountRecords(rows, "path"), 16 * 4);  // every ball at frames 0..3
  EXPECT_EQ(CountRecords(rows, "target"), 2);
}

INSTANTIATE_TEST_SUITE_P(Models, BilliardsCompactBarrier, ::testing::Values("ipc", "sdrs"));

// ... and longrange's is not: its first step moves the launch and changes the loss.
TEST(Billiards, LongrangeMovesFromTheTrivialInitialisation) {
  const BilliardsExperiment e;
  const Sweep sweep = e.Expand(Config(Body(1, 1, "[\"trivial\"]")), {"longrange"});
  const std::vector<Row> it = Iterations(e.Run(sweep.cases[0]));
  ASSERT_EQ(it.size(), 2u);
  EXPECT_FALSE(std::get<bool>(it[0].at("zero_gradient")));
  EXPECT_GT(std::get<double>(it[0].at("gradient_norm")), 0.0);
  EXPECT_NE(std::get<double>(it[1].at("launch_x_m")), std::get<double>(it[0].at("launch_x_m")));
  EXPECT_NE(std::get<double>(it[1].at("loss")), std::get<double>(it[0].at("loss")));
}

ResultTable Table(const std::string& ipc_final) {
  const std::vector<std::string> columns = {"model", "method", "initialisation", "sample", "record", "frames",
                                             "iterations", "iteration", "loss", "best_loss", "zero_gradient", "failure"};
  return ResultTable(columns, {{"longrange", "gradient", "trivial", "0", "iteration", "100", "1", "0", "8", "8", "false", ""},
                               {"longrange", "gradient", "trivial", "0", "iteration", "100", "1", "1", "6", "6", "false", ""},
                               {"longrange", "gradient", "trivial", "0", "path", "100", "1", "", "", "", "", ""},
                               {"ipc", "gradient", "trivial", "0", "iteration", "100", "1", "0", "4", "4", "true", ""},
                               {"ipc", "gradient", "trivial", "0", "iteration", "100", "1", "1", ipc_final, ipc_final, "true", ""},
                               {"ipc", "gradient", "sampled", "0", "iteration", "100", "1", "0", "4", "4", "false", ""},
                               {"ipc", "gradient", "sampled", "0", "iteration", "100", "1", "1", "1", "1", "false", ""}});
}

TEST(Billiards, SummarizeComparesTheTrivialInitialisationsProgress) {
  const BilliardsExperiment e;
  std::vector<ClaimResult> claims = e.Summarize(Table("4"));
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(claims[0].id, "billiards.trivial_init_progress");
  EXPECT_DOUBLE_EQ(claims[0].ours, 0.75);
  EXPECT_DOUBLE_EQ(claims[0].values.at("other_models_min_loss_ratio"), 1.0);
  EXPECT_TRUE(Reproduced(claims[0]));
  EXPECT_THAT(claims[0].note, HasSubstr("ipc 1"));
  EXPECT_THAT(claims[0].note, HasSubstr("after 1 Adam iterations of 100 frames"));
  claims = e.Summarize(Table("2"));  // ipc made progress too: not the paper's result
  EXPECT_DOUBLE_EQ(claims[0].values.at("other_models_min_loss_ratio"), 0.5);
  EXPECT_FALSE(Reproduced(claims[0]));
  // Observations: ipc's zero-gradient fraction over its 4 iterations, and its sampled progress.
  bool zero_fraction = false, sampled = false;
  for (const Observation& o : e.Observe(Table("4"))) {
    if (o.model == "ipc" && o.quantity == "zero_gradient_fraction") zero_fraction = o.value == 0.5;
    if (o.model == "ipc" && o.quantity == "sampled_loss_ratio") sampled = o.value == 0.25;
  }
  EXPECT_TRUE(zero_fraction);
  EXPECT_TRUE(sampled);
}

}  // namespace billiards_test
}  // namespace arena
