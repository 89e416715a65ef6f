#include "models/finite_difference_derivatives.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/common/error.h"
#include "core/multibody/configuration.h"

namespace arena {

std::string FdStepOptions::Validate() const { return CheckRanges(*this); }

FdOptions FdStepOptions::Fd() const {
  FdOptions fd;
  fd.method = fd_method;
  fd.step = fd_step;
  fd.ridders_step = fd_ridders_step;
  return fd;
}

namespace finite_difference_derivatives {

// sim.Step from s under u; a failed step's state NaN, so its differences are NaN columns.
State StepOrNaN(Simulator& sim, const State& s, const VecX& u) {
  State out = s;
  if (!sim.Step(out, Control{u}).ok()) {
    out.q.setConstant(std::numeric_limits<double>::quiet_NaN());
    out.v.setConstant(std::numeric_limits<double>::quiet_NaN());
  }
  return out;
}

// A step's output in local coordinates about the nominal one: [Difference(q+_0, q+); v+ - v+_0].
VecX LocalOutput(const MultibodyModel& model, const State& nominal, const State& s) {
  VecX y(2 * model.nv());
  y << Difference(model, nominal.q, s.q), s.v - nominal.v;
  return y;
}

// The Jacobian of g, which moves the design parameters; they are restored after, thrown or not.
MatX DesignJacobian(Simulator& sim, const LocalFunction& g, int n, const FdOptions& options) {
  const VecX p0 = sim.DesignParameters();
  MatX J;
  try {
    J = FiniteDifferenceJacobian(g, n, options).jacobian;
  } catch (...) {
    sim.SetDesignParameters(p0);
    throw;
  }
  sim.SetDesignParameters(p0);
  return J;
}

}  // namespace finite_difference_derivatives

StepDerivatives FiniteDifferenceStepDerivatives(Simulator& sim, const State& state,
                                                const Control& control, const FdOptions& options,
                                                bool design_columns) {
  using namespace finite_difference_derivatives;
  // A copy: SetDesignParameters may replace the scene that sim.scene() refers to.
  const MultibodyModel model = sim.scene().model;
  const int nv = model.nv(), nu = sim.scene().nu();
  const VecX u0 = control.u.size() == 0 ? VecX::Zero(nu) : control.u;
  const State nominal = StepOrNaN(sim, state, u0);
  const int n = 2 * nv + nu;
  const LocalFunction f = [&](const VecX& dx) {
    State s = state;
    s.q = Integrate(model, state.q, dx.head(nv));
    s.v = state.v + dx.segment(nv, nv);
    return LocalOutput(model, nominal, StepOrNaN(sim, s, u0 + dx.tail(nu)));
  };
  const MatX J = FiniteDifferenceJacobian(f, n, options).jacobian;
  StepDerivatives d;
  d.dq_dq = J.block(0, 0, nv, nv);
  d.dq_dv = J.block(0, nv, nv, nv);
  d.dq_du = J.block(0, 2 * nv, nv, nu);
  d.dv_dq = J.block(nv, 0, nv, nv);
  d.dv_dv = J.block(nv, nv, nv, nv);
  d.dv_du = J.block(nv, 2 * nv, nv, nu);
  if (design_columns && !sim.DesignParameterNames().empty()) {
    // The same step from the same state, with the design parameters moved (restored after).
    // Each moves relative to its own size, p = p0 (1 + z), so that a step never crosses zero: a
    // 1e-6 kg link mass stays positive under Ridders' 1e-5 first step.
    const VecX p0 = sim.DesignParameters();
    const VecX scale = p0.unaryExpr([](double x) { return x != 0.0 ? std::abs(x) : 1.0; });
    const LocalFunction g = [&](const VecX& z) {
      sim.SetDesignParameters(p0 + scale.cwiseProduct(z));
      return LocalOutput(model, nominal, StepOrNaN(sim, state, u0));
    };
    const MatX Jp = DesignJacobian(sim, g, static_cast<int>(p0.size()), options) * scale.cwiseInverse().asDiagonal();
    d.dq_dp = Jp.topRows(nv);
    d.dv_dp = Jp.bottomRows(nv);
  }
  return d;
}

VecX FiniteDifferenceDesignDirection(Simulator& sim, const State& state, const Control& control, const VecX& direction,
                                     const FdOptions& options) {
  using namespace finite_difference_derivatives;
  const MultibodyModel model = sim.scene().model;  // a copy, as above
  const VecX p0 = sim.DesignParameters();
  if (direction.size() != p0.size()) {
    throw InvalidArgument("FiniteDifferenceDesignDirection: a direction of " + std::to_string(direction.size()) +
                          " entries for " + std::to_string(p0.size()) + " design parameters");
  }
  const VecX u0 = control.u.size() == 0 ? VecX::Zero(sim.scene().nu()) : control.u;
  const State nominal = StepOrNaN(sim, state, u0);
  const LocalFunction f = [&](const VecX& h) {
    sim.SetDesignParameters(p0 + h[0] * direction);
    return LocalOutput(model, nominal, StepOrNaN(sim, state, u0));
  };
  return DesignJacobian(sim, f, 1, options).col(0);
}

double MaxStepDerivativeError(const StepDerivatives& a, const StepDerivatives& b, double floor) {
  return std::max({CorrectedRelativeError(a.dq_dq, b.dq_dq, floor),
                   CorrectedRelativeError(a.dq_dv, b.dq_dv, floor),
                   CorrectedRelativeError(a.dq_du, b.dq_du, floor),
                   CorrectedRelativeError(a.dv_dq, b.dv_dq, floor),
                   CorrectedRelativeError(a.dv_dv, b.dv_dv, floor),
                   CorrectedRelativeError(a.dv_du, b.dv_du, floor),
                   CorrectedRelativeError(a.dq_dp, b.dq_dp, floor),
                   CorrectedRelativeError(a.dv_dp, b.dv_dp, floor)});
}

}  // namespace arena
