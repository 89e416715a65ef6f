// tpush (seed 001 Figs. 6-7): the sweep's cases, the committed push sequences (each, replayed on
// mujoco, makes and breaks contact at least twice and brings the T near its goal, as planned),
// their CSV's reading and errors, a replay end to end, the planner's determinism, and the claims
// measured from a table whose differences are known. Its quick profile is checked against the
// committed reference with every experiment's (quick_profiles_test.cc).
#include "experiments/tpush/tpush.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>

#include "experiments/result_table.h"
#include "core/common/error.h"
#include "experiments/tpush/tpush_planner.h"
#include "experiments/tpush/tpush_pushes.h"
#include "experiments/tpush/tpush_rollout.h"
#include "models/registry.h"
#include "scenes/tpush_scenes.h"
#include "tests/experiments/experiment_test_config.h"

namespace arena {
namespace tpush_test {

using testing_config::CasesById;
using testing_config::InvalidArgumentMessage;
using testing_config::NumberParam;
using testing_config::QuickConfig;

const char* kConfig =
    "sequences = [1, 2]\n"
    "runs = [\"2-rk4\", \"16-euler\"]\n"
    "patch_sizes_m = [0.08, 0.0048]\n"
    "settle_s = 0.5\n"
    "trace_interval_s = 0.25\n"
    // The quick profile's spring.
    "[quick.options.scm]\n"
    "stiffness = 1e3\n";

TEST(TPush, SweepHasAReplayPerSequenceRunAndCloud) {
  const Sweep sweep = TPushExperiment().Expand(QuickConfig("tpush", kConfig), {"scm", "mujoco", "penalty"});
  const auto cases = CasesById(sweep);
  EXPECT_EQ(cases.size(), 2u * 2u * (2u + 1u));  // scm per cloud, mujoco once
  ASSERT_TRUE(cases.count("scm/seq=2/16-euler/patch=0.0048"));
  const Case& c = *cases.at("scm/seq=2/16-euler/patch=0.0048");
  EXPECT_EQ(c.model_options.at("timestep"), "0.016");
  EXPECT_EQ(c.model_options.at("integrator"), "euler");
  EXPECT_EQ(c.model_options.at("patch_size"), "0.0048");
  EXPECT_DOUBLE_EQ(NumberParam(c, "sequence"), 2.0);
  ASSERT_TRUE(cases.count("mujoco/seq=1/2-rk4"));
  EXPECT_EQ(cases.at("mujoco/seq=1/2-rk4")->model_options.at("integrator"), "rk4");
  ASSERT_EQ(sweep.notes.size(), 1u);
  EXPECT_NE(sweep.notes[0].find("penalty: skipped"), std::string::npos);
}

TEST(TPush, BadRunsAndSequencesAreNamed) {
  const std::string body = "patch_sizes_m = [0.08]\nsettle_s = 0.5\ntrace_interval_s = 0\n";
  EXPECT_NE(InvalidArgumentMessage([&] {
              TPushExperiment().Expand(QuickConfig("tpush", body + "sequences = [1]\nruns = [\"2-verlet\"]\n"), {"scm"});
            }).find("'2-verlet' is not"),
            std::string::npos);
  EXPECT_NE(InvalidArgumentMessage([&] {
              TPushExperiment().Expand(QuickConfig("tpush", body + "sequences = [9]\nruns = [\"2-rk4\"]\n"), {"scm"});
            }).find("no sequence 9"),
            std::string::npos);
  EXPECT_NE(InvalidArgumentMessage([&] {
              TPushExperiment().Expand(QuickConfig("tpush", body + "sequences = []\nruns = [\"2-rk4\"]\n"), {"scm"});
            }).find("sequences: give at least one"),
            std::string::npos);
}

// The data the experiment replays: five sequences, each of which, on mujoco at 2 ms, makes and
// breaks contact at least twice and leaves the T within 2 cm and 5 degrees of its goal.
TEST(TPush, CommittedSequencesPushTheTNearTheirGoals) {
  const std::vector<PushSequence>& sequences = CommittedPushSequences();
  ASSERT_EQ(sequences.size(), 5u);
  for (const PushSequence& s : sequences) {
    SCOPED_TRACE("sequence " + std::to_string(s.index));
    std::unique_ptr<Simulator> sim = MakeSimulator("mujoco", TPushScene(), {{"timestep", "0.002"}});
    const TPushRollout r = RollOutPushes(*sim, s);
    ASSERT_FALSE(r.diverged) << r.failure;
    EXPECT_GE(r.contacts_made, 2);
    EXPECT_GE(r.contacts_broken, 2);
    EXPECT_LT((r.final_pose.head<2>() - s.goal.head<2>()).norm(), 0.02);
    EXPECT_LT(std::abs(std::remainder(r.final_pose.z() - s.goal.z(), 2 * M_PI)), 5 * M_PI / 180);
  }
}

TEST(TPush, SequencesReadBackAndBadRowsAreNamed) {
  const std::vector<PushSequence>& sequences = CommittedPushSequences();
  const std::vector<PushSequence> again = ParsePushSequences(FormatPushSequences(sequences), "again");
  ASSERT_EQ(again.size(), sequences.size());
  EXPECT_EQ(again[2].path.size(), sequences[2].path.size());
  EXPECT_NEAR((again[2].TargetAt(1.234) - sequences[2].TargetAt(1.234)).norm(), 0.0, 1e-5);
  // Between waypoints the target is linear; after the last it holds.
  const PushSequence& s = sequences[0];
  const double t = 0.5 * (s.path[1].t + s.path[2].t);
  EXPECT_NEAR((s.TargetAt(t) - 0.5 * (s.path[1].target + s.path[2].target)).norm(), 0.0, 1e-12);
  EXPECT_EQ(s.TargetAt(s.duration() + 5.0), s.path.back().target);
  const std::string header = "sequence,goal_x_m,goal_y_m,goal_yaw_deg,t_s,finger_x_m,finger_y_m\n";
  try {
    ParsePushSequences(header + "1,0,0,0,0,0,0\n1,0,0,0,0.5,0,0\n1,0,0,0,0.4,0,0\n", "pushes.csv");
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("pushes.csv: row 4"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ParsePushSequences(header + "1,0,0,0,0,x,0\n", "pushes.csv"), ParseError);
}

TEST(TPush, ReplayWritesTracesAndAFinalRow) {
  const Sweep sweep = TPushExperiment().Expand(QuickConfig("tpush", kConfig), {"scm"});
  // At 16 ms with semi-implicit Euler the finger on its PD servo gains 0.10 J more than the
  // servo's work within 0.5 s, which the step check flags (energy); 2 ms RK4 is the paper's
  // Fig. 6 setting.
  const std::vector<Row> rows = TPushExperiment().Run(*CasesById(sweep).at("scm/seq=1/2-rk4/patch=0.08"));
  ASSERT_GT(rows.size(), 10u) << (rows.back().contains("failure") ? ToText(rows.back().at("failure")) : "");
  const Row& last = rows.back();
  EXPECT_EQ(std::get<std::string>(last.at("kind")), "final");
  EXPECT_EQ(std::get<std::int64_t>(last.at("t_points")), 28);  // the bar's 18 patches and the stem's 10
  EXPECT_EQ(std::get<std::int64_t>(last.at("finger_points")), 6);
  EXPECT_EQ(std::get<std::string>(rows.front().at("kind")), "trace");
  EXPECT_NEAR(std::get<double>(rows[1].at("t_s")), 0.25, 1e-9);  // every 125 steps of 2 ms
}

TEST(TPush, PlannerIsDeterministic) {
  PushPlannerOptions options;
  options.population = 4;
  options.iterations = 1;
  const std::vector<Vec3> goal{DefaultPushGoals()[0]};
  const std::vector<PlannedPushes> a = PlanPushSequences(goal, options), b = PlanPushSequences(goal, options);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(FormatPushSequences({a[0].sequence}), FormatPushSequences({b[0].sequence}));
  EXPECT_EQ(a[0].sequence.index, 1);
  EXPECT_GT(a[0].sequence.path.size(), 6u);
}

// Two sequences, one run, two clouds: scm ends 3 cm and 10 degrees from mujoco on one, 1 cm and
// 20 degrees on the other, at step times 4 ms (fine) and 1 ms (coarse) against mujoco's 2 ms.
TEST(TPush, ClaimsCompareEachScmReplayWithMujocos) {
  std::ostringstream csv;
  csv << "model,kind,sequence,run,patch_size_m,t_points,step_time_ms,final_x_m,final_y_m,final_yaw_deg,diverged\n";
  csv << "mujoco,final,1,2-rk4,,,2,0.1,0.0,30,false\n";
  csv << "mujoco,final,2,2-rk4,,,2,0.0,0.1,-170,false\n";
  csv << "scm,final,1,2-rk4,0.005,4000,4,0.1,0.03,40,false\n";
  csv << "scm,final,2,2-rk4,0.005,4000,4,0.01,0.1,170,false\n";
  csv << "scm,final,1,2-rk4,0.08,28,1,0.1,0.0,30,false\n";
  csv << "scm,final,2,2-rk4,0.08,28,1,0.0,0.1,-170,false\n";
  csv << "scm,final,1,16-rk4,0.005,4000,4,,,,true\n";
  std::map<std::string, ClaimResult> claims;
  for (const ClaimResult& c : TPushExperiment().Summarize(ResultTable::ParseCsv(csv.str(), "t"))) claims[c.id] = c;
  ASSERT_TRUE(claims.count("tpush.com_distance_cm"));
  EXPECT_NEAR(claims["tpush.com_distance_cm"].ours, 2.0, 1e-9);
  EXPECT_NEAR(claims["tpush.rotation_difference_deg"].ours, 15.0, 1e-9);  // 170 and -170 are 20 apart
  EXPECT_NEAR(claims["tpush.rk4_time_ratio"].ours, 0.5, 1e-12);
  EXPECT_NEAR(claims["tpush.point_count_independence"].ours, 4.0, 1e-12);
  EXPECT_EQ(claims["tpush.divergence_dt_ms"].ours, 2.0);  // 16 ms diverged
  EXPECT_EQ(claims.count("tpush.euler_speedup"), 0u);     // no euler run
}

}  // namespace tpush_test
}  // namespace arena
