#include "experiments/common/summaries/table_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "core/common/options.h"

namespace arena {

namespace {
std::vector<double> Numbers(const ResultTable& table, const std::string& column) {
  std::vector<double> xs;
  if (table.ColumnIndex(column) < 0) return xs;
  for (int r = 0; r < table.num_rows(); ++r) {
    const double x = table.Number(r, column);
    if (!std::isnan(x)) xs.push_back(x);
  }
  return xs;
}
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

double Mean(const ResultTable& table, const std::string& column) {
  const std::vector<double> xs = Numbers(table, column);
  if (xs.empty()) return kNaN;
  double sum = 0.0;
  for (double x : xs) sum += x;
  return sum / static_cast<double>(xs.size());
}

double Median(const ResultTable& table, const std::string& column) {
  std::vector<double> xs = Numbers(table, column);
  if (xs.empty()) return kNaN;
  const size_t mid = xs.size() / 2;
  std::nth_element(xs.begin(), xs.begin() + static_cast<long>(mid), xs.end());
  if (xs.size() % 2 == 1) return xs[mid];
  const double upper = xs[mid];
  return 0.5 * (upper + *std::max_element(xs.begin(), xs.begin() + static_cast<long>(mid)));
}

std::pair<double, double> ExtremeValues(const ResultTable& table, const std::string& column) {
  const std::vector<double> xs = Numbers(table, column);
  if (xs.empty()) return {kNaN, kNaN};
  const auto [lo, hi] = std::minmax_element(xs.begin(), xs.end());
  return {*lo, *hi};
}

std::string FormatValue(double x) { return options_detail::FormatDouble(x); }

std::string FormatShort(double x) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3g", x);
  return buf;
}

}  // namespace arena
