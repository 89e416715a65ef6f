// sdrs::RestingGap: a box started at the gap it predicts stays there under gravity, and one
// started at twice that gap falls by about the difference, for both of the authors' kappas.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/common/error.h"
#include "core/common/options.h"
#include "models/registry.h"
#include "models/sdrs/resting_gap.h"
#include "models/sdrs/sdrs_simulator.h"
#include "tests/models/sdrs/sdrs_test_util.h"

namespace arena {
namespace sdrs_resting_gap_test {

constexpr double kHalf = 0.2;  // a 0.4 m, 1 kg cube: its upper vertices beyond x0 of any plane

std::shared_ptr<const Scene> BoxAbove(double gap) { return sdrs::testing::CubeAboveGround(gap, kHalf); }

// How far (m) the box's height moves in 1 s of 0.01 s steps from `gap` above the ground.
double HeightChange(double gap, double kappa) {
  const auto scene = BoxAbove(gap);
  auto sim = MakeSimulator("sdrs", scene, {{"timestep", "0.01"}, {"kappa", options_detail::FormatDouble(kappa)}});
  State s = DefaultState(*scene);
  for (int k = 0; k < 100; ++k) {
    const StepReport r = sim->Step(s, {});
    EXPECT_TRUE(r.ok()) << "step " << k << ": " << r.message;
  }
  return s.q[2] - (kHalf + gap);
}

class RestingGapTest : public ::testing::TestWithParam<double> {};

TEST_P(RestingGapTest, ABoxStartedThereStays) {
  SdrsModelOptions o;
  o.kappa = GetParam();
  const double gap = sdrs::RestingGap(o.Pair(), 9.81);
  ASSERT_GT(gap, 0.0);
  ASSERT_LT(gap, o.Pair().PruningDistance());
  const double still = HeightChange(gap, o.kappa);
  const double fallen = HeightChange(2.0 * gap, o.kappa);
  EXPECT_LT(std::abs(still), 1e-3 * gap) << "kappa " << o.kappa << ", gap " << gap;
  EXPECT_LT(fallen, -0.5 * gap) << "kappa " << o.kappa << ", gap " << gap;
}

INSTANTIATE_TEST_SUITE_P(AuthorsKappas, RestingGapTest, ::testing::Values(1e-2, 1e-4));

TEST(RestingGap, HeavierWeightsRestCloser) {
  const sdrs::HullPairOptions o = SdrsModelOptions{}.Pair();
  EXPECT_GT(sdrs::RestingGap(o, 1.0), sdrs::RestingGap(o, 10.0));
  EXPECT_THROW(sdrs::RestingGap(o, 0.0), InvalidArgument);
  EXPECT_THROW(sdrs::RestingGap(o, -1.0), InvalidArgument);
}

}  // namespace sdrs_resting_gap_test
}  // namespace arena
