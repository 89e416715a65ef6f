#include "trajectory/running_state_loss.h"

#include "core/common/error.h"

namespace arena {

namespace {

void CheckSizes(const RunningStateLoss& loss, const Scene& scene, const std::vector<State>& states) {
  if (!HasVectorConfiguration(scene)) {
    throw InvalidArgument("RunningStateLoss: scene '" + scene.name +
                          "' has ball, planar or free joints; the loss needs revolute and prismatic joints");
  }
  if (loss.q_target.size() != scene.nv() || loss.q_weight.size() != scene.nv()) {
    throw InvalidArgument("RunningStateLoss: q_target and q_weight need nv = " + std::to_string(scene.nv()) + " entries");
  }
  if (states.size() < 2) throw InvalidArgument("RunningStateLoss: a rollout of at least one step needed");
}

// Accumulates `term` into `sum`, either of which may be empty (no entry).
void Add(const VecX& term, VecX* sum) {
  if (term.size() == 0) return;
  if (sum->size() == 0) {
    *sum = term;
  } else {
    *sum += term;
  }
}

}  // namespace

double RunningStateLoss::Value(const Scene& scene, const std::vector<State>& states, const VecX&) const {
  CheckSizes(*this, scene, states);
  double sum = 0.0;
  for (size_t t = 1; t < states.size(); ++t) sum += (q_weight.array() * (states[t].q - q_target).array().square()).sum();
  return sum / static_cast<double>(states.size() - 1);
}

void RunningStateLoss::Gradient(const Scene& scene, const std::vector<State>& states, const VecX&,
                                TrajectoryLossGradient* g) const {
  CheckSizes(*this, scene, states);
  const double scale = 2.0 / static_cast<double>(states.size() - 1);
  g->q.assign(states.size(), VecX());
  g->v.assign(states.size(), VecX());
  for (size_t t = 1; t < states.size(); ++t) g->q[t] = scale * q_weight.cwiseProduct(states[t].q - q_target);
  g->u.resize(0);
}

double LossSum::Value(const Scene& scene, const std::vector<State>& states, const VecX& controls) const {
  double sum = 0.0;
  for (const auto& term : terms) sum += term->Value(scene, states, controls);
  return sum;
}

void LossSum::Gradient(const Scene& scene, const std::vector<State>& states, const VecX& controls,
                       TrajectoryLossGradient* g) const {
  g->q.assign(states.size(), VecX());
  g->v.assign(states.size(), VecX());
  g->u.resize(0);
  TrajectoryLossGradient part;
  for (const auto& term : terms) {
    term->Gradient(scene, states, controls, &part);
    for (size_t t = 0; t < states.size(); ++t) {
      Add(part.q[t], &g->q[t]);
      Add(part.v[t], &g->v[t]);
    }
    Add(part.u, &g->u);
  }
}

}  // namespace arena
