// The contact RRT (trajectory/contact_rrt.h) on silico and the grasp problem
// (experiments/grasp/grasp_task.h): the metric's pieces (mu is the held step, B its Jacobian, Sigma^-1 the regularised inverse), an extension moves the
// linearised object towards the subgoal, a goal the start already reaches ends the plan at once,
// the same seed gives the same tree, and bad problems are refused.
#include "trajectory/contact_rrt.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>

#include "core/common/error.h"
#include "experiments/grasp/grasp_task.h"
#include "models/registry.h"
#include "scenes/silico_scenes.h"
#include "trajectory/quasi_static_step.h"

namespace arena {
namespace grasp_planner_test {

struct Models {
  std::shared_ptr<const Scene> scene = GraspScene();
  std::unique_ptr<Simulator> dynamics = MakeSimulator("silico", scene, {{"timestep", "0.05"}});
  std::unique_ptr<Simulator> smoothed = MakeSimulator("silico", scene, {{"timestep", "0.05"}, {"rho", "3e-3"}});
};

// The fingers touching the star's flanks: B is not zero there.
VecX Touching(const Scene& scene) {
  VecX q = DefaultState(scene).q;
  q.segment<2>(3) << 0.75, 0.45;
  q.segment<2>(6) << 1.25, 0.45;
  return q;
}

TEST(ContactRrt, MetricIsTheHeldStepAndItsJacobian) {
  Models m;
  ContactRrt rrt(*m.dynamics, *m.smoothed, GraspProblem(*m.scene), {});
  const VecX q = Touching(*m.scene);
  RrtNode node;
  ASSERT_TRUE(rrt.Metric(q, &node));
  const QuasiStaticResult held = QuasiStaticStep(*m.smoothed, q, q.tail<6>(), 1, true);
  ASSERT_TRUE(held.ok);
  EXPECT_LE((node.mu - held.q.head<3>()).norm(), 1e-12);
  EXPECT_LE((node.B - held.dq_du.topRows<3>()).norm(), 1e-12);
  EXPECT_GT(node.B.norm(), 1e-2);
  const MatX sigma = node.B * node.B.transpose() + 3e-3 * MatX::Identity(3, 3);
  EXPECT_LE((node.sigma_inv * sigma - MatX::Identity(3, 3)).norm(), 1e-9);
  const Vec3 s(1.1, 0.5, 0.2);
  EXPECT_NEAR(rrt.Distance(node, s), 0.5 * (s - node.mu).dot(node.sigma_inv * (s - node.mu)), 1e-12);
}

TEST(ContactRrt, AnExtensionMovesTheLinearisedObjectTowardsTheSubgoal) {
  Models m;
  ContactRrt rrt(*m.dynamics, *m.smoothed, GraspProblem(*m.scene), {});
  RrtNode node;
  ASSERT_TRUE(rrt.Metric(Touching(*m.scene), &node));
  const Vec3 s = node.mu + Vec3(0.05, 0.1, 0.0);  // lift the star
  const VecX u = rrt.ExtensionControls(node, s);
  const VecX du = u - node.q.tail<6>();
  EXPECT_NEAR(du.norm(), 0.2, 1e-3);  // the extension step
  const VecX predicted = node.mu + node.B * du;
  EXPECT_LT((predicted - s).norm(), (node.mu - s).norm());
}

TEST(ContactRrt, AGoalTheStartReachesEndsThePlanAtOnce) {
  Models m;
  ContactRrtProblem problem = GraspProblem(*m.scene);
  RrtNode start;
  ContactRrt probe(*m.dynamics, *m.smoothed, problem, {});
  ASSERT_TRUE(probe.Metric(DefaultState(*m.scene).q, &start));
  problem.goal = start.mu;  // where the resting star stays
  ContactRrtOptions options;
  options.goal_probability = 1.0;
  options.contact_probability = 0.0;
  ContactRrt rrt(*m.dynamics, *m.smoothed, problem, options);
  const ContactRrtResult r = rrt.Plan(DefaultState(*m.scene).q);
  EXPECT_TRUE(r.success);
  EXPECT_EQ(r.iterations, 0);  // the start's own metric reaches the goal: no iteration runs
  EXPECT_EQ(r.nodes.size(), 1u);
  EXPECT_LE(r.goal_distance, options.goal_distance);
  EXPECT_EQ(r.path, std::vector<int>{0});
}

TEST(ContactRrt, TheSameSeedGrowsTheSameTree) {
  Models m;
  ContactRrtOptions options;
  options.iterations = 20;
  options.seed = 5;
  ContactRrt a(*m.dynamics, *m.smoothed, GraspProblem(*m.scene), options);
  ContactRrt b(*m.dynamics, *m.smoothed, GraspProblem(*m.scene), options);
  const ContactRrtResult ra = a.Plan(DefaultState(*m.scene).q), rb = b.Plan(DefaultState(*m.scene).q);
  ASSERT_EQ(ra.nodes.size(), rb.nodes.size());
  EXPECT_GT(ra.nodes.size(), 3u);
  for (size_t i = 0; i < ra.nodes.size(); ++i) EXPECT_EQ(ra.nodes[i].q, rb.nodes[i].q) << "node " << i;
}

// The paper's disk fingertips: silico's smoothed solve stalls already at the start (see
// experiments/grasp/README.md); the plan says so instead of throwing.
TEST(ContactRrt, AStartWithoutAMetricIsAFailedPlan) {
  const std::shared_ptr<const Scene> scene = GraspScene({.disk_fingertips = true});
  std::unique_ptr<Simulator> dynamics = MakeSimulator("silico", scene, {{"timestep", "0.05"}});
  std::unique_ptr<Simulator> smoothed = MakeSimulator("silico", scene, {{"timestep", "0.05"}, {"rho", "3e-3"}});
  ContactRrt rrt(*dynamics, *smoothed, GraspProblem(*scene), {});
  const ContactRrtResult r = rrt.Plan(DefaultState(*scene).q);
  EXPECT_FALSE(r.success);
  EXPECT_TRUE(r.nodes.empty());
  EXPECT_TRUE(r.path.empty());
  EXPECT_EQ(r.failed_metrics, 1);
  EXPECT_THAT(r.first_failure, ::testing::HasSubstr("cannot step from the start"));
}

TEST(ContactRrt, RefusesInconsistentProblems) {
  Models m;
  ContactRrtProblem problem = GraspProblem(*m.scene);
  problem.actuated.pop_back();
  EXPECT_THROW(ContactRrt(*m.dynamics, *m.smoothed, problem, {}), InvalidArgument);
  problem = GraspProblem(*m.scene);
  problem.goal = VecX::Zero(2);
  EXPECT_THROW(ContactRrt(*m.dynamics, *m.smoothed, problem, {}), InvalidArgument);
  ContactRrtOptions options;
  options.extension = 0.0;
  EXPECT_THROW(ContactRrt(*m.dynamics, *m.smoothed, GraspProblem(*m.scene), options), InvalidArgument);
}

}  // namespace grasp_planner_test
}  // namespace arena
