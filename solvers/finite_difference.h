// Finite-difference Jacobians: forward, backward, central and Ridders' extrapolation.
//
// The function is written in local (tangent) coordinates: f(dx) evaluates the quantity at the
// input perturbed by dx (for configurations: integrate(q, dx)) and returns it in local output
// coordinates (for configurations: difference(y0, y)). The Jacobian is d f / d dx at dx = 0.
// This keeps every Jacobian on the manifold (Pinocchio's convention for derivative tests).
#pragma once

#include <functional>
#include <string_view>

#include "core/math/types.h"

namespace arena {

enum class FdMethod { kForward, kBackward, kCentral, kRidders };
std::string_view ToString(FdMethod method);
bool FromString(std::string_view text, FdMethod* method);
std::string EnumValues(FdMethod);

struct FdOptions {
  FdMethod method = FdMethod::kCentral;
  double step = 1e-6;            // forward / backward / central step (in the units of dx)
  double ridders_step = 1e-2;    // Ridders: initial (largest) step
  double ridders_shrink = 1.4;   // Ridders: step ratio between tableau rows
  int ridders_rows = 10;         // Ridders: tableau size (function evaluations = 2 per row)
};

using LocalFunction = std::function<VecX(const VecX& dx)>;

struct FdResult {
  MatX jacobian;
  VecX error_estimate;   // per column; Ridders only (zeros otherwise)
  int evaluations = 0;   // calls of f
};

/// Jacobian of f at 0, with `n` inputs. f(0) is evaluated once for the one-sided methods.
FdResult FiniteDifferenceJacobian(const LocalFunction& f, int n, const FdOptions& options = {});

/// Corrected relative error of `a` against reference `b`: max_ij |a - b| / (floor + |b|_max),
/// where |b|_max is the largest entry magnitude of b: an absolute error below `floor`, a
/// relative one above it.
double CorrectedRelativeError(const MatX& a, const MatX& b, double floor = 1e-6);

}  // namespace arena
