// A results CSV read back into memory (for resume, determinism checks and Summarize).
#pragma once

#include <string>
#include <vector>

namespace arena {

class ResultTable {
 public:
  /// Reads a CSV with a header row (libcsv). Throws ParseError naming the file and line.
  static ResultTable ReadCsv(const std::string& path);
  /// The same from CSV text; `source_name` names it in errors.
  static ResultTable ParseCsv(const std::string& text, const std::string& source_name);
  ResultTable() = default;
  ResultTable(std::vector<std::string> columns, std::vector<std::vector<std::string>> cells);

  const std::vector<std::string>& columns() const { return columns_; }
  int num_rows() const { return static_cast<int>(cells_.size()); }
  /// Index of a column, or -1.
  int ColumnIndex(const std::string& name) const;
  /// Cell text ("" when empty). Throws InvalidArgument for an unknown column.
  const std::string& Text(int row, const std::string& column) const;
  /// Cell as a number: NaN when empty or not numeric; "true"/"false" give 1/0.
  double Number(int row, const std::string& column) const;
  /// Cell of a true/false column as a bool: an empty cell is false; other text throws InvalidArgument.
  bool Bool(int row, const std::string& column) const;
  /// Rows whose `column` equals `value`.
  ResultTable Filter(const std::string& column, const std::string& value) const;
  /// Rows whose true/false `column` is `value` (an empty cell is neither).
  ResultTable FilterBool(const std::string& column, bool value) const;
  /// Rows whose numeric `column` equals `value` as a number.
  ResultTable FilterNumber(const std::string& column, double value) const;
  /// Distinct values of a column, in first-seen order.
  std::vector<std::string> Distinct(const std::string& column) const;
  const std::vector<std::vector<std::string>>& cells() const { return cells_; }

 private:
  int RequireColumn(const std::string& name) const;  // index, or InvalidArgument listing columns

  std::vector<std::string> columns_;
  std::vector<std::vector<std::string>> cells_;
};

}  // namespace arena
