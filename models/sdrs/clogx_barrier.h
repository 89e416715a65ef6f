// The locally supported barrier "CLogx" of SDRS (Ye et al., "SDRS: Shape-Differentiable Robot
// Simulator", seed 003 Sec. IV-B):
//   f(x) = +inf                              x <= 0
//   f(x) = -((x - x0)^2 / x) ln(x / x0)      0 < x < x0
//   f(x) = 0                                 x >= x0
// With l = ln(x / x0):
//   f'(x)  = -2 l (x - x0) / x + (l - 1) (x - x0)^2 / x^2
//   f''(x) = 4 (l - 1) (x - x0) / x^2 - 2 l ((x - x0)^2 / x^3 + 1 / x) + 3 (x - x0)^2 / x^3
// f, f' and f'' all vanish at x0, so f is C2 across the end of its support; on (0, x0) it is
// positive, decreasing and convex, which makes the separating-plane problem of
// hull_pair_potential.h convex.
#pragma once

namespace arena::sdrs {

/// f(x), f'(x), f''(x) at one point.
struct ClogxValue {
  double value = 0.0;
  double slope = 0.0;      // f'
  double curvature = 0.0;  // f''
};

/// f(x) with support (0, x0): +inf for x <= 0 (and NaN), 0 for x >= x0.
double Clogx(double x, double x0);

/// f, f', f'' at x in (0, x0); all 0 for x >= x0. For x <= 0 the value is +inf and the
/// derivatives are NaN (the caller rejects such x first).
ClogxValue ClogxDerivatives(double x, double x0);

}  // namespace arena::sdrs
