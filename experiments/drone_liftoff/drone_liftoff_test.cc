// drone_liftoff (Nimble Fig. 8): which models run, bad config, and the two claims from a short
// run: the standard gradient is exactly zero (the loss never moves), the complementarity-aware
// one escapes.
#include "experiments/drone_liftoff/drone_liftoff.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/common/error.h"
#include "config/profile_config.h"
#include "tests/experiments/experiment_test_config.h"
#include "models/registry.h"

namespace arena {
namespace drone_liftoff_test {

using ::testing::HasSubstr;

ProfileConfig Config(const std::string& body) { return testing_config::QuickConfig("drone_liftoff", body); }

std::string Body(const std::string& gradients, int iterations) {
  return "gradients = " + gradients + "\nsteps = 500\niterations = " + std::to_string(iterations) +
         "\nlearning_rate = 10.0\ntarget_height = 5.0\nforce_limit = 10.0\n";
}

// The standard gradient runs on every model with derivatives that can simulate the drone; the
// complementarity-aware one only where the model has that option (nimble).
TEST(DroneLiftoff, ExpandsTheAwareGradientOnlyWhereTheModelHasIt) {
  const DroneLiftoffExperiment e;
  const Sweep sweep =
      e.Expand(Config(Body("[\"standard\", \"complementarity_aware\"]", 3)), {"nimble", "penalty", "bilevel"});
  ASSERT_EQ(sweep.cases.size(), 3u);
  EXPECT_EQ(sweep.cases[0].id, "nimble/standard");
  EXPECT_EQ(sweep.cases[1].model_options.at("complementarity_aware"), "true");
  EXPECT_EQ(sweep.cases[0].model_options.at("complementarity_aware"), "false");
  EXPECT_EQ(sweep.cases[2].id, "penalty/standard");
  EXPECT_EQ(sweep.cases[2].model_options.count("complementarity_aware"), 0u);
  const std::string notes = ::testing::PrintToString(sweep.notes);
  EXPECT_THAT(notes, HasSubstr("penalty: skipped gradient complementarity_aware"));
  EXPECT_THAT(notes, HasSubstr("bilevel: skipped"));
}

TEST(DroneLiftoff, RejectsBadConfigWithTheKey) {
  const DroneLiftoffExperiment e;
  try {
    e.Expand(Config(Body("[\"adjoint\"]", 3)), {"nimble"});
    FAIL() << "unknown gradient accepted";
  } catch (const InvalidArgument& error) {
    EXPECT_THAT(error.what(), HasSubstr("unknown gradient 'adjoint'"));
  }
  EXPECT_THROW(e.Expand(Config("gradients = [\"standard\"]\nsteps = 0\niterations = 1\nlearning_rate = 10.0\n"
                               "target_height = 5.0\nforce_limit = 10.0\n"),
                        {"nimble"}),
               InvalidArgument);
}

// Ten iterations: the standard gradient's norm is exactly 0 on every iteration and the loss
// never moves; the aware run is flat while the drone sits on the floor, then the loss falls.
TEST(DroneLiftoff, StandardGradientIsStuckAndAwareEscapes) {
  const DroneLiftoffExperiment e;
  const Sweep sweep = e.Expand(Config(Body("[\"standard\", \"complementarity_aware\"]", 10)), {"nimble"});
  const std::vector<Row> standard = e.Run(sweep.cases[0]);
  const std::vector<Row> aware = e.Run(sweep.cases[1]);
  ASSERT_EQ(standard.size(), 11u);
  ASSERT_EQ(aware.size(), 11u);
  const auto number = [](const Row& r, const char* key) { return std::get<double>(r.at(key)); };
  for (size_t i = 0; i + 1 < standard.size(); ++i) {
    EXPECT_EQ(number(standard[i], "gradient_norm"), 0.0) << i;
    EXPECT_EQ(number(standard[i], "loss"), number(standard[0], "loss")) << i;
  }
  EXPECT_GT(number(aware[0], "gradient_norm"), 0.0);
  EXPECT_GT(std::get<std::int64_t>(aware[0].at("aware_steps")), 0);
  EXPECT_LT(number(aware.back(), "loss"), 0.5 * number(aware[0], "loss"));
  EXPECT_GT(number(aware.back(), "height"), 2.0);
}

}  // namespace drone_liftoff_test
}  // namespace arena
