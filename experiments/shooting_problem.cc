#include "experiments/shooting_problem.h"

#include <cmath>
#include <limits>

#include "core/common/error.h"
#include "core/common/strings.h"
#include "models/nimble/nimble.h"
#include "scenes/nimble_robots.h"

namespace arena {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

ShootingTask Cartpole(int poles) {
  ShootingTask t;
  t.name = poles == 1 ? "cartpole" : "double_cartpole";
  t.scene = poles == 1 ? CartpoleScene() : DoubleCartpoleScene();
  t.timestep = 0.01;  // Nimble's cartpole.py (10x DART's default)
  t.steps = 200;
  t.start = DefaultState(*t.scene);  // q = [1, 1(, 0)], v = 0
  const int nv = t.scene->model.nv();
  t.q_target = VecX::Zero(nv);
  t.q_weight = VecX::Ones(nv);
  t.v_weight = VecX::Ones(nv);
  return t;
}

ShootingTask Catapult() {
  ShootingTask t;
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
  t.q_target = VecX::Zero(nv);
  t.q_target.head<2>() << 1.0, 0.5;  // the projectile's (x, y) at step T (m)
  t.q_weight = VecX::Zero(nv);
  t.q_weight.head<2>().setOnes();
  t.v_weight = VecX::Zero(nv);
  t.control_weight = 1e-4;  // at most 1e-4 m^2 when every torque saturates: far below the threshold
  return t;
}

}  // namespace

const std::vector<std::string>& ShootingTaskNames() {
  static const std::vector<std::string> names = {"cartpole", "double_cartpole", "catapult"};
  return names;
}

ShootingTask MakeShootingTask(const std::string& name) {
  if (name == "cartpole") return Cartpole(1);
  if (name == "double_cartpole") return Cartpole(2);
  if (name == "catapult") return Catapult();
  throw InvalidArgument("unknown trajectory optimisation problem '" + name + "'; valid: " + Join(ShootingTaskNames()));
}

ShootingProblem::ShootingProblem(ShootingTask task, std::unique_ptr<NimbleSimulator> sim)
    : task_(std::move(task)), sim_(std::move(sim)), states_(task_.steps + 1) {
  if (sim_ == nullptr) throw InvalidArgument("ShootingProblem: no simulator");
  if (task_.scene->model.nq() != task_.scene->model.nv()) {
    throw InvalidArgument("ShootingProblem: " + task_.name + " needs nq = nv");
  }
  const std::vector<Actuator>& actuators = task_.scene->actuators;
  nu_ = static_cast<int>(actuators.size());
  lower_.resize(num_controls());
  upper_.resize(num_controls());
  for (int t = 0; t < task_.steps; ++t) {
    for (int k = 0; k < nu_; ++k) {
      lower_[t * nu_ + k] = actuators[k].ctrl_lower;
      upper_[t * nu_ + k] = actuators[k].ctrl_upper;
    }
  }
}

ShootingProblem::~ShootingProblem() = default;

Control ShootingProblem::ControlAt(const VecX& u, int t) const { return Control{u.segment(t * nu_, nu_)}; }

bool ShootingProblem::Forward(const VecX& u) {
  ++rollouts_;
  states_[0] = task_.start;
  for (int t = 0; t < task_.steps; ++t) {
    states_[t + 1] = states_[t];
    if (!sim_->Step(states_[t + 1], ControlAt(u, t)).ok()) return false;
  }
  return states_.back().q.allFinite() && states_.back().v.allFinite();
}

double ShootingProblem::Loss(const VecX& u) {
  if (!Forward(u)) return kInf;
  const State& end = states_.back();
  double loss = (task_.q_weight.array() * (end.q - task_.q_target).array().square()).sum() +
                (task_.v_weight.array() * end.v.array().square()).sum();
  if (task_.control_weight > 0.0) {
    // Scaled by the (finite) limits of these scenes' actuators.
    loss += task_.control_weight * (u.array() / upper_.array()).square().mean();
  }
  return std::isfinite(loss) ? loss : kInf;
}

double ShootingProblem::LossAndGradient(const VecX& u, VecX* gradient) {
  const double loss = Loss(u);
  if (!std::isfinite(loss)) return loss;
  ++backward_passes_;
  const State& end = states_.back();
  VecX lq = 2.0 * task_.q_weight.cwiseProduct(end.q - task_.q_target);
  VecX lv = 2.0 * task_.v_weight.cwiseProduct(end.v);
  VecX lu;
  gradient->resize(num_controls());
  for (int t = task_.steps - 1; t >= 0; --t) {
    sim_->Backprop(states_[t], ControlAt(u, t), lq, lv, &lq, &lv, &lu);
    gradient->segment(t * nu_, nu_) = lu;
  }
  if (task_.control_weight > 0.0) {
    *gradient += (2.0 * task_.control_weight / num_controls()) * u.cwiseQuotient(upper_.cwiseAbs2());
  }
  return loss;
}

}  // namespace arena
