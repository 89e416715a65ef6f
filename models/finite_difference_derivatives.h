// Step derivatives of any Simulator by finite differences of Step() on the configuration
// manifold: the reference that analytical derivatives are tested against, and the way models
// without analytical derivatives (wrapped engines) provide them.
#pragma once

#include <string>

#include "core/common/options.h"
#include "models/option_ranges.h"
#include "models/simulator.h"
#include "solvers/finite_difference.h"

namespace arena {

/// d(q+, v+)/d(q, v, u) of sim.Step at (state, control): q perturbed as Integrate(q, dq),
/// q+ compared with Difference(q+_0, q+). Steps that fail give NaN columns. A model with design
/// derivatives also gets dq_dp and dv_dp (SetDesignParameters, restored afterwards), unless
/// `design_columns` is false (one column per parameter is out of reach for thousands of them).
StepDerivatives FiniteDifferenceStepDerivatives(Simulator& sim, const State& state,
                                                const Control& control, const FdOptions& options,
                                                bool design_columns = true);

/// d(q+, v+)/dp w of sim.Step at (state, control) along one direction w of the design
/// parameters (size of DesignParameterNames()), by differences of Step at p0 + h w (restored
/// after): [dq+ (tangent at q+); dv+] (2 nv). For models with thousands of design parameters,
/// where a column per parameter is out of reach (`arena gradcheck --design-directions N`).
VecX FiniteDifferenceDesignDirection(Simulator& sim, const State& state, const Control& control, const VecX& direction,
                                     const FdOptions& options);

/// The finite-difference options of a model whose Derivatives() are differences of its Step
/// (the wrapped engines): the keys fd_method, fd_step and fd_ridders_step of its Options.
struct FdStepOptions {
  FdMethod fd_method = FdMethod::kCentral;
  double fd_step = 1e-6;          // forward / central step (tangent coordinates)
  double fd_ridders_step = 1e-2;  // Ridders' initial step (shrunk by 1.4 over 10 rows)

  // Steps below 1e-12 leave only rounding in a difference of unit-scale states; above 0.1 (1 for
  // Ridders, whose tableau shrinks the step 20-fold) they straddle every contact change.
  template <class V>
  void VisitFields(V&& v) {
    v("fd_method", fd_method, "finite differences of Derivatives(): forward, central or ridders", "");
    v("fd_step", fd_step, "forward / central difference step (tangent coordinates)", "", Closed(1e-12, 0.1));
    v("fd_ridders_step", fd_ridders_step, "Ridders' initial step, shrunk by 1.4 over 10 rows", "",
      Closed(1e-12, 1.0));
  }
  /// "" when valid, else the first step outside its range.
  std::string Validate() const;
  FdOptions Fd() const;
};

/// Largest CorrectedRelativeError over the blocks (the design blocks too when present) (a vs reference b).
double MaxStepDerivativeError(const StepDerivatives& a, const StepDerivatives& b, double floor = 1e-6);

}  // namespace arena
