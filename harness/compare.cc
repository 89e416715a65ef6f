#include "harness/compare.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "experiments/result_table.h"
#include "core/common/error.h"
#include "experiments/common/summaries/table_stats.h"
#include "experiments/registry.h"

namespace arena {

namespace fs = std::filesystem;

namespace {

// The whole text as a number (CSV cells are written so that they read back: "nan", "inf").
bool ParseNumber(const std::string& text, double* x) {
  if (text.empty()) return false;
  char* end = nullptr;
  *x = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

// Whether two cells agree: equal text, or numbers within the tolerance (NaN agrees with NaN).
bool Agree(const std::string& a, const std::string& b, double tolerance, double* difference) {
  *difference = 0.0;
  if (a == b) return true;
  double x, y;
  if (!ParseNumber(a, &x) || !ParseNumber(b, &y)) return false;
  if (std::isnan(x) && std::isnan(y)) return true;
  *difference = std::abs(y - x);
  return *difference <= tolerance * (1.0 + std::abs(x));
}

// A key per row: its case id, and for the second and later rows of a case (experiments that
// write a row per iteration, frame or entry) " row k" with k its place among them. Rows of a
// case are written in a fixed order, so the k-th rows of a case in A and B are the same record.
std::vector<std::string> RowKeys(const ResultTable& t) {
  std::map<std::string, int> seen;
  std::vector<std::string> keys(t.num_rows());
  for (int i = 0; i < t.num_rows(); ++i) {
    const std::string id = t.Text(i, "case_id");
    const int k = seen[id]++;
    keys[i] = k == 0 ? id : id + " row " + std::to_string(k + 1);
  }
  return keys;
}

void CompareTables(const Experiment& e, const ResultTable& a, const ResultTable& b, double tolerance, Comparison* out) {
  const std::string name = e.name();
  std::set<std::string> timing;
  for (const Column& c : e.columns()) {
    if (c.timing) timing.insert(c.name);
  }
  const std::vector<std::string> key_of_a = RowKeys(a), key_of_b = RowKeys(b);
  std::map<std::string, int> row_of_b;
  for (int i = 0; i < b.num_rows(); ++i) row_of_b[key_of_b[i]] = i;
  std::set<std::string> in_a;
  for (int i = 0; i < a.num_rows(); ++i) {
    in_a.insert(key_of_a[i]);
    if (!row_of_b.count(key_of_a[i])) out->missing.push_back(name + ": " + key_of_a[i] + " (in A, not in B)");
  }
  for (const auto& [key, row] : row_of_b) {
    if (!in_a.count(key)) out->missing.push_back(name + ": " + key + " (in B only)");
  }
  for (const std::string& column : a.columns()) {
    if (column == "case_id" || timing.count(column)) continue;
    if (b.ColumnIndex(column) < 0) {
      out->missing.push_back(name + ": column " + column + " (in A, not in B)");
      continue;
    }
    ColumnComparison c;
    c.experiment = name;
    c.column = column;
    for (int i = 0; i < a.num_rows(); ++i) {
      const auto it = row_of_b.find(key_of_a[i]);
      if (it == row_of_b.end()) continue;
      ++c.compared;
      const std::string& x = a.Text(i, column);
      const std::string& y = b.Text(it->second, column);
      double difference = 0.0;
      if (Agree(x, y, tolerance, &difference)) continue;
      ++c.differing;
      if (std::isfinite(difference)) c.max_difference = std::max(c.max_difference, difference);
      if (c.example.empty()) c.example = it->first + ": " + (x.empty() ? "(empty)" : x) + " -> " + (y.empty() ? "(empty)" : y);
    }
    out->differing_cells += c.differing;
    out->columns.push_back(std::move(c));
  }
}

// The claims of the experiments both folders ran (the others are listed as not compared).
void CompareClaims(const Judgement& a, const Judgement& b, const std::set<std::string>& compared, Comparison* out) {
  for (size_t i = 0; i < a.summary.entries.size() && i < b.summary.entries.size(); ++i) {
    const ReportEntry& x = a.summary.entries[i];
    const ReportEntry& y = b.summary.entries[i];
    if (!compared.count(x.claim.experiment)) continue;
    if (x.verdict == Verdict::kNotRun && y.verdict == Verdict::kNotRun) continue;
    ClaimComparison c{x.claim.id, x.ours, y.ours, x.verdict, y.verdict};
    c.regression = x.verdict == Verdict::kReproduced && y.verdict != Verdict::kReproduced;
    out->regressions += c.regression;
    out->claims.push_back(std::move(c));
  }
}

std::string DashIfEmpty(const std::string& s) { return s.empty() ? "-" : s; }

}  // namespace

Comparison CompareResults(const std::string& dir_a, const std::string& dir_b, const std::string& claims_file,
                          const CompareOptions& options) {
  for (const std::string& dir : {dir_a, dir_b}) {
    if (!fs::is_directory(dir)) throw InvalidArgument("compare: '" + dir + "' is not a folder of results");
  }
  if (!(options.tolerance >= 0.0)) throw InvalidArgument("compare: the tolerance must be >= 0");
  const auto& experiments = options.report.experiments != nullptr ? *options.report.experiments : Experiments();
  Comparison out;
  std::set<std::string> compared;
  for (const auto& e : experiments) {
    const std::string name = e->name();
    const fs::path csv_a = fs::path(dir_a) / name / (name + ".csv"), csv_b = fs::path(dir_b) / name / (name + ".csv");
    const bool has_a = fs::exists(csv_a), has_b = fs::exists(csv_b);
    if (!has_a && !has_b) continue;
    if (has_a != has_b) {
      out.only_in_one.push_back(name + (has_a ? " (A only)" : " (B only)"));
      continue;
    }
    CompareTables(*e, ResultTable::ReadCsv(csv_a.string()), ResultTable::ReadCsv(csv_b.string()), options.tolerance,
                  &out);
    compared.insert(name);
  }
  if (compared.empty() && out.only_in_one.empty()) {
    throw InvalidArgument("compare: neither '" + dir_a + "' nor '" + dir_b +
                          "' holds the results of a registered experiment (<folder>/<experiment>/<experiment>.csv)");
  }
  CompareClaims(JudgeResults(dir_a, claims_file, options.report), JudgeResults(dir_b, claims_file, options.report),
                compared, &out);
  for (const std::string& m : out.missing) out.regressions += m.find("(in A, not in B)") != std::string::npos;
  out.regressions += out.differing_cells;
  return out;
}

std::string FormatComparison(const Comparison& c, const std::string& label_a, const std::string& label_b) {
  std::ostringstream md;
  md << "A = " << label_a << "\nB = " << label_b << "\n\n";
  bool claims_changed = false;
  for (const ClaimComparison& k : c.claims) {
    if (k.ours_a == k.ours_b && k.verdict_a == k.verdict_b) continue;
    if (!claims_changed) md << "| claim | A | B | verdict A | verdict B | regression |\n|---|---|---|---|---|---|\n";
    claims_changed = true;
    md << "| " << k.id << " | " << DashIfEmpty(k.ours_a) << " | " << DashIfEmpty(k.ours_b) << " | " << ToString(k.verdict_a) << " | "
       << ToString(k.verdict_b) << " | " << (k.regression ? "yes" : "") << " |\n";
  }
  if (claims_changed) md << "\n";
  bool columns_changed = false;
  for (const ColumnComparison& k : c.columns) {
    if (k.differing == 0) continue;
    if (!columns_changed) {
      md << "| experiment | column | cases differing | largest difference | first |\n|---|---|---|---|---|\n";
    }
    columns_changed = true;
    md << "| " << k.experiment << " | " << k.column << " | " << k.differing << " of " << k.compared << " | "
       << (k.max_difference > 0.0 ? FormatShort(k.max_difference) : "-") << " | " << k.example
       << " |\n";
  }
  if (columns_changed) md << "\n";
  for (const std::string& m : c.missing) md << "- missing: " << m << "\n";
  for (const std::string& m : c.only_in_one) md << "- not compared: " << m << "\n";
  int cells = 0;
  for (const ColumnComparison& k : c.columns) cells += k.compared;
  md << (c.regressed() ? "REGRESSION: " : "no regression: ") << c.differing_cells << " of " << cells
     << " cells differ beyond the tolerance, " << c.claims.size() << " claims compared, "
     << (c.regressions - c.differing_cells) << " claims or cases regressed\n";
  return md.str();
}

}  // namespace arena
