#include "harness/csv_writer.h"
#include "core/common/strings.h"

#include <csv.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/common/error.h"

namespace arena {
namespace {

bool NeedsQuotes(const std::string& s) {
  if (s.empty()) return false;
  if (s.front() == ' ' || s.front() == '\t' || s.back() == ' ' || s.back() == '\t') return true;
  return s.find_first_of(",\"") != std::string::npos;
}

std::string OneLine(std::string s) {
  for (char& ch : s) {
    if (ch == '\n' || ch == '\r') ch = ' ';
  }
  return s;
}

std::string SystemError(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

}  // namespace

std::string CsvLine(const std::vector<std::string>& cells) {
  std::string line;
  for (size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) line += ',';
    const std::string field = OneLine(cells[i]);
    if (!NeedsQuotes(field)) {
      line += field;
      continue;
    }
    // Worst case: every character a quote (doubled) plus the two enclosing quotes.
    std::string quoted(2 * field.size() + 2, '\0');
    const size_t n = csv_write(quoted.data(), quoted.size(), field.data(), field.size());
    quoted.resize(n);
    line += quoted;
  }
  line += '\n';
  return line;
}

RowFormatter::RowFormatter(const Experiment& experiment) : experiment_(experiment.name()) {
  columns_ = {kCaseIdColumn, kModelColumn};
  types_ = {ColumnType::kText, ColumnType::kText};
  for (const Column& c : experiment.columns()) {
    columns_.push_back(c.name);
    types_.push_back(c.type);
  }
  columns_.push_back(kErrorColumn);
  types_.push_back(ColumnType::kText);
  for (size_t i = 0; i < columns_.size(); ++i) {
    const std::string& name = columns_[i];
    if (name.empty()) {
      throw InvalidArgument("experiment '" + experiment_ + "' declares a column with no name");
    }
    if (!index_.emplace(name, i).second) {
      throw InvalidArgument("experiment '" + experiment_ + "' declares column '" + name +
                            "' twice or reuses a harness column (case_id, model, error)");
    }
  }
}

std::vector<std::string> RowFormatter::Cells(const Case& c, const Row* row,
                                             const std::string& error) const {
  std::vector<std::string> cells(columns_.size());
  cells[0] = c.id;
  cells[1] = c.model;
  auto set = [&](const std::string& column, const Value& value) {
    auto it = index_.find(column);
    if (it == index_.end() || it->second < 2 || it->second + 1 == columns_.size()) {
      const std::vector<std::string> declared(columns_.begin() + 2, columns_.end() - 1);
      throw InvalidArgument("experiment '" + experiment_ + "', case '" + c.id +
                            "': column '" + column + "' is not declared; columns: " + Join(declared));
    }
    if (!Fits(value, types_[it->second])) {
      throw InvalidArgument("experiment '" + experiment_ + "', case '" + c.id + "': column '" + column +
                            "' is declared " + std::string(ToString(types_[it->second])) + " but is set to '" +
                            ToText(value) + "'; declare its type in the experiment's columns()");
    }
    cells[it->second] = ToText(value);
  };
  for (const auto& [name, value] : c.params) set(name, value);
  if (row != nullptr) {
    for (const auto& [name, value] : *row) set(name, value);
  }
  cells.back() = error;
  return cells;
}

std::string RowFormatter::Format(const Case& c, const std::vector<Row>& rows) const {
  std::string lines;
  for (const Row& row : rows) lines += CsvLine(Cells(c, &row, ""));
  return lines;
}

std::string RowFormatter::FormatError(const Case& c, const std::string& message) const {
  try {
    return CsvLine(Cells(c, nullptr, message.empty() ? "error" : message));
  } catch (const InvalidArgument& e) {
    // The params themselves name an undeclared column: keep the id, model and both messages.
    std::vector<std::string> cells(columns_.size());
    cells[0] = c.id;
    cells[1] = c.model;
    cells.back() = message + "; " + e.what();
    return CsvLine(cells);
  }
}

CsvAppender::CsvAppender(const std::string& path, const std::vector<std::string>& columns)
    : path_(path) {
  std::error_code ec;
  const bool fresh = !std::filesystem::exists(path, ec) || std::filesystem::file_size(path, ec) == 0;
  file_ = std::fopen(path.c_str(), "ab");
  if (file_ == nullptr) throw Error(SystemError("cannot open", path));
  if (fresh) Append(CsvLine(columns));
}

CsvAppender::~CsvAppender() {
  if (file_ != nullptr) std::fclose(file_);
}

void CsvAppender::Append(const std::string& lines) {
  if (std::fwrite(lines.data(), 1, lines.size(), file_) != lines.size() || std::fflush(file_) != 0) {
    throw Error(SystemError("cannot write", path_));
  }
}

void WriteCsvAtomic(const std::string& path, const std::vector<std::string>& columns,
                    const std::vector<std::vector<std::string>>& rows) {
  const std::string tmp = path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) throw Error(SystemError("cannot create", tmp));
  std::string text = CsvLine(columns);
  for (const auto& row : rows) text += CsvLine(row);
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (std::fclose(f) != 0 || !ok) throw Error(SystemError("cannot write", tmp));
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw Error("cannot rename " + tmp + " to " + path + ": " + ec.message());
}

}  // namespace arena
