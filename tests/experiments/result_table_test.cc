#include "experiments/result_table.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/common/error.h"
#include "harness/csv_writer.h"
#include "tests/harness/toy_experiment.h"

namespace arena {
namespace result_table_test {

using testing::Contains;

TEST(CsvLineTest, QuotesOnlyWhenNeeded) {
  EXPECT_EQ(CsvLine({"a", "1.5", ""}), "a,1.5,\n");
  EXPECT_EQ(CsvLine({"a,b", "say \"hi\"", " x"}), "\"a,b\",\"say \"\"hi\"\"\",\" x\"\n");
  EXPECT_EQ(CsvLine({"two\nlines", "cr\r\nlf"}), "two lines,cr  lf\n");  // one row per line
}

TEST(ResultTableTest, RoundTripThroughCsvLine) {
  const std::vector<std::string> header = {"case_id", "note", "value"};
  const std::vector<std::vector<std::string>> rows = {
      {"a/1", "plain", "1"}, {"a/2", "comma, and \"quotes\"", "-2.5e-3"}, {"a/3", "", ""}};
  std::string text = CsvLine(header);
  for (const auto& r : rows) text += CsvLine(r);
  const ResultTable t = ResultTable::ParseCsv(text, "mem.csv");
  EXPECT_EQ(t.columns(), header);
  EXPECT_EQ(t.cells(), rows);
  EXPECT_EQ(t.num_rows(), 3);
  EXPECT_EQ(t.Text(1, "note"), "comma, and \"quotes\"");
  EXPECT_DOUBLE_EQ(t.Number(1, "value"), -2.5e-3);
  EXPECT_TRUE(std::isnan(t.Number(2, "value")));
  EXPECT_TRUE(std::isnan(t.Number(0, "note")));
}

TEST(ResultTableTest, NumbersBooleansFilterDistinct) {
  const ResultTable t({"model", "ok", "x"},
                      {{"a", "true", "1"}, {"b", "false", "2"}, {"a", "false", "nan"}});
  EXPECT_EQ(t.Number(0, "ok"), 1.0);
  EXPECT_EQ(t.Number(1, "ok"), 0.0);
  EXPECT_TRUE(std::isnan(t.Number(2, "x")));
  EXPECT_EQ(t.ColumnIndex("x"), 2);
  EXPECT_EQ(t.ColumnIndex("y"), -1);
  const ResultTable a = t.Filter("model", "a");
  EXPECT_EQ(a.num_rows(), 2);
  EXPECT_EQ(a.columns(), t.columns());
  EXPECT_EQ(t.Distinct("model"), (std::vector<std::string>{"a", "b"}));
  EXPECT_THROW(t.Text(0, "nope"), InvalidArgument);
  EXPECT_THROW(t.Filter("nope", "a"), InvalidArgument);
  EXPECT_THROW(t.Text(5, "x"), InvalidArgument);
  EXPECT_THROW(ResultTable({"a", "b"}, {{"1"}}), InvalidArgument);
  try {
    t.Text(0, "nope");
  } catch (const InvalidArgument& e) {
    EXPECT_TRUE(Contains(e.what(), "columns: model, ok, x"));
  }
}

TEST(ResultTableTest, TypedCellsAndFilters) {
  const ResultTable t({"ok", "x"}, {{"true", "10"}, {"false", "1e1"}, {"", "2.5"}, {"maybe", "x"}});
  EXPECT_TRUE(t.Bool(0, "ok"));
  EXPECT_FALSE(t.Bool(1, "ok"));
  EXPECT_FALSE(t.Bool(2, "ok"));  // empty: not true
  EXPECT_THROW(t.Bool(3, "ok"), InvalidArgument);
  EXPECT_EQ(t.FilterBool("ok", true).num_rows(), 1);
  EXPECT_EQ(t.FilterBool("ok", false).num_rows(), 1);  // the empty cell is neither
  EXPECT_EQ(t.FilterNumber("x", 10.0).num_rows(), 2);  // "10" and "1e1" are the same number
  EXPECT_EQ(t.FilterNumber("x", 2.5).cells()[0][1], "2.5");
  EXPECT_THROW(ResultTable({"x"}, {}).FilterNumber("nope", 1.0), InvalidArgument);
}

TEST(ResultTableTest, WrongFieldCountNamesFileAndLine) {
  try {
    ResultTable::ParseCsv("a,b\n1,2\n3\n", "bad.csv");
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), "bad.csv");
    EXPECT_EQ(e.where(), "line 3");
    EXPECT_TRUE(Contains(e.what(), "1 fields, but the header has 2"));
  }
}

TEST(ResultTableTest, MalformedQuotingNamesLine) {
  try {
    ResultTable::ParseCsv("a,b\n1,2\n\"x\"y,3\n", "bad.csv");
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.where(), "line 3");
  }
  try {
    ResultTable::ParseCsv("a,b\n1,\"unterminated\n", "bad.csv");
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_TRUE(Contains(e.what(), "bad.csv"));
  }
  EXPECT_THROW(ResultTable::ParseCsv("", "empty.csv"), ParseError);
  EXPECT_THROW(ResultTable::ReadCsv("/nonexistent/file.csv"), ParseError);
}

TEST(ResultTableTest, ReadCsvFromFile) {
  testing::ScratchDir dir;
  testing::WriteFile(dir / "t.csv", "a,b\r\n1,2\r\n");  // CRLF is accepted
  const ResultTable t = ResultTable::ReadCsv(dir / "t.csv");
  ASSERT_EQ(t.num_rows(), 1);
  EXPECT_EQ(t.Text(0, "b"), "2");
}

TEST(RowFormatterTest, FixedColumnOrderAndParams) {
  testing::ToyExperiment toy;
  RowFormatter f(toy);
  EXPECT_EQ(f.columns(), (std::vector<std::string>{"case_id", "model", "x", "k", "rep", "metric",
                                                   "metric_sq", "note", "run_time_s", "error"}));
  Case c;
  c.id = "alpha/x=1";
  c.model = "alpha";
  c.params = {{"x", std::int64_t{1}}, {"k", std::string("1000")}, {"rep", std::int64_t{0}}};
  Row row;
  row["metric"] = 0.25;
  row["note"] = true;
  EXPECT_EQ(f.Format(c, {row}), "alpha/x=1,alpha,1,1000,0,0.25,,true,,\n");
  EXPECT_EQ(f.FormatError(c, "boom, twice"), "alpha/x=1,alpha,1,1000,0,,,,,\"boom, twice\"\n");
  Row bad;
  bad["undeclared"] = 1.0;
  EXPECT_THROW(f.Format(c, {bad}), InvalidArgument);
}

TEST(RowFormatterTest, RejectsDuplicateOrHarnessColumns) {
  struct Dup : testing::ToyExperiment {
    std::vector<Column> columns() const override { return {{"x", ""}, {"error", ""}}; }
  };
  Dup dup;
  EXPECT_THROW(RowFormatter{dup}, InvalidArgument);
}

}  // namespace result_table_test
}  // namespace arena
