// lcp_warmstart (Nimble App. B): which models run, bad config, and what a rollout row counts.
#include "experiments/lcp_warmstart/lcp_warmstart.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/common/error.h"
#include "config/profile_config.h"
#include "tests/experiments/experiment_test_config.h"
#include "models/registry.h"

namespace arena {
namespace lcp_warmstart_test {

using ::testing::HasSubstr;

ProfileConfig Config(const std::string& body) { return testing_config::QuickConfig("lcp_warmstart", body); }

const char kQuick[] = "rollouts = [\"stacking\", \"box_drop\"]\nduration_s = 0.5\nbox_drop_runs = 2\n";

// Only nimble has an LCP active set to guess; box_drop expands into its runs.
TEST(LcpWarmstart, ExpandsNimbleRollouts) {
  const LcpWarmstartExperiment e;
  const Sweep sweep = e.Expand(Config(kQuick), {"nimble", "penalty"});
  std::vector<std::string> ids;
  for (const Case& c : sweep.cases) ids.push_back(c.id);
  EXPECT_THAT(ids, ::testing::ElementsAre("nimble/stacking/ic=0", "nimble/box_drop/ic=0", "nimble/box_drop/ic=1"));
  EXPECT_THAT(::testing::PrintToString(sweep.notes), HasSubstr("penalty: skipped (no LCP active-set warm start counters)"));
  EXPECT_EQ(sweep.cases[0].model_options.at("timestep"), "0.001");
}

TEST(LcpWarmstart, RejectsBadConfigWithTheKey) {
  const LcpWarmstartExperiment e;
  try {
    e.Expand(Config("rollouts = [\"walker\"]\nduration_s = 1.0\nbox_drop_runs = 1\n"), {"nimble"});
    FAIL() << "unknown rollout accepted";
  } catch (const InvalidArgument& error) {
    EXPECT_THAT(error.what(), HasSubstr("unknown rollout 'walker'"));
  }
  EXPECT_THROW(e.Expand(Config("rollouts = [\"atlas\"]\nduration_s = 0\nbox_drop_runs = 1\n"), {"nimble"}),
               InvalidArgument);
}

// The two-cube tower rests for 0.5 s (its blocks start exactly touching, so the first steps have
// no contact): one LCP per contact step, each solved by exactly one path, and after the first
// steps last step's active set solves nearly all.
TEST(LcpWarmstart, TowerRowCountsEveryLcpOnce) {
  const LcpWarmstartExperiment e;
  const Sweep sweep = e.Expand(Config(kQuick), {"nimble"});
  const Row row = e.Run(sweep.cases[0]).at(0);
  const auto count = [&](const char* key) { return std::get<std::int64_t>(row.at(key)); };
  EXPECT_EQ(count("steps_done"), 500);
  EXPECT_GE(count("contact_steps"), 490);
  EXPECT_EQ(count("hits") + count("dantzig") + count("pgs") + count("frictionless") + count("lcp_failed"),
            count("contact_steps"));
  EXPECT_LE(count("hits"), count("attempts"));
  EXPECT_GT(std::get<double>(row.at("hit_rate")), 0.99);
}

}  // namespace lcp_warmstart_test
}  // namespace arena
