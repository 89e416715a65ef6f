#include "trajectory/shooting_objective.h"

#include <cmath>
#include <limits>

#include "core/common/error.h"

namespace arena {

ShootingObjective::ShootingObjective(Simulator& sim, State start, int steps, std::shared_ptr<const TrajectoryLoss> loss,
                                     bool design_variables)
    : sim_(sim), start_(std::move(start)), steps_(steps), loss_(std::move(loss)) {
  if (steps_ <= 0) throw InvalidArgument("ShootingObjective: steps must be > 0");
  if (loss_ == nullptr) throw InvalidArgument("ShootingObjective: no loss");
  const Scene& scene = sim_.scene();
  ValidateState(scene, start_);
  nu_ = scene.nu();
  if (design_variables) {
    if (!sim_.capabilities().design_derivatives) {
      throw Unsupported("ShootingObjective: model '" + std::string(sim_.name()) + "' has no design derivatives");
    }
    np_ = static_cast<int>(sim_.DesignParameters().size());
  }
  lower_.resize(dimension());
  upper_.resize(dimension());
  for (int t = 0; t < steps_; ++t) {
    for (int k = 0; k < nu_; ++k) {
      lower_[t * nu_ + k] = scene.actuators[k].ctrl_lower;
      upper_[t * nu_ + k] = scene.actuators[k].ctrl_upper;
    }
  }
  lower_.tail(np_).setConstant(-std::numeric_limits<double>::infinity());
  upper_.tail(np_).setConstant(std::numeric_limits<double>::infinity());
}

int ShootingObjective::dimension() const { return steps_ * nu_ + np_; }

double ShootingObjective::Evaluate(const VecX& x, VecX* gradient) {
  if (x.size() != dimension()) {
    throw InvalidArgument("ShootingObjective: x has " + std::to_string(x.size()) + " entries, expected " +
                          std::to_string(dimension()));
  }
  controls_ = x.head(steps_ * nu_);
  if (np_ > 0) sim_.SetDesignParameters(x.tail(np_));
  ++rollouts_;
  RunRollout(sim_, start_, controls_, steps_, &rollout_);
  if (!rollout_.ok()) return kInf;
  const double loss = loss_->Value(sim_.scene(), rollout_.states, controls_);
  if (!std::isfinite(loss)) return kInf;
  if (gradient == nullptr) return loss;
  ++backward_passes_;
  loss_->Gradient(sim_.scene(), rollout_.states, controls_, &loss_gradient_);
  BackpropagateTrajectory(sim_, rollout_, controls_, loss_gradient_, &gradient_);
  gradient->resize(dimension());
  gradient->head(steps_ * nu_) = gradient_.controls;
  if (np_ > 0) gradient->tail(np_) = gradient_.design;
  return loss;
}

}  // namespace arena
