#include "harness/results_store.h"

#include <spdlog/spdlog.h>

#include <csv.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <optional>
#include <sstream>

#include "core/common/error.h"
#include "core/common/strings.h"
#include "harness/csv_writer.h"
#include "experiments/result_table.h"
#include "harness/run_info.h"

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

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

struct LineFields {
  std::vector<std::string> cells;
  int rows = 0;
};

void OnField(void* data, size_t len, void* user) {
  auto* f = static_cast<LineFields*>(user);
  f->cells.emplace_back(data == nullptr ? "" : std::string(static_cast<const char*>(data), len));
}

void OnRowEnd(int /*terminator*/, void* user) { ++static_cast<LineFields*>(user)->rows; }

// One physical line (without its '\n') as CSV fields; "" when it parses as one row, else why not.
std::string ParseLine(const std::string& line, std::vector<std::string>* cells) {
  csv_parser parser;
  if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI) != 0) return "cannot initialise the CSV parser";
  LineFields fields;
  std::string problem;
  if (csv_parse(&parser, line.data(), line.size(), OnField, OnRowEnd, &fields) != line.size() ||
      csv_fini(&parser, OnField, OnRowEnd, &fields) != 0) {
    problem = "malformed CSV (" + std::string(csv_strerror(csv_error(&parser))) + ")";
  } else if (fields.rows != 1) {
    problem = "not one CSV row";
  }
  csv_free(&parser);
  *cells = std::move(fields.cells);
  return problem;
}

// The header of a results file; empty for an empty file.
std::vector<std::string> HeaderOf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string header;
  if (!std::getline(in, header) || header.empty()) return {};
  std::vector<std::string> cells;
  if (!ParseLine(header, &cells).empty()) return {"<unreadable header: " + header + ">"};
  return cells;
}

void AppendStoredLines(const std::string& path, bool in_partial, const std::vector<std::string>& columns,
                       std::vector<StoredLine>* out) {
  const std::string text = ReadText(path);
  if (text.empty()) return;
  size_t pos = 0;
  for (int number = 1; pos < text.size(); ++number) {
    const size_t newline = text.find('\n', pos);
    const bool cut_off = newline == std::string::npos;
    const size_t end = cut_off ? text.size() : newline;
    const std::string line = text.substr(pos, end - pos);
    pos = cut_off ? text.size() : newline + 1;
    std::vector<std::string> cells;
    const std::string problem = ParseLine(line, &cells);
    if (number == 1) {
      if (!problem.empty() || cells != columns) {
        throw Error(path + " has columns (" + (problem.empty() ? Join(cells) : line) +
                    ") but the experiment now writes (" + Join(columns) +
                    "); rerun with --fresh to discard the old results");
      }
      continue;
    }
    if (line.empty()) continue;  // a blank line holds no row
    StoredLine stored;
    stored.in_partial = in_partial;
    stored.line = number;
    if (cut_off) {
      stored.cut_off = true;
      stored.problem = "cut off (the run was stopped while writing it)";
    } else if (!problem.empty()) {
      stored.problem = problem;
    } else if (cells.size() != columns.size()) {
      stored.problem = std::to_string(cells.size()) + " fields, but the header has " + std::to_string(columns.size());
    }
    if (stored.problem.empty()) {
      stored.id = cells[0];
      stored.id_complete = true;
      stored.cells = std::move(cells);
    } else if (problem.empty() && !cut_off && !cells.empty()) {
      stored.id = cells[0];  // parsed, but with the wrong number of fields
      stored.id_complete = cells.size() > 1;  // one field: the line may have been cut inside the id
    } else {
      // The case id is the first field, or a prefix of it when the line was cut inside it.
      std::string fragment = line;
      if (!fragment.empty() && fragment.front() == '"') fragment.erase(0, 1);
      const auto comma = fragment.find(',');
      stored.id = fragment.substr(0, comma);
      stored.id_complete = comma != std::string::npos;
    }
    out->push_back(std::move(stored));
  }
}

// "box_drop.partial.csv line 12".
std::string Where(const ResultFiles& files, const StoredLine& line) {
  return fs::path(line.in_partial ? files.partial : files.csv).filename().string() + " line " +
         std::to_string(line.line);
}

// Up to three examples of a kind of problem, and how many more there were.
class Examples {
 public:
  void Add(std::string example) {
    if (examples_.size() < 3) examples_.push_back(std::move(example));
    ++count_;
  }
  int count() const { return count_; }
  std::string ToString() const {
    std::string s = Join(examples_, "; ");
    const int more = count_ - static_cast<int>(examples_.size());
    if (more > 0) s += "; and " + std::to_string(more) + " more";
    return s;
  }

 private:
  std::vector<std::string> examples_;
  int count_ = 0;
};

// What the resume does with a line.
enum class Fate { kKeep, kDuplicate, kUnknownCase, kInvalid, kUnreadable };

// Why a row that parses cannot be kept as it is: "" when it can.
std::string InvalidCell(const StoredLine& line, const ResumePlan& plan, const PlannedCase* planned) {
  if (planned != nullptr && line.cells[1] != planned->model) {
    return "model '" + line.cells[1] + "', but case '" + line.id + "' is of model " + planned->model;
  }
  for (size_t c = 0; c < line.cells.size(); ++c) {
    if (!CellFits(line.cells[c], plan.types[c])) {
      return "column " + plan.columns[c] + " is '" + line.cells[c] + "', not " + std::string(ToString(plan.types[c]));
    }
  }
  return "";
}

// A copy of the files a resume is about to rewrite, in <dir>/superseded/<now>-resume/.
fs::path KeepOriginals(const ResultFiles& files, const std::vector<std::string>& paths) {
  std::string stamp = IsoTimeUtc(std::chrono::system_clock::now());
  std::erase_if(stamp, [](char ch) { return ch == ':' || ch == '-'; });
  fs::path archive = fs::path(files.dir) / "superseded" / (stamp + "-resume");
  for (int n = 2; fs::exists(archive); ++n) {
    archive = fs::path(files.dir) / "superseded" / (stamp + "-resume-" + std::to_string(n));
  }
  fs::create_directories(archive);
  for (const std::string& p : paths) fs::copy_file(p, archive / fs::path(p).filename());
  return archive;
}

}  // namespace

std::vector<std::string> HeaderMismatches(const ResultFiles& files, const std::vector<std::string>& columns) {
  std::vector<std::string> out;
  for (const std::string& path : {files.csv, files.partial}) {
    if (!fs::exists(path)) continue;
    const std::vector<std::string> header = HeaderOf(path);
    if (!header.empty() && header != columns) {
      out.push_back(fs::path(path).filename().string() + " has columns (" + Join(header) +
                    "), the experiment now writes (" + Join(columns) + ")");
    }
  }
  return out;
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

std::vector<StoredLine> ReadStoredLines(const ResultFiles& files, const std::vector<std::string>& columns) {
  std::vector<StoredLine> lines;
  if (fs::exists(files.csv)) AppendStoredLines(files.csv, false, columns, &lines);
  if (fs::exists(files.partial)) AppendStoredLines(files.partial, true, columns, &lines);
  return lines;
}

std::set<std::string> StoredModels(const std::vector<StoredLine>& lines) {
  std::set<std::string> models;
  for (const StoredLine& line : lines) {
    if (line.problem.empty()) models.insert(line.cells[1]);
  }
  return models;
}

ResumeState Resume(const ResultFiles& files, const std::vector<StoredLine>& lines, const ResumePlan& plan,
                   bool retry_failed, const std::string& experiment) {
  const size_t n = lines.size();
  std::vector<Fate> fate(n, Fate::kKeep);
  std::set<std::string> rerun;  // cases whose rows are all dropped so that they run again
  Examples duplicates, unknown, invalid;

  // Rows: duplicates, cases not in the plan, invalid cells.
  std::map<std::string, int> first_block;                   // case id -> the block its rows came in
  std::map<std::string, std::set<std::string>> lines_seen;  // case id -> its rows' text so far
  int block = 0;
  for (size_t i = 0; i < n; ++i) {
    const StoredLine& line = lines[i];
    if (!line.problem.empty()) {
      fate[i] = Fate::kUnreadable;
      continue;
    }
    const bool continues_block = i > 0 && lines[i - 1].problem.empty() &&
                                 lines[i - 1].in_partial == line.in_partial && lines[i - 1].id == line.id;
    if (!continues_block) ++block;
    const auto first = first_block.emplace(line.id, block).first;
    if (first->second != block || !lines_seen[line.id].insert(Join(line.cells, "\x1f")).second) {
      fate[i] = Fate::kDuplicate;
      duplicates.Add(Where(files, line) + ": case '" + line.id + "' again");
      continue;
    }
    const auto planned = plan.cases.find(line.id);
    if (planned == plan.cases.end() && plan.unchecked_models.count(line.cells[1]) == 0) {
      fate[i] = Fate::kUnknownCase;
      unknown.Add(Where(files, line) + ": case '" + line.id + "' is not in this sweep");
      continue;
    }
    const std::string why = InvalidCell(line, plan, planned == plan.cases.end() ? nullptr : &planned->second);
    if (!why.empty()) {
      fate[i] = Fate::kInvalid;
      rerun.insert(line.id);
      invalid.Add(Where(files, line) + ": " + why);
    }
  }

  int cut_off = 0;
  // Lines that do not parse: their case runs again, or, when the line does not say which case it
  // is, the cases of the rows around it in the same file (rows of a case come in one block, so
  // the line belongs to one of them, or to a case with no other row, which runs anyway).
  for (size_t i = 0; i < n; ++i) {
    if (fate[i] != Fate::kUnreadable) continue;
    const StoredLine& line = lines[i];
    // A last line cut off by a kill is what a killed run leaves: no warning for it.
    if (line.cut_off) {
      ++cut_off;
    } else {
      invalid.Add(Where(files, line) + ": " + line.problem);
    }
    if (line.id_complete && plan.cases.count(line.id) > 0) {
      rerun.insert(line.id);
      continue;
    }
    auto neighbour = [&](size_t j) {
      const StoredLine& other = lines[j];
      if (other.in_partial != line.in_partial || !other.problem.empty()) return false;
      if (line.id_complete || other.id.rfind(line.id, 0) == 0) rerun.insert(other.id);
      return true;
    };
    for (size_t j = i; j-- > 0;) {
      if (lines[j].in_partial != line.in_partial || neighbour(j)) break;
    }
    for (size_t j = i + 1; j < n; ++j) {
      if (lines[j].in_partial != line.in_partial || neighbour(j)) break;
    }
  }

  // --retry-failed: the cases with an error row run again too.
  std::set<std::string> failed;
  if (retry_failed) {
    const size_t error_col = plan.columns.size() - 1;
    for (size_t i = 0; i < n; ++i) {
      if (fate[i] == Fate::kKeep && !lines[i].cells[error_col].empty()) failed.insert(lines[i].id);
    }
  }

  ResumeState resume;
  bool rewrite_csv = false, rewrite_partial = false;
  std::set<std::string> kept_cases;
  for (size_t i = 0; i < n; ++i) {
    const StoredLine& line = lines[i];
    const bool keep = fate[i] == Fate::kKeep && rerun.count(line.id) == 0 && failed.count(line.id) == 0;
    if (!keep) {
      (line.in_partial ? rewrite_partial : rewrite_csv) = true;
      if (fate[i] == Fate::kDuplicate || fate[i] == Fate::kUnknownCase) ++resume.rows_dropped;
      continue;
    }
    (line.in_partial ? resume.partial_rows : resume.final_rows).push_back(line.cells);
    resume.done.insert(line.id);
    resume.models.insert(line.cells[1]);
    ++resume.rows_kept;
  }
  for (const std::string& id : rerun) resume.cases_rerun += plan.cases.count(id) > 0 ? 1 : 0;
  resume.failed_cases_retried = static_cast<int>(failed.size());

  std::vector<std::string> originals;
  if (rewrite_csv) originals.push_back(files.csv);
  if (rewrite_partial) originals.push_back(files.partial);
  if (!originals.empty()) {
    const fs::path archive =
        duplicates.count() + unknown.count() + invalid.count() > 0 ? KeepOriginals(files, originals) : fs::path();
    if (rewrite_csv) WriteCsvAtomic(files.csv, plan.columns, resume.final_rows);
    if (rewrite_partial) WriteCsvAtomic(files.partial, plan.columns, resume.partial_rows);
    if (!archive.empty()) {
      std::vector<std::string> what;
      if (duplicates.count() > 0) {
        what.push_back("dropped " + std::to_string(duplicates.count()) + " duplicate rows (" +
                       duplicates.ToString() + ")");
      }
      if (unknown.count() > 0) {
        what.push_back("dropped " + std::to_string(unknown.count()) + " rows of cases not in this sweep (" +
                       unknown.ToString() + ")");
      }
      if (invalid.count() > 0) {
        what.push_back(std::to_string(invalid.count()) + " invalid or unreadable rows, whose cases run again (" +
                       invalid.ToString() + ")");
      }
      spdlog::warn("{}: resume: kept {} rows of {} cases; {}; the files as they were are in {}", experiment,
                   resume.rows_kept, resume.done.size(), Join(what, "; "), archive.string());
    }
  }
  if (cut_off > 0) spdlog::warn("{}: the last write was cut off; its case will be rerun", files.partial);
  if (!failed.empty()) spdlog::info("{}: --retry-failed: rerunning {} failed cases", experiment, failed.size());
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
