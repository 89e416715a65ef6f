// `arena gradcheck`: passes models whose derivatives are right, fails them when the reference
// disagrees beyond the tolerance, and refuses models without derivatives and unknown scenes
// (listing the registered ones).
#include "harness/gradcheck.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <utility>

#include "core/common/error.h"
#include "core/scene/loader.h"
#include "scenes/scene_registry.h"

namespace arena {
namespace gradcheck_test {

using ::testing::HasSubstr;

GradcheckOptions Options(std::string model, std::string scene, int states) {
  GradcheckOptions o;
  o.model = std::move(model);
  o.scene = std::move(scene);
  o.states = states;
  return o;
}

// penalty's analytical Jacobians on Half Cheetah (two feet on the floor, a smooth regime of the
// force law) agree with Ridders far below the default tolerance, on every block.
TEST(Gradcheck, PenaltyHalfCheetahPasses) {
  GradcheckOptions o = Options("penalty", "half_cheetah", 3);
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
  GradcheckOptions o = Options("silico", "polygon", 2);
  o.model_options = {{"rho", "1e-3"}};
  EXPECT_FALSE(RunGradcheck(o).passed);
  o.model_options["residual_tolerance"] = "1e-10";
  o.ridders_step = 1e-4;
  const GradcheckResult tight = RunGradcheck(o);
  EXPECT_TRUE(tight.passed) << tight.max_error;
  EXPECT_GT(tight.states_in_contact, 0);
}

// nimble on Half Cheetah (feet on the floor: clamping and sliding rows) passes; on the tower
// (stacking's two cubes) a state where the top cube grazes the bottom one carries impulses of
// 1e-6 that Nimble's thresholds classify as separating: a wrong gradient that gradcheck finds
// through the state Jacobians. Perturbing the link masses as well flips that row's class, so
// with the mass derivatives on the same state is seen for what it is, a tie (an event).
TEST(Gradcheck, NimblePassesHalfCheetahAndCatchesGrazingContacts) {
  GradcheckOptions o = Options("nimble", "half_cheetah", 3);
  const GradcheckResult r = RunGradcheck(o);
  EXPECT_TRUE(r.passed) << r.max_error;
  EXPECT_EQ(r.states_in_contact, 3);
  ASSERT_EQ(r.blocks.size(), 8u);
  EXPECT_EQ(r.blocks[7].name, "dv+/dp");
  o.scene = "tower";
  o.states = 1;
  o.model_options = {{"design_derivatives", "false"}};
  const GradcheckResult tower = RunGradcheck(o);
  EXPECT_FALSE(tower.passed);
  EXPECT_EQ(tower.states_at_events, 0);
  EXPECT_EQ(tower.blocks.size(), 6u);
  o.model_options.clear();
  const GradcheckResult with_masses = RunGradcheck(o);
  EXPECT_FALSE(with_masses.passed);
  EXPECT_EQ(with_masses.states_at_events, 1);
}

// A robot file with self-contact on: drchubo's 52 mesh links collide as convex hulls (pairs
// overlapping at the default pose left out, as files load). Its random states include link
// pairs pushed into each other, and both models' analytical Jacobians pass at 1e-5 there.
// Minutes on 2 cores: the soak tier.
TEST(Gradcheck, SoakDrchuboPassesWithSelfContact) {
  const std::string path = DartDataDir() + "/urdf/drchubo/drchubo.urdf";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no dart-doc data at " << path;
  for (const char* model : {"penalty", "nimble"}) {
    GradcheckOptions o = Options(model, path, 5);
    o.tolerance = 1e-5;
    const GradcheckResult r = RunGradcheck(o);
    EXPECT_TRUE(r.passed) << model << " " << r.max_error;
    EXPECT_GT(r.states_in_contact, 0) << model;
  }
}

// The incremental-potential models' implicit-function derivatives agree with Ridders to 1e-6
// near contact: ipc on two balls resting by each other on the ground, longrange on the box
// (falling, then at rest on the ground; coarse balls would do too but cost more steps).
// longrange's steps are minimisers known to its inner solves' rounding, so its Ridders starts at
// 1e-4; ipc's from 1e-5, as the conformance suite's: within dhat = 1 mm of contact, differences
// from 1e-4 cross changes of its active pairs (their error reads 1.03e-6 on these states, 3.2e-7
// from 1e-5).
TEST(Gradcheck, IncrementalPotentialModelsPassNearContact) {
  GradcheckOptions o = Options("ipc", "ball_pair", 3);
  o.tolerance = 1e-6;
  o.ridders_step = 1e-5;
  const GradcheckResult ipc = RunGradcheck(o);
  EXPECT_TRUE(ipc.passed) << ipc.max_error;
  EXPECT_EQ(ipc.states_in_contact, 3);
  o.ridders_step = 1e-4;
  o.model = "longrange";
  o.scene = "box";
  const GradcheckResult longrange = RunGradcheck(o);
  EXPECT_TRUE(longrange.passed) << longrange.max_error;
  EXPECT_GT(longrange.states_in_contact, 0);
}

// sdrs's design derivatives (its hull vertices) along random directions, the option turned on
// by the check itself; column by column when asked with the option; a model without design
// parameters is refused.
TEST(Gradcheck, SdrsDesignDirections) {
  GradcheckOptions o = Options("sdrs", "box", 3);
  o.design_directions = 2;
  o.tolerance = 1e-5;
  const GradcheckResult directions = RunGradcheck(o);
  EXPECT_TRUE(directions.passed) << directions.max_error;
  ASSERT_EQ(directions.blocks.size(), 8u);
  EXPECT_EQ(directions.blocks[6].name, "dq+/dp w");
  EXPECT_EQ(directions.blocks[7].name, "dv+/dp w");
  EXPECT_EQ(directions.blocks[6].worst_state >= 0, true);  // judged on a smooth state

  o.design_directions = 0;
  o.model_options = {{"design_derivatives", "true"}};
  const GradcheckResult columns = RunGradcheck(o);
  EXPECT_TRUE(columns.passed) << columns.max_error;
  EXPECT_EQ(columns.blocks.at(6).name, "dq+/dp");

  o = Options("penalty", "box", 1);
  o.design_directions = 2;
  try {
    RunGradcheck(o);
    FAIL() << "a model without design parameters was checked along design directions";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("no design parameters"));
  }
}

// A state whose Ridders steps change the contact set or mode is reported apart, not judged:
// Atlas perturbed from its pose and left to fall often has a sole corner touching down.
TEST(Gradcheck, StatesAtContactEventsAreNotJudged) {
  GradcheckOptions o = Options("nimble", "atlas", 4);
  const GradcheckResult r = RunGradcheck(o);
  EXPECT_GT(r.states_at_events, 0);
  EXPECT_LT(r.states_at_events, 4);
  EXPECT_TRUE(r.passed) << r.max_error;
}

TEST(Gradcheck, RefusesWhatItCannotCheck) {
  // bilevel differentiates its outer solve, not the step (no Derivatives()).
  GradcheckOptions o = Options("bilevel", "polygon", 10);
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
    EXPECT_THAT(e.what(), HasSubstr("'no_such_scene'"));
    for (const SceneInfo& s : Scenes()) EXPECT_THAT(e.what(), HasSubstr(s.name));
  }
  o.scene = "box";
  o.states = 0;
  EXPECT_THROW(RunGradcheck(o), InvalidArgument);
}

}  // namespace gradcheck_test
}  // namespace arena
