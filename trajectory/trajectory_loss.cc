#include "trajectory/trajectory_loss.h"

#include <cmath>

#include "core/common/error.h"

namespace arena {

bool HasVectorConfiguration(const Scene& scene) {
  for (const auto& body : scene.model.bodies()) {
    const JointType t = body.joint.type;
    if (t != JointType::kRevolute && t != JointType::kPrismatic && t != JointType::kFixed) return false;
  }
  return true;
}

namespace {

void CheckSizes(const TerminalStateLoss& loss, const Scene& scene, const std::vector<State>& states,
                const VecX& controls) {
  if (!HasVectorConfiguration(scene)) {
    throw InvalidArgument("TerminalStateLoss: scene '" + scene.name +
                          "' has ball, planar or free joints; the loss needs revolute and prismatic joints");
  }
  const int nv = scene.nv();
  if (loss.q_target.size() != nv || loss.q_weight.size() != nv || loss.v_weight.size() != nv) {
    throw InvalidArgument("TerminalStateLoss: q_target, q_weight and v_weight need nv = " + std::to_string(nv) +
                          " entries");
  }
  if (states.empty()) throw InvalidArgument("TerminalStateLoss: no states");
  if (loss.control_weight > 0.0 && loss.control_scale.size() != controls.size()) {
    throw InvalidArgument("TerminalStateLoss: control_scale needs one entry per control");
  }
}

}  // namespace

double TerminalStateLoss::Value(const Scene& scene, const std::vector<State>& states, const VecX& controls) const {
  CheckSizes(*this, scene, states, controls);
  const State& end = states.back();
  double loss = (q_weight.array() * (end.q - q_target).array().square()).sum() +
                (v_weight.array() * end.v.array().square()).sum();
  if (control_weight > 0.0) loss += control_weight * (controls.array() / control_scale.array()).square().mean();
  return loss;
}

void TerminalStateLoss::Gradient(const Scene& scene, const std::vector<State>& states, const VecX& controls,
                                 TrajectoryLossGradient* g) const {
  CheckSizes(*this, scene, states, controls);
  const State& end = states.back();
  g->q.assign(states.size(), VecX());
  g->v.assign(states.size(), VecX());
  g->q.back() = 2.0 * q_weight.cwiseProduct(end.q - q_target);
  g->v.back() = 2.0 * v_weight.cwiseProduct(end.v);
  if (control_weight > 0.0) {
    g->u = (2.0 * control_weight / controls.size()) * controls.cwiseQuotient(control_scale.cwiseAbs2());
  } else {
    g->u.resize(0);
  }
}

void TerminalStateLoss::TerminalResiduals(const State& end, VecX* r, MatX* dr_dx) const {
  const int nv = static_cast<int>(q_weight.size());
  if (end.q.size() != nv || end.v.size() != nv) {
    throw InvalidArgument("TerminalStateLoss: the state does not have nv = " + std::to_string(nv) + " entries");
  }
  const VecX sq = q_weight.cwiseSqrt(), sv = v_weight.cwiseSqrt();
  r->resize(2 * nv);
  *r << sq.cwiseProduct(end.q - q_target), sv.cwiseProduct(end.v);
  dr_dx->setZero(2 * nv, 2 * nv);
  dr_dx->diagonal() << sq, sv;
}

VecX TerminalStateLoss::ControlResidualScale(int num_controls) const {
  if (!(control_weight > 0.0)) return {};
  if (control_scale.size() != num_controls) {
    throw InvalidArgument("TerminalStateLoss: control_scale needs one entry per control");
  }
  return std::sqrt(control_weight / num_controls) * control_scale.cwiseInverse();
}

}  // namespace arena
