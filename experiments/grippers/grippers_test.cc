// grippers (seed 003 Figs. 14-18, reduced): the scene (9 designed blocks, a 6-DOF X, every pair
// apart at the start for any design in the box), the script's waypoints, the shape gradient of
// the loss against central differences at a contact state (the jaw pushing the X), the physics of
// the claim (the start design pushes the X away, a hand-made hole carries it up), the sweep's
// checks, a run, a restart from a design file and the claim from a table. Its quick profile is
// checked against the committed reference with every experiment's (quick_profiles_test.cc).
#include "experiments/grippers/grippers.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <set>

#include "experiments/result_table.h"
#include "core/common/error.h"
#include "core/common/random.h"
#include "experiments/common/settings/design_file.h"
#include "experiments/common/meters/hull_distances.h"
#include "experiments/grippers/gripper_task.h"
#include "models/registry.h"
#include "scenes/gripper_scenes.h"
#include "tests/experiments/experiment_test_config.h"
#include "tests/scratch_dir.h"
#include "trajectory/rollout.h"

namespace arena {
namespace grippers_test {

using ::testing::HasSubstr;
using testing_config::InvalidArgumentMessage;
using testing_config::QuickConfig;
using testing_config::RowNumber;

std::unique_ptr<Simulator> Sdrs(double timestep = 0.01) {
  OptionMap options{{"timestep", std::to_string(timestep)}, {"x0", "0.005"}, {"design_derivatives", "true"},
                    {"design_colliders", kGripperBlockPrefix}};
  return MakeSimulator("sdrs", GripperScene(), options);
}

// The middle block collapsed onto the wall's back face: the hole the optimiser should find.
VecX HoleDesign(const Simulator& sim) {
  VecX p = sim.DesignParameters();
  const auto ids = RequireDesignVertices(sim).DesignVertexIds();
  for (size_t k = 0; k < ids.size(); ++k) {
    if (ids[k].collider == kGripperMiddleBlock) p[static_cast<Eigen::Index>(3 * k + 1)] = kGripperThickness;
  }
  return p;
}

TEST(Grippers, SceneHasNineDesignedBlocksAndAFreeX) {
  auto sim = Sdrs();
  const Scene& scene = sim->scene();
  EXPECT_EQ(scene.nv(), 9);  // three slides and the X's free joint
  EXPECT_EQ(scene.nu(), 6);
  EXPECT_EQ(scene.model.body(scene.model.FindBody(kGripperObject)).joint.type, JointType::kFree);
  const auto ids = RequireDesignVertices(*sim).DesignVertexIds();
  ASSERT_EQ(ids.size(), 72u);  // 3 x 3 blocks of 8 vertices
  std::set<std::string> blocks;
  for (const auto& id : ids) blocks.insert(id.collider);
  EXPECT_EQ(blocks.size(), 9u);
  EXPECT_TRUE(blocks.count(kGripperMiddleBlock));
  EXPECT_THROW(GripperScene({.kp = 0.0}), InvalidArgument);
}

// At the start every hull pair is apart, for the start design and for the designs at the box's
// corners that bring the blocks nearest the X, the table and the ground (forward and down).
TEST(Grippers, StartIsClearForAnyDesignInTheBox) {
  auto sim = Sdrs();
  Simulator& ip = *sim;
  const State start = DefaultState(sim->scene());
  EXPECT_GT(MinimumHullDistance(ip, {start}), 1e-3);  // the X 1 mm above the table
  const VecX p0 = ip.DesignParameters();
  for (const Vec3& shift : {Vec3(0, -1, -1), Vec3(1, -1, -1), Vec3(-1, -1, 1)}) {
    VecX p = p0;
    for (int i = 0; i < p.size(); i += 3) p.segment<3>(i) += kGripperDesignReach * shift;
    ip.SetDesignParameters(p);
    EXPECT_GT(MinimumHullDistance(ip, {start}), 0.0) << shift.transpose();
  }
}

TEST(Grippers, ScriptEndsEachStageAtItsWaypoint) {
  auto sim = Sdrs();
  const GripperStages stages;
  const VecX u = GripperScriptControls(sim->scene(), stages, 0.01, 1e4);
  ASSERT_EQ(u.size(), 6 * stages.total());
  const GripperWaypoints w = GripperScript();
  const double sag = sim->scene().model.body(sim->scene().model.FindBody(kGripperBody)).inertia.mass() * 9.81 / 1e4;
  auto target = [&](int t) { return Vec3(u[6 * t], u[6 * t + 2], u[6 * t + 4] - sag); };
  EXPECT_LT((target(stages.lower - 1) - w.lowered).norm(), 1e-12);
  EXPECT_LT((target(stages.grasp() - 1) - w.grasp).norm(), 1e-12);
  EXPECT_LT((target(stages.total() - 1) - w.lifted).norm(), 1e-12);
  EXPECT_EQ(u[6 * (stages.total() - 1) + 3], 0.0);  // at rest at the end
  EXPECT_NEAR(w.grasp.z(), w.lowered.z(), 1e-15);
  EXPECT_NEAR(w.lifted.z() - w.grasp.z(), 0.15, 1e-15);
}

// dL/dp . w against (L(p + h w) - L(p - h w)) / 2h over a short script in which the wall pushes
// the X along the table: the shape gradient through the contacts, in every direction and in the
// middle block's.
TEST(Grippers, ShapeGradientMatchesDifferencesAtAContactState) {
  auto sim = Sdrs();
  const GripperStages stages{.lower = 3, .approach = 12, .lift = 4, .hold = 0};
  GripperObjective objective(*sim, stages, 0.01, 1e4, 10.0, 1.0);
  const VecX x = VecX::Zero(objective.dimension());
  VecX g;
  ASSERT_TRUE(std::isfinite(objective.Evaluate(x, &g)));
  EXPECT_GT(objective.last_rollout().contact_steps(), 5);
  EXPECT_GT(objective.records().back().measures.push, 1e-5) << "the wall pushes the X";
  Rng rng(3);
  const auto ids = RequireDesignVertices(*sim).DesignVertexIds();
  for (int d = 0; d < 3; ++d) {
    VecX w(x.size());
    for (int i = 0; i < w.size(); ++i) {
      const bool middle = ids[static_cast<size_t>(i / 3)].collider == kGripperMiddleBlock;
      w[i] = d == 0 && !middle ? 0.0 : Uniform(rng, -1.0, 1.0);
    }
    w /= w.norm();
    const double h = 1e-6;
    const double fd = (objective.Evaluate(x + h * w, nullptr) - objective.Evaluate(x - h * w, nullptr)) / (2.0 * h);
    EXPECT_NEAR(g.dot(w), fd, 1e-5 * std::max(1e-3, std::abs(fd))) << "direction " << d;
    EXPECT_GT(std::abs(fd), 1e-5) << "direction " << d << ": the shape moves the loss";
  }
}

// The claim's physics: with the start design the wall pushes the X along the table and lifts
// without it; with the middle block collapsed onto the back face the arm enters and the block
// under it carries the X up. No hull pair touches in either.
TEST(Grippers, StartPushesTheXAndAHoleLiftsIt) {
  auto sim = Sdrs();
  Simulator& ip = *sim;
  GripperObjective start(ip, {}, 0.01, 1e4, 10.0, 1.0);
  ASSERT_TRUE(std::isfinite(start.Evaluate(VecX::Zero(start.dimension()), nullptr)));
  const GripperMeasures pushed = start.records().back().measures;
  EXPECT_FALSE(pushed.held);
  EXPECT_LT(pushed.rise_m, 0.01);
  EXPECT_GT(pushed.push, 1e-3);
  EXPECT_NEAR(HoleDepth(ip, ip.DesignParameters()), 0.0, 1e-15);

  auto fresh = Sdrs();
  Simulator& holed = *fresh;
  holed.SetDesignParameters(HoleDesign(holed));
  EXPECT_NEAR(HoleDepth(holed, holed.DesignParameters()), kGripperThickness, 1e-15);
  GripperObjective hole(holed, {}, 0.01, 1e4, 10.0, 1.0);
  ASSERT_TRUE(std::isfinite(hole.Evaluate(VecX::Zero(hole.dimension()), nullptr)));
  const GripperMeasures lifted = hole.records().back().measures;
  EXPECT_TRUE(lifted.held) << "rise " << lifted.rise_m;
  EXPECT_LT(lifted.push, 1e-5);
  EXPECT_LT(lifted.lift, 0.5 * pushed.lift);
  EXPECT_GT(MinimumHullDistance(holed, hole.last_rollout().states), 0.0);
}

TEST(Grippers, DesignBoxLetsBlocksGoBackThroughTheWall) {
  auto sim = Sdrs();
  GripperObjective objective(*sim, {}, 0.01, 1e4, 1.0, 1.0);
  ASSERT_EQ(objective.dimension(), 216);
  EXPECT_DOUBLE_EQ(objective.upper()[0], kGripperDesignReach);
  EXPECT_DOUBLE_EQ(objective.upper()[1], kGripperDesignReachBack);
  EXPECT_DOUBLE_EQ(objective.lower()[1], -kGripperDesignReach);
  EXPECT_DOUBLE_EQ(objective.upper()[2], kGripperDesignReach);
  EXPECT_EQ(objective.DesignOf(VecX::Zero(216)), sim->DesignParameters());
}

const char* kConfig =
    "models = [\"sdrs\"]\n"
    "timestep_s = 0.01\n"
    "lower_steps = 10\n"
    "approach_steps = 25\n"
    "lift_steps = 25\n"
    "hold_steps = 10\n"
    "iterations = 2\n"
    "learning_rate = 1e-2\n"
    "adam_beta1 = 0.9\n"
    "adam_beta2 = 0.999\n"
    "adam_epsilon = 1e-2\n"
    "push_weight = 10\n"
    "lift_weight = 1\n"
    "friction = 0.2\n"
    "design = \"\"\n"
    "[quick.options.sdrs]\n"
    "x0 = 0.005\n";

TEST(Grippers, ExpandsTheShapeCaseAndChecksKeys) {
  const Sweep sweep = GrippersExperiment().Expand(QuickConfig("grippers", kConfig), {"sdrs", "ipc", "mujoco"});
  ASSERT_EQ(sweep.cases.size(), 1u);  // ipc has no design derivatives, mujoco no contact potential
  EXPECT_EQ(sweep.cases[0].id, "sdrs/codesign");
  EXPECT_EQ(sweep.cases[0].model_options.at("design_colliders"), kGripperBlockPrefix);
  std::string bad = kConfig;
  bad.replace(bad.find("friction = 0.2"), 14, "friction = -1");
  EXPECT_THAT(InvalidArgumentMessage([&] { GrippersExperiment().Expand(QuickConfig("grippers", bad), {"sdrs"}); }),
              HasSubstr("friction"));
  std::string missing = kConfig;
  missing.replace(missing.find("design = \"\""), 11, "design = \"/no/such/jaw.obj\"");
  EXPECT_THAT(InvalidArgumentMessage([&] { GrippersExperiment().Expand(QuickConfig("grippers", missing), {"sdrs"}); }),
              HasSubstr("/no/such/jaw.obj"));
}

// A run, then a run from the hole design as a file (--set design=...): its start is the file's
// design, which holds the X from iteration 0.
TEST(Grippers, RunsAndStartsFromADesignFile) {
  const GrippersExperiment e;
  const Case c = e.Expand(QuickConfig("grippers", kConfig), {"sdrs"}).cases.at(0);
  const std::vector<Row> rows = e.Run(c);
  int iterations = 0, design = 0, path = 0;
  const Row* last = nullptr;
  for (const Row& r : rows) {
    const std::string record = std::get<std::string>(r.at("record"));
    if (record == "iteration") ++iterations, last = &r;
    design += record == "design";
    path += record == "path";
  }
  ASSERT_EQ(iterations, 3);
  EXPECT_EQ(design, 2 * 72);
  EXPECT_EQ(path, 2 * 71);
  EXPECT_GT(RowNumber(*last, "min_distance_m"), 0.0);
  EXPECT_EQ(RowNumber(*last, "initial_held"), 0.0);
  EXPECT_LE(RowNumber(*last, "best_loss"), RowNumber(rows.front(), "loss"));

  auto sim = Sdrs();
  const VecX hole = HoleDesign(*sim);
  const auto ids = RequireDesignVertices(*sim).DesignVertexIds();
  const testing::ScratchDir scratch;
  const std::string& dir = scratch.path();
  {
    std::ofstream obj(dir + "/hole.obj");
    for (size_t k = 0; k < ids.size(); ++k) {
      if (ids[k].vertex == 0) obj << "o " << ids[k].collider << "\n";
      obj << "v " << hole[3 * k] << " " << hole[3 * k + 1] << " " << hole[3 * k + 2] << "\n";
    }
  }
  EXPECT_LT((DesignFromFile(*sim, dir + "/hole.obj") - hole).lpNorm<Eigen::Infinity>(), 1e-15);
  std::string config = kConfig;
  config.replace(config.find("design = \"\""), 11, "design = \"" + dir + "/hole.obj\"");
  config.replace(config.find("iterations = 2"), 14, "iterations = 1");
  const std::vector<Row> again = e.Run(e.Expand(QuickConfig("grippers", config), {"sdrs"}).cases.at(0));
  EXPECT_EQ(RowNumber(again.front(), "held"), 1.0) << "the hole holds from the start";
  EXPECT_NEAR(RowNumber(again.front(), "hole_depth_m"), kGripperThickness, 1e-15);
}

TEST(Grippers, SummarizesTheClaim) {
  const ResultTable t = ResultTable::ParseCsv(
      "model,variant,record,iterations,loss,best_loss,hole_depth_m,best_held,initial_held,initial_rise_m,"
      "optimised_held,optimised_rise_m,min_distance_m,failure\n"
      "sdrs,codesign,iteration,1,0.04,0.04,0,0,,,,,,\n"
      "sdrs,codesign,iteration,1,0.002,0.002,0.09,1,0,0.001,1,0.12,3e-4,\n",
      "table");
  const std::vector<ClaimResult> claims = GrippersExperiment().Summarize(t);
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(claims[0].id, "grippers.topology_success");
  EXPECT_EQ(claims[0].ours, 1.0);
  EXPECT_EQ(claims[0].values.at("without_hole"), 0.0);
  EXPECT_DOUBLE_EQ(claims[0].values.at("loss_ratio"), 0.05);
  EXPECT_DOUBLE_EQ(claims[0].values.at("hole_depth_m"), 0.09);
  EXPECT_THAT(claims[0].note, HasSubstr("lifts the X by 0.12 m"));
  // A failed run measures nothing.
  const ResultTable failed = ResultTable::ParseCsv(
      "model,variant,record,iterations,loss,best_loss,failure\nsdrs,codesign,iteration,1,inf,inf,diverged\n", "t");
  EXPECT_TRUE(GrippersExperiment().Summarize(failed).empty());
}

}  // namespace grippers_test
}  // namespace arena
