// Statistics over a results table, for Summarize() and Observe().
#pragma once

#include <string>
#include <utility>

#include "experiments/result_table.h"

namespace arena {

/// Mean / median of a numeric column over the rows where it is a number (NaN if none).
double Mean(const ResultTable& table, const std::string& column);
double Median(const ResultTable& table, const std::string& column);
/// Smallest and largest numeric value of a column (NaN, NaN if none).
std::pair<double, double> ExtremeValues(const ResultTable& table, const std::string& column);
/// A number as the CSV writes it (for Filter on numeric columns).
std::string FormatValue(double x);
/// A number to three significant digits, for the notes of claims and observations.
std::string FormatShort(double x);

}  // namespace arena
