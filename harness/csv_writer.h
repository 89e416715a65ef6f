// Writing results CSVs: the one fixed column order (case_id, model, <experiment columns>, error),
// rows formatted from a Case and its Rows, fields quoted by libcsv, crash-safe appends and
// atomic whole-file writes.
#pragma once

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "experiments/experiment.h"

namespace arena {

inline constexpr const char* kCaseIdColumn = "case_id";
inline constexpr const char* kModelColumn = "model";
inline constexpr const char* kErrorColumn = "error";

/// One CSV line ending in '\n'. A field holding a comma, a quote or leading/trailing blanks is
/// quoted by libcsv; line breaks inside a field become spaces, so every row is one line.
std::string CsvLine(const std::vector<std::string>& cells);

/// Formats the rows of one case in the experiment's column order.
class RowFormatter {
 public:
  /// Throws InvalidArgument when the experiment's columns are empty-named, duplicated or clash
  /// with the harness's case_id / model / error.
  explicit RowFormatter(const Experiment& experiment);

  /// case_id, model, the experiment's columns, error.
  const std::vector<std::string>& columns() const { return columns_; }
  /// The type of each of columns() (case_id, model and error are text).
  const std::vector<ColumnType>& types() const { return types_; }
  bool HasColumn(const std::string& name) const { return index_.count(name) > 0; }

  /// CSV lines of a finished case: params first, then each row's values (a row may override a
  /// param). Throws InvalidArgument naming a column the experiment did not declare, or a value
  /// that is not of its column's type (a bool in a number column: a programming error).
  std::string Format(const Case& c, const std::vector<Row>& rows) const;
  /// The single line of a failed case: its params and the message in the error column.
  std::string FormatError(const Case& c, const std::string& message) const;

 private:
  std::vector<std::string> Cells(const Case& c, const Row* row, const std::string& error) const;

  std::string experiment_;
  std::vector<std::string> columns_;
  std::vector<ColumnType> types_;
  std::map<std::string, size_t> index_;
};

/// A CSV opened for appending; writes the header when the file is new or empty.
class CsvAppender {
 public:
  CsvAppender(const std::string& path, const std::vector<std::string>& columns);
  ~CsvAppender();
  CsvAppender(const CsvAppender&) = delete;
  CsvAppender& operator=(const CsvAppender&) = delete;

  /// Writes `lines` (whole rows) in one call and flushes, so a killed process keeps them.
  /// Not synchronised: callers serialise.
  void Append(const std::string& lines);

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
};

/// Writes header + rows to `path` through a temporary file and a rename: readers never see a
/// half-written file.
void WriteCsvAtomic(const std::string& path, const std::vector<std::string>& columns,
                    const std::vector<std::vector<std::string>>& rows);

}  // namespace arena
