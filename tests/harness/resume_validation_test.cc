// Issue 14, class 5: a resume never duplicates, invents or loses a row. Each test damages the
// files a finished (or killed) run left, resumes, and checks the final table against an
// undamaged run: every case exactly once, the same values, the good rows kept byte for byte,
// and the damaged cases run again (results_store.h has the rules).
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <set>
#include <sstream>

#include "experiments/result_table.h"
#include "core/common/error.h"
#include "harness/runner.h"
#include "tests/harness/toy_experiment.h"

namespace arena {
namespace resume_validation_test {

namespace fs = std::filesystem;
using testing::ToyExperiment;
using testing::WithoutTiming;

// The toy with a bool column, so that a cell can be "maybe".
class TypedToy : public ToyExperiment {
 public:
  std::vector<Column> columns() const override {
    std::vector<Column> c = ToyExperiment::columns();
    c.push_back({"ok", "always true", false, ColumnType::kBool});
    return c;
  }
  std::vector<Row> Run(const Case& c) const override {
    std::vector<Row> rows = ToyExperiment::Run(c);
    for (Row& r : rows) r["ok"] = true;
    return rows;
  }
};

constexpr int kCases = 30;  // the toy's quick profile

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line + "\n");
  return lines;
}

std::string Concat(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l;
  return s;
}

// One damage: the reference run's lines (header first, rows sorted by case) -> the files a
// resume finds. `partial` false: the damage is written as E.csv (a finished run), else as
// E.partial.csv (a killed one).
struct Damage {
  std::string name;
  bool partial = true;
  std::function<std::vector<std::string>(std::vector<std::string>)> apply;
  int rows_dropped = 0;          // duplicates and unknown cases
  std::set<int> rerun;           // case indexes that must run again (besides those not in the file)
  std::set<int> kept;            // case indexes whose rows must be kept byte for byte
};

void PrintTo(const Damage& damage, std::ostream* os) { *os << damage.name; }

class ResumeValidationTest : public ::testing::TestWithParam<Damage> {
 protected:
  void SetUp() override { testing::WriteFile(dir_ / "configs/toy.toml", testing::kToyConfig); }
  RunOptions Options(const std::string& out) const { return testing::ToyRunOptions(dir_.path(), out); }
  testing::ScratchDir dir_;
};

// Keeps lines 0 (header) and the rows of case indexes `cases`, in that order.
std::vector<std::string> Pick(const std::vector<std::string>& all, const std::vector<int>& cases) {
  std::vector<std::string> out = {all[0]};
  for (int i : cases) out.push_back(all[1 + i]);
  return out;
}

std::string Replace(std::string line, const std::string& from, const std::string& to) {
  const auto at = line.find(from);
  if (at != std::string::npos) line.replace(at, from.size(), to);
  return line;
}

TEST_P(ResumeValidationTest, FinalTableHasEveryCaseOnceWithItsValues) {
  const Damage& damage = GetParam();
  TypedToy reference_toy;
  RunExperiment(reference_toy, Options("reference"));
  const std::string reference_csv = dir_ / "reference/toy/toy.csv";
  const std::vector<std::string> all = Lines(testing::ReadFile(reference_csv));
  ASSERT_EQ(all.size(), 1u + kCases);
  const ResultTable reference = ResultTable::ReadCsv(reference_csv);

  const std::vector<std::string> damaged = damage.apply(all);
  const std::string folder = dir_ / "results/toy";
  testing::WriteFile(folder + (damage.partial ? "/toy.partial.csv" : "/toy.csv"), Concat(damaged));
  fs::copy_file(dir_ / "reference/toy/toy.json", folder + "/toy.json");

  TypedToy toy;
  const RunSummary s = RunExperiment(toy, Options("results"));
  EXPECT_EQ(s.rows_dropped, damage.rows_dropped);
  EXPECT_EQ(s.cases_rerun, static_cast<int>(damage.rerun.size()));
  const ResultTable t = ResultTable::ReadCsv(s.csv_path);
  ASSERT_EQ(t.num_rows(), kCases);
  std::set<std::string> ids;
  for (int r = 0; r < t.num_rows(); ++r) ids.insert(t.Text(r, "case_id"));
  EXPECT_EQ(ids.size(), static_cast<size_t>(kCases));
  EXPECT_EQ(WithoutTiming(t), WithoutTiming(reference));
  for (int i : damage.kept) EXPECT_EQ(t.cells()[i], reference.cells()[i]) << "case " << i << " was not kept";
  // Every case that was not kept ran again, and only those.
  EXPECT_EQ(s.cases_skipped, static_cast<int>(damage.kept.size()));
  EXPECT_EQ(toy.calls.load(), kCases - static_cast<int>(damage.kept.size()));
  // Whatever was dropped is kept aside, as the files were.
  if (damage.rows_dropped > 0 || !damage.rerun.empty()) {
    EXPECT_TRUE(fs::exists(folder + "/superseded"));
  }
  // A second resume has nothing to do.
  TypedToy again;
  const RunSummary second = RunExperiment(again, Options("results"));
  EXPECT_EQ(second.cases_run, 0);
  EXPECT_EQ(second.rows_dropped + second.cases_rerun, 0);
}

std::set<int> Except(std::set<int> all, std::initializer_list<int> out) {
  for (int i : out) all.erase(i);
  return all;
}

std::set<int> Range(int from, int to) {
  std::set<int> s;
  for (int i = from; i < to; ++i) s.insert(i);
  return s;
}

INSTANTIATE_TEST_SUITE_P(
    Damages, ResumeValidationTest,
    ::testing::Values(
        // A finished table with one row twice (the 3601 rows of the issue): the copy is dropped.
        Damage{"duplicate_row_in_final_table", false,
               [](std::vector<std::string> l) {
                 l.insert(l.begin() + 5, l[4]);
                 return l;
               },
               1, {}, Range(0, kCases)},
        // The same row again much later in a killed run's file.
        Damage{"duplicate_row_later_in_partial", true,
               [](std::vector<std::string> l) {
                 auto p = Pick(l, {3, 1, 2, 9});
                 p.push_back(l[1 + 1]);
                 return p;
               },
               1, {}, {1, 2, 3, 9}},
        // A row whose case is not in the sweep: dropped, nothing invented.
        Damage{"unknown_case_id", true,
               [](std::vector<std::string> l) {
                 auto p = Pick(l, {0, 1, 2});
                 p.push_back(Replace(l[1 + 5], "alpha/", "gamma/"));
                 return p;
               },
               1, {}, {0, 1, 2}},
        // failed=maybe: a bool column that is not true/false makes its case run again.
        Damage{"bool_cell_not_true_or_false", false,
               [](std::vector<std::string> l) {
                 l[1 + 7] = Replace(l[1 + 7], ",true,", ",maybe,");
                 return l;
               },
               0, {7}, Except(Range(0, kCases), {7})},
        // max_penetration_m=notanumber: a number column with text.
        Damage{"number_cell_not_a_number", true,
               [](std::vector<std::string> l) {
                 auto p = Pick(l, {4, 5, 6});
                 const std::string& row = p[2];
                 const auto second = row.find(',', row.find(',') + 1);
                 p[2] = row.substr(0, second + 1) + "notanumber" + row.substr(row.find(',', second + 1));
                 return p;
               },
               0, {5}, {4, 6}},
        // A garbled line with the wrong field count mid-file: its case runs again, every good row
        // is kept (the "line 2355: 14 fields, but the header has 21").
        Damage{"line_with_wrong_field_count_mid_file", false,
               [](std::vector<std::string> l) {
                 const std::string row = l[1 + 12];
                 l[1 + 12] = row.substr(0, row.find(',', row.find(',') + 1)) + ",1,2\n";
                 return l;
               },
               0, {12}, Except(Range(0, kCases), {12})},
        // A line whose case id cannot be read: the cases on either side run again (the line is
        // one of their rows, or a case of its own that is missing anyway).
        Damage{"unreadable_line_without_case_id", true,
               [](std::vector<std::string> l) {
                 auto p = Pick(l, {0, 1, 2, 3});
                 p.insert(p.begin() + 3, "\"broken quote,1,2\n");
                 return p;
               },
               0, {1, 2}, {0, 3}},
        // A line cut inside its case id mid-file: of the rows around it, only the case whose id
        // it begins runs again.
        Damage{"line_cut_inside_the_case_id", true,
               [](std::vector<std::string> l) {
                 auto p = Pick(l, {0, 1, 2, 3});
                 p.insert(p.begin() + 3, p[3].substr(0, p[3].find("/r=") + 2) + "\n");
                 return p;
               },
               0, {2}, {0, 1, 3}},
        // A row whose model column disagrees with its case.
        Damage{"model_not_the_cases_model", true,
               [](std::vector<std::string> l) {
                 auto p = Pick(l, {0, 1});
                 p[2] = Replace(p[2], ",alpha,", ",beta,");
                 return p;
               },
               0, {1}, {0}},
        // A killed run's file with the same row twice in a row.
        Damage{"same_row_twice_in_partial", true,
               [](std::vector<std::string> l) { return Pick(l, {8, 8}); },
               1, {}, {8}}),
    [](const ::testing::TestParamInfo<Damage>& info) { return info.param.name; });

// The rows of a case in both files: E.csv's are kept, E.partial.csv's dropped.
TEST_F(ResumeValidationTest, CaseInBothFilesKeepsTheFinishedTablesRow) {
  TypedToy reference_toy;
  RunExperiment(reference_toy, Options("reference"));
  const std::vector<std::string> all = Lines(testing::ReadFile(dir_ / "reference/toy/toy.csv"));
  const std::string folder = dir_ / "results/toy";
  testing::WriteFile(folder + "/toy.csv", Concat(Pick(all, {0, 1, 2})));
  std::string changed = Replace(all[1 + 1], "a, ", "b, ");  // the note column: text, still valid
  testing::WriteFile(folder + "/toy.partial.csv", all[0] + changed);
  fs::copy_file(dir_ / "reference/toy/toy.json", folder + "/toy.json");
  TypedToy toy;
  const RunSummary s = RunExperiment(toy, Options("results"));
  EXPECT_EQ(s.rows_dropped, 1);
  EXPECT_EQ(s.cases_skipped, 3);
  const ResultTable t = ResultTable::ReadCsv(s.csv_path);
  EXPECT_EQ(t.num_rows(), kCases);
  EXPECT_EQ(t.Text(1, "note"), "a, \"quoted\" note");
}

// A model run before (beta) and not now: its rows are checked against the sweep it was run
// with, so a beta row of a case that sweep never had is dropped, and its good rows are kept.
TEST_F(ResumeValidationTest, RowsOfModelsNotRunNowAreCheckedAgainstTheirSweep) {
  TypedToy toy;
  RunOptions beta = Options("results");
  beta.models = {"beta"};
  RunExperiment(toy, beta);
  const std::string csv = dir_ / "results/toy/toy.csv";
  std::vector<std::string> lines = Lines(testing::ReadFile(csv));
  ASSERT_EQ(lines.size(), 11u);
  lines.push_back(Replace(lines[1], "/x=1/", "/x=99/"));
  testing::WriteFile(csv, Concat(lines));
  RunOptions alpha = Options("results");
  alpha.models = {"alpha"};
  TypedToy second;
  const RunSummary s = RunExperiment(second, alpha);
  EXPECT_EQ(s.rows_dropped, 1);
  EXPECT_EQ(s.rows_kept, 10);
  EXPECT_EQ(ResultTable::ReadCsv(csv).num_rows(), kCases);
}

}  // namespace resume_validation_test
}  // namespace arena
