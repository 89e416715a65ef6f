#include "harness/results_store.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>

#include "core/common/error.h"
#include "core/common/strings.h"
#include "harness/csv_writer.h"
#include "config/result_table.h"

namespace arena {
namespace fs = std::filesystem;

namespace {

void CheckColumns(const std::string& path, const ResultTable& table,
                  const std::vector<std::string>& columns) {
  if (table.columns() != columns) {
    throw Error(path + " has columns (" + Join(table.columns()) +
                ") but the experiment now writes (" + Join(columns) +
                "); rerun with --fresh to discard the old results");
  }
}

// Rows read back from E.csv or E.partial.csv, checked against the current header.
ResultTable ReadExisting(const std::string& path, const std::vector<std::string>& columns) {
  ResultTable table = ResultTable::ReadCsv(path);
  CheckColumns(path, table, columns);
  return table;
}

// Reads the partial file of a killed run. A run killed in the middle of a write may leave a
// truncated last line: it is cut off, together with the complete rows of its case just before
// it (a case's rows are written in one block, so its other rows may be missing), and the file
// is rewritten clean. Returns nullopt when nothing usable is left.
std::optional<ResultTable> ReadPartial(const std::string& path,
                                       const std::vector<std::string>& columns) {
  std::string text;
  {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buf;
    buf << in.rdbuf();
    text = buf.str();
  }
  const bool truncated = !text.empty() && text.back() != '\n';
  std::string fragment;
  if (truncated) {
    const auto last_newline = text.rfind('\n');
    fragment = last_newline == std::string::npos ? text : text.substr(last_newline + 1);
    text = last_newline == std::string::npos ? "" : text.substr(0, last_newline + 1);
  }
  if (text.empty()) {
    fs::remove(path);
    return std::nullopt;
  }
  ResultTable table = ResultTable::ParseCsv(text, path);
  CheckColumns(path, table, columns);
  if (truncated) {
    auto cells = table.cells();
    // The cut-off line's case id: its first field, or a prefix of it when the cut came earlier.
    if (!fragment.empty() && fragment.front() == '"') fragment.erase(0, 1);
    const auto comma = fragment.find(',');
    const std::string id_or_prefix = fragment.substr(0, comma);
    if (!cells.empty()) {
      const std::string& last = cells.back()[0];
      const bool same_case = comma != std::string::npos ? last == id_or_prefix
                                                        : last.rfind(id_or_prefix, 0) == 0;
      if (same_case) {
        const std::string last_case = last;
        std::erase_if(cells, [&](const auto& row) { return row[0] == last_case; });
      }
    }
    spdlog::warn("{}: the last write was cut off; its case will be rerun", path);
    table = ResultTable(columns, std::move(cells));
    WriteCsvAtomic(path, columns, table.cells());
  }
  return table;
}

// The final table is assembled from the partial file, so it is rewritten without the failed
// rows: otherwise they would end up next to the rows of their rerun.
void ForgetFailedCases(ResumeState& resume, const ResultFiles& files,
                       const std::vector<std::string>& columns, const std::string& experiment) {
  const size_t error_col = columns.size() - 1;
  std::set<std::string> failed;
  for (const auto* rows : {&resume.final_rows, &resume.partial_rows}) {
    for (const auto& row : *rows) {
      if (!row[error_col].empty()) failed.insert(row[0]);
    }
  }
  if (failed.empty()) return;
  for (auto* rows : {&resume.final_rows, &resume.partial_rows}) {
    std::erase_if(*rows, [&](const auto& row) { return failed.count(row[0]) > 0; });
  }
  if (fs::exists(files.partial)) WriteCsvAtomic(files.partial, columns, resume.partial_rows);
  spdlog::info("{}: --retry-failed: rerunning {} failed cases", experiment, failed.size());
}

}  // namespace

std::vector<std::string> ExistingColumns(const ResultFiles& files) {
  for (const std::string& path : {files.csv, files.partial}) {
    if (!fs::exists(path)) continue;
    std::ifstream in(path, std::ios::binary);
    std::string header;
    if (!std::getline(in, header) || header.empty()) return {};
    return ResultTable::ParseCsv(header + "\n", path).columns();
  }
  return {};
}

ResultFiles ResultFilesIn(const std::string& dir, const std::string& experiment) {
  return ResultFiles{.dir = dir,
                     .csv = dir + "/" + experiment + ".csv",
                     .partial = dir + "/" + experiment + ".partial.csv",
                     .sidecar = dir + "/" + experiment + ".json"};
}

bool HasResults(const ResultFiles& files) {
  return fs::exists(files.csv) || fs::exists(files.partial);
}

void DiscardResults(const ResultFiles& files) {
  fs::remove(files.csv);
  fs::remove(files.partial);
  fs::remove(files.sidecar);
}

fs::path SupersedeResults(const ResultFiles& files, std::string start,
                          const std::string& profile) {
  std::erase_if(start, [](char ch) { return ch == ':' || ch == '-'; });
  const std::string base = start + "-" + (profile.empty() ? "unknown" : profile);
  fs::path archive = fs::path(files.dir) / "superseded" / base;
  for (int n = 2; fs::exists(archive); ++n) {
    archive = fs::path(files.dir) / "superseded" / (base + "-" + std::to_string(n));
  }
  fs::create_directories(archive);
  for (const std::string& f : {files.csv, files.partial, files.sidecar}) {
    if (fs::exists(f)) fs::rename(f, archive / fs::path(f).filename());
  }
  return archive;
}

ResumeState LoadResumeState(const ResultFiles& files, const std::vector<std::string>& columns,
                            bool retry_failed, const std::string& experiment) {
  ResumeState resume;
  if (fs::exists(files.csv)) resume.final_rows = ReadExisting(files.csv, columns).cells();
  if (fs::exists(files.partial)) {
    if (auto partial = ReadPartial(files.partial, columns)) resume.partial_rows = partial->cells();
  }
  if (retry_failed) ForgetFailedCases(resume, files, columns, experiment);
  for (const auto* rows : {&resume.final_rows, &resume.partial_rows}) {
    for (const auto& row : *rows) {
      resume.done.insert(row[0]);
      resume.models.insert(row[1]);
    }
  }
  return resume;
}

CsvRows CollectRows(const ResultFiles& files, const std::vector<std::string>& columns,
                    CsvRows final_rows) {
  CsvRows rows = std::move(final_rows);
  if (fs::exists(files.partial)) {
    const ResultTable partial = ReadExisting(files.partial, columns);
    rows.insert(rows.end(), partial.cells().begin(), partial.cells().end());
  }
  return rows;
}

void WriteFinalTable(const ResultFiles& files, const std::vector<std::string>& columns,
                     CsvRows rows, const std::map<std::string, size_t>& order) {
  std::vector<size_t> keys(rows.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    auto it = order.find(rows[r][0]);
    keys[r] = it == order.end() ? order.size() : it->second;
  }
  std::vector<size_t> perm(rows.size());
  for (size_t r = 0; r < perm.size(); ++r) perm[r] = r;
  std::stable_sort(perm.begin(), perm.end(), [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  CsvRows sorted;
  sorted.reserve(rows.size());
  for (size_t r : perm) sorted.push_back(std::move(rows[r]));
  WriteCsvAtomic(files.csv, columns, sorted);
  fs::remove(files.partial);
}

}  // namespace arena
