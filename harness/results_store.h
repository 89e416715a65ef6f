// The results folder of one experiment (layout in runner.h): the rows a resume finds there,
// results moved aside when they cannot be resumed, and the final table.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

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

/// The header of E.csv (or, without it, of E.partial.csv); empty when neither exists or the
/// file is empty.
std::vector<std::string> ExistingColumns(const ResultFiles& files);

struct ResumeState {
  CsvRows final_rows;              // from E.csv
  CsvRows partial_rows;            // from E.partial.csv
  std::set<std::string> done;      // case ids present in either
  std::set<std::string> models;    // models present in either
};

/// The rows already in the folder, checked against `columns`; a partial file cut off by a kill
/// is repaired. With `retry_failed`, the failed cases are dropped so that they run again.
/// Throws Error when the files have other columns.
ResumeState LoadResumeState(const ResultFiles& files, const std::vector<std::string>& columns,
                            bool retry_failed, const std::string& experiment);

/// `final_rows` followed by the rows of E.partial.csv, if it exists.
CsvRows CollectRows(const ResultFiles& files, const std::vector<std::string>& columns,
                    CsvRows final_rows);

/// Writes E.csv atomically, rows stable-sorted by `order` (case id -> position; ids it lacks go
/// last), and removes E.partial.csv.
void WriteFinalTable(const ResultFiles& files, const std::vector<std::string>& columns,
                     CsvRows rows, const std::map<std::string, size_t>& order);

}  // namespace arena
