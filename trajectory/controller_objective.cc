#include "trajectory/controller_objective.h"

#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "core/common/error.h"

namespace arena {

ControllerObjective::ControllerObjective(Objective& inner, SineWaveControls controller)
    : inner_(inner), controller_(std::move(controller)) {
  rest_ = inner_.dimension() - controller_.num_controls();
  if (rest_ < 0) {
    throw InvalidArgument("controller objective: the inner objective has " + std::to_string(inner_.dimension()) +
                          " variables, fewer than the controller's " + std::to_string(controller_.num_controls()) +
                          " controls (steps x actuators)");
  }
}

VecX ControllerObjective::InnerVariables(const VecX& x) const {
  if (x.size() != dimension()) {
    throw InvalidArgument("controller objective: " + std::to_string(x.size()) + " variables, expected " +
                          std::to_string(dimension()));
  }
  const int np = controller_.num_parameters();
  VecX y(inner_.dimension());
  y.head(controller_.num_controls()) = controller_.Controls(x.head(np));
  y.tail(rest_) = x.tail(rest_);
  return y;
}

double ControllerObjective::Evaluate(const VecX& x, VecX* gradient) {
  const VecX y = InnerVariables(x);
  const double f = inner_.Evaluate(y, gradient != nullptr ? &inner_gradient_ : nullptr);
  if (gradient != nullptr && std::isfinite(f)) {
    const int np = controller_.num_parameters();
    gradient->resize(dimension());
    gradient->head(np) = controller_.Pullback(x.head(np), inner_gradient_.head(controller_.num_controls()));
    gradient->tail(rest_) = inner_gradient_.tail(rest_);
  }
  return f;
}

VecX ControllerObjective::Bounds(const VecX& inner, double infinity) const {
  if (inner.size() == 0) return {};
  VecX b(dimension());
  b.head(controller_.num_parameters()).setConstant(infinity);
  b.tail(rest_) = inner.tail(rest_);
  return b;
}

VecX ControllerObjective::lower() const { return Bounds(inner_.lower(), -std::numeric_limits<double>::infinity()); }
VecX ControllerObjective::upper() const { return Bounds(inner_.upper(), std::numeric_limits<double>::infinity()); }

}  // namespace arena
