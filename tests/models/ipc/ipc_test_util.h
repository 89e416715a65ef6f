// Helpers shared by the IPC kernel tests: seeded random points, the soak factor, and
// finite-difference gradients and Hessians through solvers/finite_difference.h.
#pragma once

#include <cstdlib>
#include <functional>

#include "tests/soak.h"
#include "core/common/random.h"
#include "core/math/types.h"
#include "solvers/finite_difference.h"

namespace arena::ipc::ipc_testing {

using ::arena::testing::SoakFactor;

inline Vec3 RandomPoint(Rng& rng, double half_width) {
  return Vec3(Uniform(rng, -half_width, half_width), Uniform(rng, -half_width, half_width),
              Uniform(rng, -half_width, half_width));
}

inline Vec3 RandomUnit(Rng& rng) {
  for (;;) {
    const Vec3 v = RandomPoint(rng, 1.0);
    const double n = v.norm();
    if (n > 1e-3 && n <= 1.0) return v / n;
  }
}

/// Central-difference gradient of a scalar function of n variables at x.
inline VecX FdGradient(const std::function<double(const VecX&)>& f, const VecX& x,
                       double step = 1e-6) {
  FdOptions options;
  options.step = step;
  const FdResult r =
      FiniteDifferenceJacobian([&](const VecX& dx) { return VecX::Constant(1, f(x + dx)); },
                               static_cast<int>(x.size()), options);
  return r.jacobian.row(0).transpose();
}

/// Central-difference Jacobian of a vector function (the analytic gradient, for Hessians).
inline MatX FdJacobian(const std::function<VecX(const VecX&)>& g, const VecX& x,
                       double step = 1e-6) {
  FdOptions options;
  options.step = step;
  return FiniteDifferenceJacobian([&](const VecX& dx) { return g(x + dx); },
                                  static_cast<int>(x.size()), options)
      .jacobian;
}

/// Stacks four points into one 12-vector and back.
inline VecX Stack(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  VecX x(12);
  x << a, b, c, d;
  return x;
}
inline Vec3 Point(const VecX& x, int k) { return x.segment<3>(3 * k); }

}  // namespace arena::ipc::ipc_testing

namespace arena::ipc::ipc_testing {

/// A function with optional analytic gradient and Hessian, on dynamic-size vectors.
using Differentiable = std::function<double(const VecX& x, VecX* gradient, MatX* hessian)>;

/// Corrected relative errors (solvers/finite_difference.h) of the analytic gradient against
/// central differences of the value, and of the analytic Hessian against central differences of
/// the analytic gradient.
struct DerivativeErrors {
  double gradient = 0.0;
  double hessian = 0.0;
};
inline DerivativeErrors CheckDerivatives(const Differentiable& f, const VecX& x, double step = 1e-6,
                                         double floor = 1e-6) {
  VecX g;
  MatX h;
  f(x, &g, &h);
  const VecX g_fd = FdGradient([&](const VecX& y) { return f(y, nullptr, nullptr); }, x, step);
  const MatX h_fd = FdJacobian(
      [&](const VecX& y) {
        VecX gy;
        f(y, &gy, nullptr);
        return gy;
      },
      x, step);
  return {CorrectedRelativeError(g, g_fd, floor), CorrectedRelativeError(h, h_fd, floor)};
}

}  // namespace arena::ipc::ipc_testing
