// The step-validity check (models/step_validity.h): each check on hand-made steps of a cube, the
// trajectory it compares against, and the pins of issue 52: penalty at a timestep it cannot hold
// and scm and penalty on ContactBench's mass-ratio stack are flagged on the first invalid step,
// and the same models at a timestep they hold are not.
#include <gtest/gtest.h>

#include <cmath>

#include "core/common/error.h"
#include "models/registry.h"
#include "models/step_validity.h"
#include "scenes/solver_compare_scenes.h"

namespace arena {
namespace {

constexpr double kG = 9.81;
constexpr double kDt = 0.01;

// The 0.2 m, 1 kg cube (free joint: q = x y z qw qx qy qz, v = omega, v) at height z.
State CubeAt(double z, double vz, double t = 0.0) {
  State s;
  s.q = VecX::Zero(7);
  s.q[2] = z;
  s.q[3] = 1.0;
  s.v = VecX::Zero(6);
  s.v[5] = vz;
  s.t = t;
  return s;
}

class StepValidityCheck : public ::testing::Test {
 protected:
  std::shared_ptr<const Scene> scene_ = CubeOnGroundScene(0.0);
  StepValidity check_{*scene_, StepValidityOptions{}, 0.1};
};

TEST_F(StepValidityCheck, FreeFallAndRestArePhysical) {
  const State top = CubeAt(1.0, 0.0), fallen = CubeAt(1.0 - kG * kDt * kDt, -kG * kDt, kDt);
  EXPECT_EQ(check_.Check(top, {}, fallen, kDt), "");
  const State rest = CubeAt(0.1, 0.0), still = CubeAt(0.1, 0.0, kDt);
  EXPECT_EQ(check_.Check(rest, {}, still, kDt), "");
}

TEST_F(StepValidityCheck, EnergyFromNowhereIsFlaggedNamingTheBody) {
  const std::string why = check_.Check(CubeAt(0.1, 0.0), {}, CubeAt(0.1, 3.0, kDt), kDt);
  EXPECT_EQ(why.rfind("energy:", 0), 0u) << why;
  EXPECT_NE(why.find("body 'cube'"), std::string::npos) << why;
}

TEST_F(StepValidityCheck, AFlungBodyIsFlaggedBySpeed) {
  const std::string why = check_.Check(CubeAt(0.1, 0.0), {}, CubeAt(0.1, 40.0, kDt), kDt);
  EXPECT_EQ(why.rfind("speed: body 'cube'", 0), 0u) << why;
}

TEST_F(StepValidityCheck, ATeleportIsFlaggedByDisplacement) {
  const std::string why = check_.Check(CubeAt(0.1, 0.0), {}, CubeAt(-5.0, 0.0, kDt), kDt);
  EXPECT_EQ(why.rfind("displacement: body 'cube'", 0), 0u) << why;
}

TEST_F(StepValidityCheck, SinkingIntoTheGroundIsFlaggedByPenetration) {
  // 5 cm into the ground: deeper than 0.1 x the cube's bounding radius (17.3 mm).
  const std::string why = check_.Check(CubeAt(0.1, 0.0), {}, CubeAt(0.05, 0.0, kDt), kDt);
  EXPECT_EQ(why.rfind("penetration: colliders 'cube'", 0), 0u) << why;
  // 1 cm is within it.
  EXPECT_EQ(check_.Check(CubeAt(0.1, 0.0), {}, CubeAt(0.09, 0.0, kDt), kDt), "");
}

// A contact law may store the energy of a fall for a step and give it back: judged against the
// trajectory's start, the release is physical; a probe from another state between the steps (a
// finite difference) does not break the trajectory; a new trajectory from the compressed state
// would see energy from nowhere.
TEST_F(StepValidityCheck, StoredEnergyIsJudgedAgainstTheTrajectorysStart) {
  // The fall from 0.3 m to the 0.1 m rest height gives 2 m/s; the release is a little slower. The
  // compression is 2 mm: as a hand-set start it may give back 2 m (d / dt)^2 = 0.08 J, not 1.9 J.
  const double v_release = std::sqrt(2.0 * kG * 0.19);
  const State start = CubeAt(0.3, 0.0), compressed = CubeAt(0.098, 0.0, kDt), released = CubeAt(0.1, v_release, 2 * kDt);
  // The fall into the spring in one (long) step: its displacement is within the bounds.
  StepValidityOptions loose;
  StepValidity check(*scene_, loose, 0.1);
  ASSERT_EQ(check.Check(start, {}, compressed, kDt), "");
  EXPECT_EQ(check.Check(CubeAt(0.5, -1.0), {}, CubeAt(0.49, -1.0, kDt), kDt), "");  // a probe
  EXPECT_EQ(check.Check(compressed, {}, released, kDt), "");
  StepValidity fresh(*scene_, loose, 0.1);
  EXPECT_EQ(fresh.Check(compressed, {}, released, kDt).rfind("energy:", 0), 0u);
}

TEST_F(StepValidityCheck, OptionsAreValidatedAndCanSwitchTheCheckOff) {
  StepValidityOptions off;
  off.check_steps = false;
  StepValidity unchecked(*scene_, off, 0.1);
  EXPECT_EQ(unchecked.Check(CubeAt(0.1, 0.0), {}, CubeAt(0.1, 40.0, kDt), kDt), "");
  StepValidityOptions bad;
  bad.max_speed_factor = 1.0;
  EXPECT_NE(bad.Validate().find("max_speed_factor"), std::string::npos);
  EXPECT_THROW(MakeSimulator("penalty", scene_, {{"max_energy_gain", "-1"}}), InvalidArgument);
  EXPECT_NO_THROW(MakeSimulator("penalty", scene_, {{"check_steps", "false"}}));
}

// --- Every model's Step -------------------------------------------------------------------------

struct Rollout {
  int first_invalid = -1;  // step index, -1: none
  std::string message;
  double max_rise_m = 0.0;      // highest any body rose above its start before the flag
  double max_distance_m = 0.0;  // farthest any body's origin moved from its start before the flag
};

// Steps `model` on `scene` for `duration` s at `dt`; stops at the first invalid step.
Rollout Simulate(const std::string& model, const std::shared_ptr<const Scene>& scene, double dt, double duration) {
  auto sim = MakeSimulator(model, scene, {{"timestep", std::to_string(dt)}});
  State s = DefaultState(*scene);
  const State start = s;
  Rollout run;
  const int steps = static_cast<int>(std::lround(duration / dt));
  for (int k = 0; k < steps; ++k) {
    const StepReport r = sim->Step(s, {});
    if (r.status == StepStatus::kInvalid) {
      run.first_invalid = k;
      run.message = r.message;
      return run;
    }
    EXPECT_FALSE(r.ends_run()) << model << " step " << k << ": " << ToString(r.status) << " " << r.message;
    if (r.ends_run()) return run;
    for (int b = 0; b < scene->model.num_bodies(); ++b) {
      const int iq = scene->model.body(b).idx_q;
      run.max_rise_m = std::max(run.max_rise_m, s.q[iq + 2] - start.q[iq + 2]);
      run.max_distance_m = std::max(run.max_distance_m, (s.q.segment<3>(iq) - start.q.segment<3>(iq)).norm());
    }
  }
  return run;
}

// Penalty's default 1e4 N/m per corner at 100 Hz: symplectic Euler needs dt < 2 / omega with
// omega = sqrt(4 k / m) = 200 rad/s; the cube let down from 1 mm bounced to 0.18 m, 1.6 m and 12 m
// within 2.5 s, every step reported ok (issue 52). Flagged before its first bounce reaches 5 cm.
TEST(StepValidityPins, PenaltyAtATimestepItCannotHoldIsFlagged) {
  const Rollout run = Simulate("penalty", CubeOnGroundScene(1e-3), 0.01, 2.5);
  ASSERT_GE(run.first_invalid, 0) << "never flagged; rose " << run.max_rise_m << " m";
  EXPECT_LT(run.max_rise_m, 0.05) << run.message;
  RecordProperty("first_invalid_step", run.first_invalid);
}

TEST(StepValidityPins, PenaltyAtATimestepItHoldsIsNotFlagged) {
  const Rollout run = Simulate("penalty", CubeOnGroundScene(1e-3), 1e-3, 2.5);
  EXPECT_EQ(run.first_invalid, -1) << run.message;
}

// ContactBench's mass-ratio stack (1e-3 kg under 1e3 kg): scm ejected the light cube to 1.4e6 m
// (dt 1e-3) and 9.4e7 m (dt 1e-2), penalty to 7.3 km, with 0 failed steps (issue 52). Flagged
// before any body has moved 0.2 m (a cube's side) from where it started.
TEST(StepValidityPins, ScmAndPenaltyOnTheMassRatioStackAreFlagged) {
  const auto stack = MassRatioStackScene(1e-3, 1e3, 1e-3);
  for (const std::string model : {"scm", "penalty"}) {
    for (double dt : {1e-3, 1e-2}) {
      const Rollout run = Simulate(model, stack, dt, 1.0);
      ASSERT_GE(run.first_invalid, 0) << model << " at dt " << dt << ": never flagged; moved " << run.max_distance_m;
      EXPECT_LT(run.max_distance_m, 0.2) << model << " at dt " << dt << ": " << run.message;
    }
  }
}

// The same stack with equal masses is what both models hold (at a timestep within penalty's
// stability): not flagged.
TEST(StepValidityPins, ScmAndPenaltyHoldAnEqualMassStackUnflagged) {
  const auto stack = MassRatioStackScene(1.0, 1.0, 1e-3);
  for (const std::string model : {"scm", "penalty"}) {
    const Rollout run = Simulate(model, stack, 1e-3, 1.0);
    EXPECT_EQ(run.first_invalid, -1) << model << ": " << run.message;
  }
}

}  // namespace
}  // namespace arena
