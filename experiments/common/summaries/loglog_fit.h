// The exponent of a power law t = c n^k fitted to measurements, for the scaling experiments: the
// least-squares slope of log t against log n (seed 004 Fig. 6 plots seconds against triangles on
// log-log axes; the slope is the growth its text describes).
#pragma once

#include <map>
#include <vector>

namespace arena {

/// The least-squares slope of log(y) against log(x) over the points with x > 0 and y > 0 (finite);
/// NaN with fewer than two such points or when their x are all equal.
double LogLogSlope(const std::vector<double>& x, const std::vector<double>& y);
/// The same over a series size -> measurement.
double LogLogSlope(const std::map<double, double>& series);

/// The largest size present in both series (0 when none): where two methods are compared.
double LargestCommonSize(const std::map<double, double>& a, const std::map<double, double>& b);

}  // namespace arena
