// The results folder of one experiment (layout in runner.h): the rows a resume finds there,
// results moved aside when they cannot be resumed, and the final table.
//
// A resume trusts no row it reads back. Each line of E.csv and E.partial.csv is parsed on its
// own and checked against the plan (its case id is a case of the sweep, of the model the id
// belongs to) and the column types (RowFormatter::types()):
//   - a row of a case that is not in the sweep is dropped, with a warning;
//   - a case's rows are written as one block (one append per case; the final table is sorted by
//     case), so rows of a case seen again in a later block, or a line repeated within its block,
//     are duplicates: dropped, with a warning, the first block kept;
//   - a row with a cell that is not of its column's type (failed=maybe), or with a model other
//     than its case's, makes its case run again: every row of that case is dropped;
//   - a line that does not parse (wrong field count, broken quotes, cut off by a kill) makes its
//     case run again when its case id can be read; otherwise the cases of the rows around it,
//     one of which it may belong to, run again (never fewer rows than were written);
//   - every other row is kept, byte for byte.
// The files are rewritten without the dropped rows, and the log says what was kept, dropped
// and re-run.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "experiments/experiment.h"

namespace arena {

using CsvRows = std::vector<std::vector<std::string>>;

struct ResultFiles {
  std::string dir;
  std::string csv;      // E.csv
  std::string partial;  // E.partial.csv
  std::string sidecar;  // E.json
};

ResultFiles ResultFilesIn(const std::string& dir, const std::string& experiment);

/// Whether E.csv or E.partial.csv exists.
bool HasResults(const ResultFiles& files);

/// Deletes E.csv, E.partial.csv and E.json.
void DiscardResults(const ResultFiles& files);

/// Moves E.csv, E.partial.csv and E.json into <dir>/superseded/<start>-<profile>/ (suffixed
/// -2, -3, ... when taken), `start` being the ISO time their run started. Returns that folder.
std::filesystem::path SupersedeResults(const ResultFiles& files, std::string start,
                                       const std::string& profile);

/// For each of E.csv and E.partial.csv whose header is not `columns` (results of an older
/// version of the experiment, or a damaged header): "<file> has columns (...)". Empty files
/// have no header and no rows: they are not listed.
std::vector<std::string> HeaderMismatches(const ResultFiles& files, const std::vector<std::string>& columns);

/// The cases a stored row may belong to: case id -> (model, position in the final table).
struct PlannedCase {
  std::string model;
  size_t order = 0;
};

struct ResumePlan {
  std::vector<std::string> columns;  // RowFormatter::columns()
  std::vector<ColumnType> types;     // RowFormatter::types()
  std::map<std::string, PlannedCase> cases;
  /// Models with rows in the folder whose sweep could not be expanded again: their rows are
  /// checked for types only (with a warning), not against the plan.
  std::set<std::string> unchecked_models;
};

/// One line of E.csv or E.partial.csv as read back.
struct StoredLine {
  bool in_partial = false;          // E.partial.csv, else E.csv
  int line = 0;                     // 1-based, the header being line 1
  std::vector<std::string> cells;   // the fields, when the line parses as a row
  std::string problem;              // why it does not ("14 fields, the header has 21"); "" when it does
  std::string id;                   // cells[0]; for a line that does not parse, its text up to the first comma
  bool id_complete = false;         // `id` ended at a comma (else the line was cut inside it)
  bool cut_off = false;             // the file's last line, without its '\n': a write a kill cut short
};

/// Every line after the header of E.csv, then of E.partial.csv. Throws Error when a header is
/// not `columns` (HeaderMismatches: the runner moves such results aside first).
std::vector<StoredLine> ReadStoredLines(const ResultFiles& files, const std::vector<std::string>& columns);

/// Models named by the lines that parse.
std::set<std::string> StoredModels(const std::vector<StoredLine>& lines);

struct ResumeState {
  CsvRows final_rows;              // kept rows of E.csv
  CsvRows partial_rows;            // kept rows of E.partial.csv
  std::set<std::string> done;      // case ids with kept rows
  std::set<std::string> models;    // models with kept rows
  int rows_kept = 0;
  int rows_dropped = 0;            // duplicates and rows of cases not in the plan
  int cases_rerun = 0;             // cases of the sweep whose rows were invalid or unreadable (all
                                   // dropped); a line whose case cannot be told is not counted
  int failed_cases_retried = 0;    // --retry-failed: cases whose rows had an error (all dropped)
};

/// Applies the rules above to `lines`, rewrites E.csv and E.partial.csv without the dropped
/// rows, and logs what it kept, dropped and will run again. With `retry_failed`, the rows of
/// cases that have an error are dropped too, so that they run again.
ResumeState Resume(const ResultFiles& files, const std::vector<StoredLine>& lines, const ResumePlan& plan,
                   bool retry_failed, const std::string& experiment);

/// `final_rows` followed by the rows of E.partial.csv, if it exists.
CsvRows CollectRows(const ResultFiles& files, const std::vector<std::string>& columns,
                    CsvRows final_rows);

/// Writes E.csv atomically, rows stable-sorted by `order` (case id -> position; ids it lacks go
/// last), and removes E.partial.csv.
void WriteFinalTable(const ResultFiles& files, const std::vector<std::string>& columns,
                     CsvRows rows, const std::map<std::string, size_t>& order);

}  // namespace arena
