// The gap a resting box keeps above the ground in silico (issue 52, item 4). The relaxation
// z o s = rho pairs the normal impulse with the P-SDF's slack alpha - 1: at rest the impulse per
// step is m g dt, so the slack is about rho / (m g dt) and the gap (in metres, the slack times the
// box's half-height times |n_P| = 1 / half-height) grows as the step shrinks.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <cstdio>

#include "models/registry.h"
#include "scenes/solver_compare_scenes.h"

namespace arena {
namespace {

// The 1 kg, 0.2 m cube's bottom gap (m) after `duration` s from a start `start_gap` above the
// ground.
double RestingGap(double dt, const OptionMap& extra, double start_gap = 0.0, double duration = 0.3) {
  auto scene = CubeOnGroundScene(start_gap);
  OptionMap options = extra;
  options["timestep"] = std::to_string(dt);
  auto sim = MakeSimulator("silico", scene, options);
  State s = DefaultState(*scene);
  const int steps = static_cast<int>(std::lround(duration / dt));
  for (int k = 0; k < steps; ++k) {
    const StepReport r = sim->Step(s, {});
    EXPECT_TRUE(r.ok()) << "dt " << dt << " step " << k << ": " << r.message;
    if (!r.ok()) return std::nan("");
  }
  return s.q[2] - kContactProblemHalfSize;
}

// The paper's rho = 1e-4 was chosen at 100 Hz (seed 000 Sec. VI, its sweeps run 10-100 Hz): the
// gap is rho / (m g dt), about 1 mm at 100 Hz and 10 mm at 1 kHz. From a touching start the
// relaxed contact throws the box up beyond that gap (the next test): the box starts here at the
// predicted gap and must stay near it.
TEST(SilicoRestingGap, ThePapersRhoGrowsTheGapAsTheStepShrinks) {
  const OptionMap papers = {{"rho", "1e-4"}};
  auto predicted = [](double dt) { return 1e-4 / (1.0 * 9.81 * dt); };
  const double at_100hz = RestingGap(0.01, papers, predicted(0.01));
  const double at_1khz = RestingGap(0.001, papers, predicted(0.001));
  std::printf("rho 1e-4: resting gap %.3g mm at dt 0.01, %.3g mm at dt 0.001\n", 1e3 * at_100hz, 1e3 * at_1khz);
  EXPECT_NEAR(at_1khz / at_100hz, 10.0, 2.0);
  EXPECT_NEAR(at_100hz, 1e-4 / (9.81 * 0.01), 0.5e-3);
}

// At 1 kHz the paper's rho pushes the touching box up with more energy than it had: the step check
// reports the first such step as invalid (energy, naming the cube).
TEST(SilicoRestingGap, ThePapersRhoAtOneKilohertzThrowsTheBoxUpAndIsFlagged) {
  auto scene = CubeOnGroundScene(0.0);
  auto sim = MakeSimulator("silico", scene, {{"rho", "1e-4"}, {"timestep", "0.001"}});
  State s = DefaultState(*scene);
  StepReport flagged;
  double highest = 0.0;
  for (int k = 0; k < 300 && flagged.ok(); ++k) {
    flagged = sim->Step(s, {});
    highest = std::max(highest, s.q[2] - kContactProblemHalfSize);
  }
  EXPECT_EQ(flagged.status, StepStatus::kInvalid) << flagged.message;
  EXPECT_THAT(flagged.message, ::testing::HasSubstr("energy"));
  EXPECT_THAT(flagged.message, ::testing::HasSubstr("'cube'"));
  EXPECT_GT(highest, 0.01);  // above the 10 mm resting gap: thrown, not let up
}

// docs/models/silico.md's recommendation: rho = g_max m g dt for a resting gap of about g_max
// (the slack rho / (m g dt) is the gap in metres). With g_max = 0.5 mm the 1 kg box rests within
// 1 mm of the ground at every step the experiments use.
TEST(SilicoRestingGap, TheRecommendedRhoHoldsTheBoxWithinAMillimetre) {
  for (double dt : {0.05, 0.02, 0.01, 0.005, 0.002, 0.001}) {
    const double rho = 0.5e-3 * 1.0 * 9.81 * dt;
    const double gap = RestingGap(dt, {{"rho", std::to_string(rho)}});
    std::printf("rho %.3g: resting gap %.3g mm at dt %g\n", rho, 1e3 * gap, dt);
    EXPECT_GT(gap, -1e-4) << "dt " << dt;
    EXPECT_LT(gap, 1e-3) << "dt " << dt;
  }
}

}  // namespace
}  // namespace arena
