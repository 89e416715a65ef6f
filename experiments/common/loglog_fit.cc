#include "experiments/common/loglog_fit.h"

#include <cmath>
#include <cstddef>
#include <limits>

namespace arena {

double LogLogSlope(const std::vector<double>& x, const std::vector<double>& y) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> u, w;
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
    if (!(x[i] > 0.0) || !(y[i] > 0.0) || !std::isfinite(x[i]) || !std::isfinite(y[i])) continue;
    u.push_back(std::log(x[i]));
    w.push_back(std::log(y[i]));
  }
  if (u.size() < 2) return nan;
  double mu = 0.0, mw = 0.0;
  for (std::size_t i = 0; i < u.size(); ++i) {
    mu += u[i];
    mw += w[i];
  }
  mu /= static_cast<double>(u.size());
  mw /= static_cast<double>(u.size());
  double suu = 0.0, suw = 0.0;
  for (std::size_t i = 0; i < u.size(); ++i) {
    suu += (u[i] - mu) * (u[i] - mu);
    suw += (u[i] - mu) * (w[i] - mw);
  }
  return suu > 0.0 ? suw / suu : nan;
}

}  // namespace arena
