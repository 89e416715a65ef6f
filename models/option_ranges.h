// The valid ranges that several models' options share (core/common/options.h, Range). Each
// keeps every value our configs, tests and the papers use valid, and rejects the values that
// make a model do nothing or never finish a step.
#pragma once

#include "core/common/options.h"

namespace arena {

/// Step length (s): 1 us (a 1 MHz simulation) to 1 s (the slowest steps of any paper are 0.1 s).
inline constexpr Range kTimestepRange = Closed(1e-6, 1.0);

/// Interior-point relaxation rho, z o s = rho (silico, bilevel; seed 000 Sec. V-C). The papers
/// sweep 1e-10 ... 1e-3. The cold start has z o s = 1, so rho >= 1 accepts it and the step does
/// nothing (the box hangs in the air); at 1e-2 a 1 kg box at 100 Hz already rests 0.2 m above
/// the ground. Below 1e-16 the gap a resting contact keeps (rho over its impulse) is below the
/// rounding of metre-scale positions.
inline constexpr Range kRelaxationRange = Closed(1e-16, 1e-2);

/// An interior-point residual tolerance: 0 (the model's default, rho / 10) or 1e-14 (near the
/// rounding of unit-scale residuals; our tests use 1e-13) to 1e-3 (rho / 10 at the largest
/// relaxation; with 1e-1 the solver stops so early that a dropped cube rests 0.25 m up).
inline constexpr Range kResidualToleranceRange = ZeroOr(Closed(1e-14, 1e-3));

/// An iteration cap of a solver run once per step (or per nested solve): the papers use 20-30,
/// our tests up to 200; 1000 bounds a step's time (the harness's wall-clock budget is the
/// backstop for a whole case).
inline constexpr Range kStepIterationRange = Closed(1, 1000);

/// A regularisation added to the Newton matrix's diagonal: 0 (none) to 1e-2 (the papers use
/// 1e-6 and 1e-8; larger ones change the Newton step more than they stabilise it).
inline constexpr Range kRegularizationRange = Closed(0.0, 1e-2);

}  // namespace arena
