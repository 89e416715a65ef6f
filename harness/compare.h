// `arena compare A B`: two results folders head to head (two commits, two option sets). Per
// experiment found in both, the rows are matched by case_id and every column that is not a
// timing column is compared: numbers within a tolerance (by default the regression references'
// 1e-9 (1 + |A|)), everything else exactly. Per claim of experiments/<name>/claims.toml, A's and B's
// values and verdicts (for the experiments both ran). A regression is a claim A reproduces and B
// does not, a cell outside the tolerance, or a case A has and B lacks; the CLI exits 1 on one.
// Experiments in one folder only are listed, not compared.
#pragma once

#include <string>
#include <vector>

#include "harness/report.h"

namespace arena {

struct CompareOptions {
  double tolerance = 1e-9;  // relative, on 1 + |A|
  ReportOptions report;     // the experiments to look for (nullptr: the registry)
};

/// One column of one experiment: how many cells were compared and how many differ.
struct ColumnComparison {
  std::string experiment, column;
  int compared = 0;
  int differing = 0;
  double max_difference = 0.0;  // numbers: the largest |B - A|
  std::string example;          // the first differing case: "case_id: A -> B"
};

struct ClaimComparison {
  std::string id;
  std::string ours_a, ours_b;  // as the report shows them ("" when not measured)
  Verdict verdict_a = Verdict::kNotRun, verdict_b = Verdict::kNotRun;
  bool regression = false;  // A reproduces it, B does not
};

struct Comparison {
  std::vector<ColumnComparison> columns;  // every compared column (differing or not)
  std::vector<ClaimComparison> claims;    // claims measured in A or B
  std::vector<std::string> missing;       // "experiment: case_id" in A, not in B (and the reverse, marked)
  std::vector<std::string> only_in_one;   // experiments with results in one folder only
  int differing_cells = 0;
  int regressions = 0;  // claims regressed + differing cells + cases missing from B
  bool regressed() const { return regressions > 0; }
};

/// Throws InvalidArgument naming a folder that does not exist or holds no results, and what
/// JudgeResults throws.
Comparison CompareResults(const std::string& dir_a, const std::string& dir_b, const std::string& claims_file,
                          const CompareOptions& options = {});

/// The comparison as Markdown tables: claims whose value or verdict changed, columns with
/// differences, cases missing; or one line saying nothing differs.
std::string FormatComparison(const Comparison& c, const std::string& label_a, const std::string& label_b);

}  // namespace arena
