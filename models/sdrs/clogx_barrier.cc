#include "models/sdrs/clogx_barrier.h"

#include <cmath>
#include <limits>

namespace arena::sdrs {

double Clogx(double x, double x0) {
  if (!(x > 0.0)) return std::numeric_limits<double>::infinity();
  if (x >= x0) return 0.0;
  const double e = x - x0;
  return -(e * e / x) * std::log(x / x0);
}

ClogxValue ClogxDerivatives(double x, double x0) {
  ClogxValue out;
  if (!(x > 0.0)) {
    out.value = std::numeric_limits<double>::infinity();
    out.slope = out.curvature = std::numeric_limits<double>::quiet_NaN();
    return out;
  }
  if (x >= x0) return out;
  // Seed 003 Sec. IV-B, written with r = (x - x0) / x so each term is one product.
  const double l = std::log(x / x0);
  const double inv = 1.0 / x;
  const double r = (x - x0) * inv;
  const double r2 = r * r;
  out.value = -(x - x0) * r * l;
  out.slope = -2.0 * l * r + (l - 1.0) * r2;
  out.curvature = inv * (4.0 * (l - 1.0) * r - 2.0 * l * (r2 + 1.0) + 3.0 * r2);
  return out;
}

}  // namespace arena::sdrs
