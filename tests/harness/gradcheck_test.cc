// `arena gradcheck`: passes models whose derivatives are right, fails them when the reference
// disagrees beyond the tolerance, and refuses models without derivatives and unknown scenes.
#include "harness/gradcheck.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/common/error.h"

namespace arena {
namespace {

using ::testing::HasSubstr;

// penalty's analytical Jacobians on Half Cheetah (two feet on the floor, a smooth regime of the
// force law) agree with Ridders far below the default tolerance, on every block.
TEST(Gradcheck, PenaltyHalfCheetahPasses) {
  GradcheckOptions o;
  o.model = "penalty";
  o.scene = "half_cheetah";
  o.states = 3;
  const GradcheckResult r = RunGradcheck(o);
  EXPECT_TRUE(r.passed) << r.max_error;
  EXPECT_EQ(r.states_in_contact + r.states_free, 3);
  ASSERT_EQ(r.blocks.size(), 6u);
  for (const GradcheckBlock& b : r.blocks) EXPECT_LT(b.max_error, 1e-6) << b.name;
}

// silico's implicit-function derivatives are exact for the converged solve: with a loose solver
// tolerance (rho / 10) Ridders differences of the step are off by ~1e-4 and gradcheck fails; with
// a tight one they agree to ~1e-8 and it passes. Both outcomes are the check working.
TEST(Gradcheck, SilicoFailsLooseAndPassesTightSolves) {
  GradcheckOptions o;
  o.model = "silico";
  o.scene = "polygon";
  o.states = 2;
  o.model_options = {{"rho", "1e-3"}};
  EXPECT_FALSE(RunGradcheck(o).passed);
  o.model_options["residual_tolerance"] = "1e-10";
  o.ridders_step = 1e-4;
  const GradcheckResult tight = RunGradcheck(o);
  EXPECT_TRUE(tight.passed) << tight.max_error;
  EXPECT_GT(tight.states_in_contact, 0);
}

TEST(Gradcheck, RefusesWhatItCannotCheck) {
  GradcheckOptions o;
  o.model = "nimble";  // its analytical Jacobians do not exist yet
  o.scene = "box";
  try {
    RunGradcheck(o);
    FAIL() << "a model without derivatives was checked";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("offers no derivatives"));
  }
  o.model = "penalty";
  o.scene = "no_such_scene";
  try {
    RunGradcheck(o);
    FAIL() << "unknown scene accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("box, polygon, tower, atlas, half_cheetah"));
  }
  o.scene = "box";
  o.states = 0;
  EXPECT_THROW(RunGradcheck(o), InvalidArgument);
}

}  // namespace
}  // namespace arena
