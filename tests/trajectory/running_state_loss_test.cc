// The running loss (trajectory/running_state_loss.h): its value is the mean over the horizon,
// its per-state gradient against central differences in every state's coordinates, the first
// state carries no term; LossSum adds values and gradients; bad sizes are refused.
#include "trajectory/running_state_loss.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>

#include "core/common/error.h"
#include "core/common/random.h"
#include "scenes/biped_scenes.h"

namespace arena {
namespace running_state_loss_test {

std::vector<State> RandomStates(const Scene& scene, int count, Rng& rng) {
  std::vector<State> states(count, DefaultState(scene));
  for (State& s : states) {
    for (int i = 0; i < s.q.size(); ++i) s.q[i] += Uniform(rng, -0.3, 0.3);
    for (int i = 0; i < s.v.size(); ++i) s.v[i] = Uniform(rng, -1.0, 1.0);
  }
  return states;
}

RunningStateLoss Held(const Scene& scene) {
  RunningStateLoss loss;
  loss.q_target = DefaultState(scene).q;
  loss.q_weight = VecX::Zero(scene.nv());
  loss.q_weight.head<6>() << 0.0, 0.0, 2.0, 1.0, 3.0, 0.0;  // the biped's height, roll, pitch
  return loss;
}

TEST(RunningStateLoss, IsTheMeanOverTheHorizonAndMatchesDifferences) {
  auto scene = BipedScene();
  Rng rng(11);
  std::vector<State> states = RandomStates(*scene, 5, rng);
  const RunningStateLoss loss = Held(*scene);
  double mean = 0.0;
  for (int t = 1; t < 5; ++t) {
    mean += (loss.q_weight.array() * (states[t].q - loss.q_target).array().square()).sum() / 4.0;
  }
  EXPECT_NEAR(loss.Value(*scene, states, VecX()), mean, 1e-14);
  TrajectoryLossGradient g;
  loss.Gradient(*scene, states, VecX(), &g);
  ASSERT_EQ(g.q.size(), 5u);
  EXPECT_EQ(g.q[0].size(), 0) << "the start is not the optimiser's";
  EXPECT_EQ(g.u.size(), 0);
  const double h = 1e-6;
  for (int t = 1; t < 5; ++t) {
    for (int i = 0; i < scene->nv(); ++i) {
      std::vector<State> plus = states, minus = states;
      plus[t].q[i] += h;
      minus[t].q[i] -= h;
      const double fd = (loss.Value(*scene, plus, VecX()) - loss.Value(*scene, minus, VecX())) / (2.0 * h);
      EXPECT_NEAR(g.q[t][i], fd, 1e-8) << "t " << t << " coordinate " << i;
    }
  }
}

TEST(LossSum, AddsValuesAndGradients) {
  auto scene = BipedScene();
  Rng rng(12);
  const std::vector<State> states = RandomStates(*scene, 4, rng);
  auto running = std::make_shared<RunningStateLoss>(Held(*scene));
  auto terminal = std::make_shared<TerminalStateLoss>();
  terminal->q_target = VecX::Zero(scene->nv());
  terminal->q_weight = VecX::Ones(scene->nv());
  terminal->v_weight = VecX::Constant(scene->nv(), 0.5);
  LossSum sum;
  sum.terms = {terminal, running};
  EXPECT_NEAR(sum.Value(*scene, states, VecX()),
              terminal->Value(*scene, states, VecX()) + running->Value(*scene, states, VecX()), 1e-13);
  TrajectoryLossGradient g, gt, gr;
  sum.Gradient(*scene, states, VecX(), &g);
  terminal->Gradient(*scene, states, VecX(), &gt);
  running->Gradient(*scene, states, VecX(), &gr);
  EXPECT_EQ(g.q[0].size(), 0);
  EXPECT_TRUE(g.q[1].isApprox(gr.q[1]));
  EXPECT_TRUE(g.q[3].isApprox(gt.q[3] + gr.q[3]));
  EXPECT_TRUE(g.v[3].isApprox(gt.v[3]));
  EXPECT_EQ(g.v[2].size(), 0);
}

TEST(RunningStateLoss, RefusesBadSizes) {
  auto scene = BipedScene();
  RunningStateLoss loss = Held(*scene);
  loss.q_weight.resize(3);
  const std::vector<State> states(3, DefaultState(*scene));
  EXPECT_THROW(loss.Value(*scene, states, VecX()), InvalidArgument);
  EXPECT_THROW(Held(*scene).Value(*scene, {DefaultState(*scene)}, VecX()), InvalidArgument);
}

}  // namespace running_state_loss_test
}  // namespace arena
