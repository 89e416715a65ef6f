#include "experiments/common/summaries/loglog_fit.h"

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

double LogLogSlope(const std::map<double, double>& series) {
  std::vector<double> x, y;
  for (const auto& [n, t] : series) {
    x.push_back(n);
    y.push_back(t);
  }
  return LogLogSlope(x, y);
}

double LargestCommonSize(const std::map<double, double>& a, const std::map<double, double>& b) {
  double n = 0.0;
  for (const auto& [size, value] : a) n = b.count(size) > 0 ? size : n;
  return n;
}

}  // namespace arena
