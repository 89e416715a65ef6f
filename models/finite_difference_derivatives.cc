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

StepDerivatives FiniteDifferenceStepDerivatives(Simulator& sim, const State& state,
                                                const Control& control, const FdOptions& options,
                                                bool design_columns) {
  // A copy: SetDesignParameters may replace the scene that sim.scene() refers to.
  const MultibodyModel model = sim.scene().model;
  const int nv = model.nv(), nu = sim.scene().nu();
  const VecX u0 = control.u.size() == 0 ? VecX::Zero(nu) : control.u;

  auto step = [&](const State& s, const VecX& u) {
    State out = s;
    const StepReport r = sim.Step(out, Control{u});
    if (!r.ok()) {
      out.q.setConstant(std::numeric_limits<double>::quiet_NaN());
      out.v.setConstant(std::numeric_limits<double>::quiet_NaN());
    }
    return out;
  };
  const State nominal = step(state, u0);
  // Output in local coordinates: [Difference(q+_0, q+); v+ - v+_0].
  auto local = [&](const State& s) {
    VecX y(2 * nv);
    y << Difference(model, nominal.q, s.q), s.v - nominal.v;
    return y;
  };
  const int n = 2 * nv + nu;
  const LocalFunction f = [&](const VecX& dx) {
    State s = state;
    s.q = Integrate(model, state.q, dx.head(nv));
    s.v = state.v + dx.segment(nv, nv);
    return local(step(s, u0 + dx.tail(nu)));
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
      return local(step(state, u0));
    };
    MatX Jp;
    try {
      Jp = FiniteDifferenceJacobian(g, static_cast<int>(p0.size()), options).jacobian *
           scale.cwiseInverse().asDiagonal();
    } catch (...) {
      sim.SetDesignParameters(p0);
      throw;
    }
    sim.SetDesignParameters(p0);
    d.dq_dp = Jp.topRows(nv);
    d.dv_dp = Jp.bottomRows(nv);
  }
  return d;
}

VecX FiniteDifferenceDesignDirection(Simulator& sim, const State& state, const Control& control, const VecX& direction,
                                     const FdOptions& options) {
  const MultibodyModel model = sim.scene().model;
  const VecX p0 = sim.DesignParameters();
  if (direction.size() != p0.size()) {
    throw InvalidArgument("FiniteDifferenceDesignDirection: a direction of " + std::to_string(direction.size()) +
                          " entries for " + std::to_string(p0.size()) + " design parameters");
  }
  const int nv = model.nv();
  const VecX u0 = control.u.size() == 0 ? VecX::Zero(sim.scene().nu()) : control.u;
  auto step = [&](const VecX& p) {
    sim.SetDesignParameters(p);
    State out = state;
    if (!sim.Step(out, Control{u0}).ok()) {
      out.q.setConstant(std::numeric_limits<double>::quiet_NaN());
      out.v.setConstant(std::numeric_limits<double>::quiet_NaN());
    }
    return out;
  };
  const State nominal = step(p0);
  const LocalFunction f = [&](const VecX& h) {
    const State s = step(p0 + h[0] * direction);
    VecX y(2 * nv);
    y << Difference(model, nominal.q, s.q), s.v - nominal.v;
    return y;
  };
  VecX d;
  try {
    d = FiniteDifferenceJacobian(f, 1, options).jacobian.col(0);
  } catch (...) {
    sim.SetDesignParameters(p0);
    throw;
  }
  sim.SetDesignParameters(p0);
  return d;
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
