#include "experiments/result_table.h"
#include "core/common/strings.h"

#include <csv.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "core/common/error.h"

namespace arena {
namespace {

// Receives libcsv's callbacks; `line` is the physical line being fed to the parser.
struct Collector {
  std::vector<std::vector<std::string>> rows;
  std::vector<int> row_lines;
  std::vector<std::string> current;
  int line = 1;
};

void OnField(void* data, size_t len, void* user) {
  auto* c = static_cast<Collector*>(user);
  c->current.emplace_back(data == nullptr ? "" : std::string(static_cast<const char*>(data), len));
}

void OnRowEnd(int /*terminator*/, void* user) {
  auto* c = static_cast<Collector*>(user);
  c->rows.push_back(std::move(c->current));
  c->row_lines.push_back(c->line);
  c->current.clear();
}

std::string Where(int line) { return "line " + std::to_string(line); }

}  // namespace

ResultTable::ResultTable(std::vector<std::string> columns, std::vector<std::vector<std::string>> cells)
    : columns_(std::move(columns)), cells_(std::move(cells)) {
  for (size_t r = 0; r < cells_.size(); ++r) {
    if (cells_[r].size() != columns_.size()) {
      throw InvalidArgument("ResultTable: row " + std::to_string(r) + " has " +
                            std::to_string(cells_[r].size()) + " cells for " +
                            std::to_string(columns_.size()) + " columns");
    }
  }
}

ResultTable ResultTable::ReadCsv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParseError(path, "", "cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  return ParseCsv(text.str(), path);
}

ResultTable ResultTable::ParseCsv(const std::string& text, const std::string& source_name) {
  csv_parser parser;
  if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI) != 0) {
    throw Error(source_name + ": cannot initialise the CSV parser");
  }
  Collector collector;
  // Feed one physical line at a time so that errors can name their line.
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    end = end == std::string::npos ? text.size() : end + 1;
    const size_t len = end - pos;
    if (csv_parse(&parser, text.data() + pos, len, OnField, OnRowEnd, &collector) != len) {
      const std::string reason = csv_strerror(csv_error(&parser));
      csv_free(&parser);
      throw ParseError(source_name, Where(collector.line), "malformed CSV: " + reason);
    }
    pos = end;
    if (text[end - 1] == '\n') ++collector.line;
  }
  if (csv_fini(&parser, OnField, OnRowEnd, &collector) != 0) {
    const std::string reason = csv_strerror(csv_error(&parser));
    csv_free(&parser);
    throw ParseError(source_name, Where(collector.line), "malformed CSV: " + reason);
  }
  csv_free(&parser);

  if (collector.rows.empty()) throw ParseError(source_name, "", "empty file: no header row");
  ResultTable table;
  table.columns_ = std::move(collector.rows[0]);
  for (size_t r = 1; r < collector.rows.size(); ++r) {
    if (collector.rows[r].size() != table.columns_.size()) {
      throw ParseError(source_name, Where(collector.row_lines[r]),
                       std::to_string(collector.rows[r].size()) + " fields, but the header has " +
                           std::to_string(table.columns_.size()));
    }
    table.cells_.push_back(std::move(collector.rows[r]));
  }
  return table;
}

int ResultTable::ColumnIndex(const std::string& name) const {
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (columns_[i] == name) return static_cast<int>(i);
  }
  return -1;
}

int ResultTable::RequireColumn(const std::string& name) const {
  const int c = ColumnIndex(name);
  if (c < 0) {
    throw InvalidArgument("ResultTable: unknown column '" + name + "'; columns: " + Join(columns_));
  }
  return c;
}

const std::string& ResultTable::Text(int row, const std::string& column) const {
  const int c = RequireColumn(column);
  if (row < 0 || row >= num_rows()) {
    throw InvalidArgument("ResultTable: row " + std::to_string(row) + " out of range [0, " +
                          std::to_string(num_rows()) + ")");
  }
  return cells_[row][c];
}

double ResultTable::Number(int row, const std::string& column) const {
  const std::string& text = Text(row, column);
  if (text == "true") return 1.0;
  if (text == "false") return 0.0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (first != last && *first == '+') ++first;
  double x = 0.0;
  auto [end, ec] = std::from_chars(first, last, x);
  if (text.empty() || ec != std::errc() || end != last) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  return x;
}

bool ResultTable::Bool(int row, const std::string& column) const {
  const std::string& text = Text(row, column);
  if (text != "true" && text != "false" && !text.empty()) {
    throw InvalidArgument("ResultTable: column '" + column + "', row " + std::to_string(row) + ": '" + text +
                          "' is not true or false");
  }
  return text == "true";
}

ResultTable ResultTable::FilterBool(const std::string& column, bool value) const {
  return Filter(column, value ? "true" : "false");
}

ResultTable ResultTable::FilterNumber(const std::string& column, double value) const {
  RequireColumn(column);
  ResultTable out;
  out.columns_ = columns_;
  for (int i = 0; i < num_rows(); ++i) {
    if (Number(i, column) == value) out.cells_.push_back(cells_[i]);
  }
  return out;
}

ResultTable ResultTable::Filter(const std::string& column, const std::string& value) const {
  const int c = RequireColumn(column);
  ResultTable out;
  out.columns_ = columns_;
  for (const auto& row : cells_) {
    if (row[c] == value) out.cells_.push_back(row);
  }
  return out;
}

std::vector<std::string> ResultTable::Distinct(const std::string& column) const {
  const int c = RequireColumn(column);
  std::vector<std::string> out;
  for (const auto& row : cells_) {
    if (std::find(out.begin(), out.end(), row[c]) == out.end()) out.push_back(row[c]);
  }
  return out;
}

}  // namespace arena
