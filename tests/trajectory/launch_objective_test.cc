// LaunchObjective: its gradient with respect to a free body's planar launch is the backward
// pass's dL/d(start state) mapped to (p_x, p_y, v_x, v_y); checked against central differences of
// its own value on a collision (two billiard balls, ipc) and refused for a rotated body.
#include "trajectory/launch_objective.h"

#include <gtest/gtest.h>

#include <memory>

#include "core/common/error.h"
#include "models/registry.h"
#include "scenes/longrange_scenes.h"
#include "trajectory/com_target_loss.h"

namespace arena {
namespace launch_objective_test {

// The left ball launched at the right one (5 mm apart): the right ball's end position depends
// on the launch through the contact.
TEST(LaunchObjective, GradientMatchesCentralDifferencesThroughAContact) {
  auto scene = BallPairScene();
  auto sim = MakeSimulator("ipc", scene, {{"sphere_vertices", "24"}, {"timestep", "0.02"}});
  State start = DefaultState(*scene);
  auto loss = std::make_shared<ComTargetLoss>();
  loss->bodies = {1};
  loss->targets = {Vec3(2.0, 0.3, 0.5)};
  LaunchObjective objective(*sim, start, 0, 10, loss);
  VecX x = objective.Launch();
  x[2] = 1.5;  // towards the right ball
  x[3] = 0.2;
  VecX g;
  const double f = objective.Evaluate(x, &g);
  ASSERT_TRUE(std::isfinite(f));
  ASSERT_EQ(g.size(), 4);
  EXPECT_GT(g.norm(), 0.0);
  for (int i = 0; i < 4; ++i) {
    const double h = 1e-6;
    VecX xp = x, xm = x;
    xp[i] += h;
    xm[i] -= h;
    const double fd = (objective.Evaluate(xp, nullptr) - objective.Evaluate(xm, nullptr)) / (2.0 * h);
    EXPECT_NEAR(g[i], fd, 1e-6 * std::max(1.0, std::abs(fd))) << "entry " << i;
  }
  EXPECT_EQ(objective.evaluations(), 9);  // 1 + 2 per entry
  EXPECT_EQ(objective.gradient_evaluations(), 1);
}

TEST(LaunchObjective, StartAtSetsOnlyThePlanarLaunch) {
  auto scene = BallPairScene();
  auto sim = MakeSimulator("mujoco", scene, {});
  const State start = DefaultState(*scene);
  LaunchObjective objective(*sim, start, 1, 1, std::make_shared<ComTargetLoss>());
  VecX x(4);
  x << 1.0, 2.0, 3.0, 4.0;
  const State s = objective.StartAt(x);
  const int q = scene->model.body(1).idx_q, v = scene->model.body(1).idx_v;
  State expected = start;
  expected.q[q] = 1.0;
  expected.q[q + 1] = 2.0;
  expected.v[v + 3] = 3.0;
  expected.v[v + 4] = 4.0;
  EXPECT_EQ(s.q, expected.q);
  EXPECT_EQ(s.v, expected.v);
  EXPECT_EQ(objective.Launch(), (VecX(4) << start.q[q], start.q[q + 1], 0.0, 0.0).finished());
}

TEST(LaunchObjective, RefusesARotatedBody) {
  auto scene = BallPairScene();
  auto sim = MakeSimulator("mujoco", scene, {});
  State start = DefaultState(*scene);
  const int q = scene->model.body(0).idx_q;
  start.q.segment<4>(q + 3) << std::sqrt(0.5), 0.0, 0.0, std::sqrt(0.5);  // 90 degrees about z
  EXPECT_THROW(LaunchObjective(*sim, start, 0, 1, std::make_shared<ComTargetLoss>()), InvalidArgument);
}

}  // namespace launch_objective_test
}  // namespace arena
