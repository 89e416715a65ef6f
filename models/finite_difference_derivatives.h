// Step derivatives of any Simulator by finite differences of Step() on the configuration
// manifold: the reference that analytical derivatives are tested against, and the way models
// without analytical derivatives (wrapped engines) provide them.
#pragma once

#include "models/simulator.h"
#include "solvers/finite_difference.h"

namespace arena {

/// d(q+, v+)/d(q, v, u) of sim.Step at (state, control): q perturbed as Integrate(q, dq),
/// q+ compared with Difference(q+_0, q+). Steps that fail give NaN columns.
StepDerivatives FiniteDifferenceStepDerivatives(Simulator& sim, const State& state,
                                                const Control& control, const FdOptions& options);

/// Largest CorrectedRelativeError over the six blocks (a vs reference b).
double MaxStepDerivativeError(const StepDerivatives& a, const StepDerivatives& b, double floor = 1e-6);

}  // namespace arena
