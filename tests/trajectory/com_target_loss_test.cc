// Seed 004's task loss (trajectory/com_target_loss.h): its gradient against central differences
// in the free joints' tangent coordinates, the flat hinge inside the tolerance, and the paper's
// central point on the billiards (Sec. 6, Fig. 5): from the trivial initialisation (the cue
// ball at rest, far from the rack) the loss gradient with respect to the cue ball is exactly
// zero through ipc, whose barrier does not reach the rack, and non-zero through longrange.
#include "trajectory/com_target_loss.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/math/so3.h"
#include "core/multibody/configuration.h"
#include "core/scene/scene_builder.h"
#include "models/registry.h"
#include "scenes/longrange_scenes.h"
#include "trajectory/rollout.h"
#include "trajectory/trajectory_backprop.h"

namespace arena {
namespace com_target_loss_test {

std::shared_ptr<const Scene> TwoBodies() {
  SceneBuilder b("two");
  SpatialInertia offset = SpatialInertia::SolidBox(2.0, Vec3(0.1, 0.2, 0.3));
  offset = SpatialInertia(2.0, Vec3(0.05, -0.02, 0.1), offset.inertia_com());
  b.AddFreeBody("a", offset, SE3(ExpSO3(Vec3(0.3, -0.2, 0.5)), Vec3(0.4, 0.1, 0.2)));
  b.AddFreeBody("b", SpatialInertia::SolidSphere(1.0, 0.1), SE3::FromTranslation(Vec3(-1, 0, 0)));
  return b.Build();
}

TEST(ComTargetLoss, GradientMatchesCentralDifferences) {
  auto scene = TwoBodies();
  ComTargetLoss loss;
  loss.bodies = {0, 1};
  loss.targets = {Vec3(1.0, -0.5, 0.3), Vec3(-1.0, 0.02, 0.0)};
  loss.tolerance = 0.05;  // body b is within it: its hinge is flat
  const std::vector<State> states = {DefaultState(*scene)};
  TrajectoryLossGradient g;
  loss.Gradient(*scene, states, VecX(), &g);
  ASSERT_EQ(g.q.size(), 1u);
  const double h = 1e-6;
  for (int i = 0; i < scene->nv(); ++i) {
    VecX d = VecX::Zero(scene->nv());
    d[i] = h;
    std::vector<State> plus = states, minus = states;
    plus[0].q = Integrate(scene->model, states[0].q, d);
    minus[0].q = Integrate(scene->model, states[0].q, -d);
    const double fd = (loss.Value(*scene, plus, VecX()) - loss.Value(*scene, minus, VecX())) / (2 * h);
    EXPECT_NEAR(g.q[0][i], fd, 1e-7) << "dof " << i;
  }
  EXPECT_TRUE(g.q[0].tail<6>().isZero());  // inside the tolerance
  EXPECT_GT(g.q[0].head<6>().norm(), 0.1);
}

TEST(ComTargetLoss, RefusesBodiesThatAreNotFree) {
  auto scene = TwoBodies();
  ComTargetLoss loss;
  loss.bodies = {2};
  loss.targets = {Vec3::Zero()};
  EXPECT_NE(loss.Validate(*scene), "");
  loss.bodies = {0, 1};
  EXPECT_NE(loss.Validate(*scene), "");  // two bodies, one target
}

// The cue ball's part (its 6 tangent and 6 velocity entries) of dL/d(start state), L pulling
// the rack's apex ball 1 m along -y, after `steps` frames of dt 0.04 s.
VecX CueGradient(const std::string& model, OptionMap options, int steps) {
  auto scene = BilliardsScene();
  int cue = -1, apex = -1;
  for (int b = 0; b < scene->model.num_bodies(); ++b) {
    if (scene->model.body(b).name == "cue") cue = b;
  }
  apex = cue == 0 ? 1 : 0;
  EXPECT_GE(cue, 0);
  auto sim = MakeSimulator(model, scene, options);
  const State start = DefaultState(*scene);
  Rollout rollout;
  RunRollout(*sim, start, VecX(), steps, &rollout);
  EXPECT_TRUE(rollout.ok()) << rollout.failure;
  ComTargetLoss loss;
  loss.bodies = {apex};
  const int i = scene->model.body(apex).idx_q;
  loss.targets = {Vec3(start.q[i], start.q[i + 1] - 1.0, start.q[i + 2])};
  TrajectoryLossGradient g;
  loss.Gradient(*scene, rollout.states, VecX(), &g);
  TrajectoryGradient grad;
  BackpropagateTrajectory(*sim, rollout, VecX(), g, &grad);
  const int v = scene->model.body(cue).idx_v;
  VecX out(12);
  out << grad.q0.segment<6>(v), grad.v0.segment<6>(v);
  return out;
}

TEST(ComTargetLoss, TrivialBilliardsGradientIsZeroForIpcAndNotForLongrange) {
  // Coarse balls (24 vertices, as the IP models' gradcheck on ball_pair) keep it a few seconds.
  const VecX ipc = CueGradient("ipc", {{"sphere_vertices", "24"}}, 2);
  EXPECT_TRUE(ipc.isZero(0.0)) << ipc.transpose();  // exactly zero: no barrier reaches the rack
  const VecX longrange = CueGradient("longrange", {{"mu", "1e-7"}, {"sphere_vertices", "24"}}, 2);
  EXPECT_GT(longrange.norm(), 0.0) << longrange.transpose();
  std::printf("billiards, trivial initialisation, |dL/d(cue ball start)|: ipc %g, longrange %g\n", ipc.norm(),
              longrange.norm());
}

}  // namespace com_target_loss_test
}  // namespace arena
