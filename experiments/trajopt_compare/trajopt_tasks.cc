#include "experiments/trajopt_compare/trajopt_tasks.h"

#include "core/common/error.h"
#include "core/common/strings.h"
#include "scenes/nimble_robots.h"

namespace arena {

namespace {

TrajoptTask Cartpole(int poles) {
  TrajoptTask t;
  t.name = poles == 1 ? "cartpole" : "double_cartpole";
  t.scene = poles == 1 ? CartpoleScene() : DoubleCartpoleScene();
  t.timestep = 0.01;  // 10x DART's default, as Nimble's public cartpole example
  t.steps = 200;
  t.start = DefaultState(*t.scene);  // q = [1, 1(, 0)], v = 0
  const int nv = t.scene->model.nv();
  auto loss = std::make_shared<TerminalStateLoss>();
  loss->q_target = VecX::Zero(nv);
  loss->q_weight = VecX::Ones(nv);
  loss->v_weight = VecX::Ones(nv);
  t.loss = std::move(loss);
  return t;
}

TrajoptTask Catapult() {
  TrajoptTask t;
  t.name = "catapult";
  t.scene = CatapultScene();
  t.timestep = 0.001;  // the scene's (DART's default)
  t.steps = 300;
  t.start = DefaultState(*t.scene);
  // The projectile resting on the arm's last segment (its lowest corner 1 mm into the segment's
  // top face, which is tilted by 8 deg; friction 1 holds it). At the scene's default (0, 0) the
  // projectile overlaps that segment and falls freely from the first step: its contacts
  // separate, so the standard gradient of every torque is exactly zero at zero controls.
  t.start.q.head<2>() << -0.05, 0.055;
  const int nv = t.scene->model.nv();
  auto loss = std::make_shared<TerminalStateLoss>();
  loss->q_target = VecX::Zero(nv);
  loss->q_target.head<2>() << 1.0, 0.5;  // the projectile's (x, y) at step T (m)
  loss->q_weight = VecX::Zero(nv);
  loss->q_weight.head<2>().setOnes();
  loss->v_weight = VecX::Zero(nv);
  loss->control_weight = 1e-4;  // at most 1e-4 m^2 when every torque saturates: far below the threshold
  const int nu = t.scene->nu();
  loss->control_scale.resize(t.steps * nu);
  for (int s = 0; s < t.steps; ++s) {
    for (int k = 0; k < nu; ++k) loss->control_scale[s * nu + k] = t.scene->actuators[k].ctrl_upper;
  }
  t.loss = std::move(loss);
  return t;
}

}  // namespace

const std::vector<std::string>& TrajoptTaskNames() {
  static const std::vector<std::string> names = {"cartpole", "double_cartpole", "catapult"};
  return names;
}

TrajoptTask MakeTrajoptTask(const std::string& name) {
  if (name == "cartpole") return Cartpole(1);
  if (name == "double_cartpole") return Cartpole(2);
  if (name == "catapult") return Catapult();
  throw InvalidArgument("unknown trajectory optimisation problem '" + name + "'; valid: " + Join(TrajoptTaskNames()));
}

}  // namespace arena
