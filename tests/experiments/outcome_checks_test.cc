// The outcome checks (experiments/common/meters/outcome_checks.h) and the rule that a case that ran no
// step is never a success: on hand-made states and a model that does nothing (both out of reach
// of a registered model, whose options Validate() keeps from doing nothing), and through the
// experiments' Run() with a valid but physically hopeless option (a penalty spring of 1 N/m).
#include "experiments/common/meters/outcome_checks.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "experiments/box_drop/box_drop.h"
#include "experiments/common/sweeps/snapshot_rollout.h"
#include "experiments/common/meters/step_tally.h"
#include "experiments/solve_time/solve_time.h"
#include "experiments/stacking/stacking.h"
#include "scenes/box_drop_scenes.h"
#include "scenes/silico_scenes.h"
#include "tests/experiments/experiment_test_config.h"

namespace arena {
namespace outcome_checks_test {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr OutcomeLimits kBoxLimits{.max_penetration_m = 0.5,
                                   .max_energy_gain_height_m = 0.5,
                                   .escape_radius_m = 100.0,
                                   .reach_distance_m = 0.05};

// The spatial cube at rest with its centre at height z (its faces level).
State CubeAt(double z) {
  State s = DefaultState(*BoxDropScene("spatial"));
  s.q << 0.0, 0.0, z, 1.0, 0.0, 0.0, 0.0;
  s.v.setZero();
  return s;
}

// A "model" that does nothing: every step succeeds and leaves the state where it was, as silico
// did with rho = 1e308 before its options were range-checked.
class FrozenSimulator final : public Simulator {
 public:
  explicit FrozenSimulator(std::shared_ptr<const Scene> scene) : scene_(std::move(scene)) {}
  std::string_view name() const override { return "frozen"; }
  Capabilities capabilities() const override { return {}; }
  const Scene& scene() const override { return *scene_; }
  double timestep() const override { return 0.01; }

 protected:
  StepReport DoStep(State& state, const Control&) override {
    state.t += timestep();
    return {};
  }

 private:
  std::shared_ptr<const Scene> scene_;
};

const Value& Param(const Case& c, const std::string& name) {
  for (const auto& [key, value] : c.params) {
    if (key == name) return value;
  }
  throw InvalidArgument("no param " + name);
}
void SetParam(Case* c, const std::string& name, Value value) {
  for (auto& [key, v] : c->params) {
    if (key == name) v = std::move(value);
  }
}
std::string Text(const Row& row, const std::string& column) { return ToText(row.at(column)); }

TEST(FallTime, IsTheBallisticRoot) {
  EXPECT_DOUBLE_EQ(FallTime(4.905, 0.0, 9.81), 1.0);
  EXPECT_DOUBLE_EQ(FallTime(0.0, 9.81, 9.81), 2.0);  // thrown up at 9.81 m/s from the ground
  EXPECT_DOUBLE_EQ(FallTime(0.0, -1.0, 9.81), 0.0);
  EXPECT_NEAR(FallTime(1.5, -2.0, 9.81), (-2.0 + std::sqrt(4.0 + 2.0 * 9.81 * 1.5)) / 9.81, 1e-15);
}

// A box that never moves under gravity: due once a fall from its start (0.45 s from 1 m) is over.
TEST(OutcomeMonitor, AHangingBoxNeverCameDown) {
  auto scene = BoxDropScene("spatial");
  State s = CubeAt(1.0);
  OutcomeMonitor monitor(*scene, s, kBoxLimits);
  EXPECT_NEAR(monitor.fall_time_s(), std::sqrt(2.0 / 9.81), 1e-12);
  for (int k = 0; k < 40; ++k) {
    s.t += 0.01;
    ASSERT_EQ(monitor.Observe(s), "");
  }
  EXPECT_EQ(monitor.Finish(), "") << "0.4 s is shorter than the fall";
  for (int k = 0; k < 110; ++k) {
    s.t += 0.01;
    ASSERT_EQ(monitor.Observe(s), "");
  }
  EXPECT_THAT(monitor.Finish(), StartsWith("never came down: no collider came within 0.05 m of another (closest 0.75 m)"));
  EXPECT_DOUBLE_EQ(monitor.min_distance_m(), 0.75);
}

TEST(OutcomeMonitor, ABoxThatLandsPasses) {
  auto scene = BoxDropScene("spatial");
  State s = CubeAt(1.0);
  OutcomeMonitor monitor(*scene, s, kBoxLimits);
  s.q[2] = 0.2501;  // resting 0.1 mm up, as a relaxed contact holds it
  s.t = 1.5;
  EXPECT_EQ(monitor.Observe(s), "");
  EXPECT_EQ(monitor.Finish(), "");
  EXPECT_EQ(monitor.max_penetration_m(), 0.0);
}

TEST(OutcomeMonitor, NamesABodyThroughTheGroundAnEnergyGainAndAnEscape) {
  auto scene = BoxDropScene("spatial");
  {
    OutcomeMonitor monitor(*scene, CubeAt(1.0), kBoxLimits);
    EXPECT_EQ(monitor.Observe(CubeAt(-0.2)), "");  // 0.45 m deep: MuJoCo's and DART's landing at 10 Hz
    EXPECT_THAT(monitor.Observe(CubeAt(-12.0)),
                StartsWith("went through: penetration 12.25 m, deeper than the 0.5 m limit"));
    EXPECT_DOUBLE_EQ(monitor.max_penetration_m(), 12.25);
  }
  {
    OutcomeMonitor monitor(*scene, CubeAt(1.0), kBoxLimits);
    State up = CubeAt(1.0);
    up.v[5] = 2.0;  // 2 J: lifting it 0.2 m
    EXPECT_EQ(monitor.Observe(up), "");
    up.v[5] = 20.0;
    EXPECT_THAT(monitor.Observe(up), StartsWith("gained energy: "));
  }
  {
    OutcomeMonitor monitor(*scene, CubeAt(1.0), kBoxLimits);
    State far = CubeAt(1.0);
    far.q[0] = 200.0;
    EXPECT_EQ(monitor.Observe(far), "escaped: body farther than 100 m from the origin");
  }
}

TEST(StepTally, ARunOfNoStepIsNeverASuccess) {
  StepTally tally;
  Row row;
  tally.WriteTo(&row);
  EXPECT_EQ(row.at("failed"), Value(true));
  EXPECT_EQ(Text(row, "failure"), "no step ran");
}

// The snapshot rollouts (peg_in_hole, convex_bundles) with a model that does nothing.
TEST(SnapshotRollout, AModelThatDoesNothingFails) {
  auto scene = PegInHoleScene();
  FrozenSimulator frozen(scene);
  const std::vector<Row> rows = SnapshotRollout(*scene, frozen, DefaultState(*scene), 100, 50,
                                                {.max_penetration_m = 0.5, .reach_distance_m = 0.05});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_THAT(Text(rows.back(), "failure"), StartsWith("never came down"));
  EXPECT_EQ(Text(rows[1], "failure"), "");
  const std::vector<Row> none = SnapshotRollout(*scene, frozen, DefaultState(*scene), 0, 50, {});
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(Text(none[0], "failure"), "no step ran: steps = 0");
}

// `check_steps`: the models' step check (models/step_validity.h), which flags a step first; off,
// the experiment's own outcome monitor is the line that catches the same run.
Case BoxDropCase(const std::string& variant, double stiffness, bool check_steps = true) {
  const ProfileConfig config = testing_config::QuickConfig(
      "box_drop", "variants = [\"" + variant + "\"]\nfrequencies_hz = [100]\ninitial_conditions = 1\nduration_s = 1.5\n" +
                      "[quick.sweep.penalty]\nstiffness = [" + options_detail::FormatDouble(stiffness) + "]\n" +
                      "[quick.options.penalty]\ncheck_steps = " + (check_steps ? "true" : "false") + "\n");
  return BoxDropExperiment().Expand(config, {"penalty"}).cases.at(0);
}

// A spring of 1 N/m is a valid stiffness that cannot hold a 1 kg box: it falls through the floor.
// With the step check, whichever bound is reached first ends the run (penalty's own allowance, a
// collider's bounding radius, is deeper than box_drop's 0.5 m for the planar polygon, shallower
// for the cube); without it the outcome monitor ends the run.
TEST(BoxDropOutcome, ABoxThroughTheGroundFails) {
  for (const std::string variant : {"planar", "spatial"}) {
    const Row flagged = BoxDropExperiment().Run(BoxDropCase(variant, 1.0)).at(0);
    EXPECT_EQ(flagged.at("failed"), Value(true)) << variant;
    EXPECT_THAT(Text(flagged, "failure"),
                ::testing::AnyOf(HasSubstr("invalid: penetration: "), HasSubstr("went through: penetration ")))
        << variant;
    const Row row = BoxDropExperiment().Run(BoxDropCase(variant, 1.0, false)).at(0);
    EXPECT_EQ(row.at("failed"), Value(true)) << variant;
    EXPECT_THAT(Text(row, "failure"), HasSubstr("went through: penetration ")) << variant;
    EXPECT_GT(std::get<double>(row.at("max_penetration_m")), 0.5) << variant;
  }
  // At 1e3 N/m the same drop succeeds (omega dt = 0.63: stable, and the box sinks 2.5 mm).
  const Row ok = BoxDropExperiment().Run(BoxDropCase("spatial", 1e3)).at(0);
  EXPECT_EQ(ok.at("failed"), Value(false)) << Text(ok, "failure");
}

TEST(BoxDropOutcome, ADurationShorterThanAStepFails) {
  Case c = BoxDropCase("spatial", 1e4);
  SetParam(&c, "duration_s", 0.005);  // half a step at 100 Hz
  const Row row = BoxDropExperiment().Run(c).at(0);
  EXPECT_EQ(row.at("steps_done"), Value(std::int64_t{0}));
  EXPECT_EQ(row.at("failed"), Value(true));
  EXPECT_EQ(Text(row, "failure"), "no step ran: floor(duration_s x frequency_hz) = 0");
}

Case StackingCase(double stiffness, bool check_steps = true) {
  const ProfileConfig config = testing_config::QuickConfig(
      "stacking", std::string("variants = [\"planar\"]\nfrequencies_hz = [100]\nconfigurations = 1\nduration_s = 1.0\n"
                              "[quick.sweep.penalty]\nstiffness = [") + options_detail::FormatDouble(stiffness) + "]\n" +
                      "[quick.options.penalty]\ncheck_steps = " + (check_steps ? "true" : "false") + "\n");
  return StackingExperiment().Expand(config, {"penalty"}).cases.at(0);
}

TEST(StackingOutcome, ATowerOfNoStepNeitherStandsNorSucceeds) {
  Case c = StackingCase(1e4);
  SetParam(&c, "duration_s", 0.0);
  const Row row = StackingExperiment().Run(c).at(0);
  EXPECT_EQ(row.at("failed"), Value(true));
  EXPECT_EQ(row.at("upright"), Value(false));
  EXPECT_EQ(row.at("stands"), Value(false));
  EXPECT_THAT(Text(row, "failure"), StartsWith("no step ran"));
}

TEST(StackingOutcome, ATowerThroughTheGroundFails) {
  const Row flagged = StackingExperiment().Run(StackingCase(1.0)).at(0);
  EXPECT_EQ(flagged.at("failed"), Value(true));
  EXPECT_THAT(Text(flagged, "failure"), HasSubstr("invalid: penetration: "));
  const Row row = StackingExperiment().Run(StackingCase(1.0, false)).at(0);
  EXPECT_EQ(row.at("failed"), Value(true));
  EXPECT_THAT(Text(row, "failure"), HasSubstr("went through: penetration "));
  EXPECT_EQ(row.at("stands"), Value(false));
}

TEST(SolveTimeOutcome, ARolloutOfNoStepFails) {
  const ProfileConfig config = testing_config::QuickConfig(
      "solve_time", "initial_conditions = 1\nsteps = 200\ntolerance_sets = [\"paper\"]\n");
  Case c = SolveTimeExperiment().Expand(config, {"silico"}).cases.at(0);
  SetParam(&c, "steps", std::int64_t{0});
  EXPECT_EQ(Param(c, "steps"), Value(std::int64_t{0}));
  const Row row = SolveTimeExperiment().Run(c).at(0);
  EXPECT_EQ(Text(row, "failure"), "no step ran: steps = 0");
}

}  // namespace outcome_checks_test
}  // namespace arena
