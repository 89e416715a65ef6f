// `arena compare` (harness/compare.h) on copies of a committed reference: the same folder twice
// regresses nothing; an edited cell, a lost case or a claim that no longer holds is reported.
#include "harness/compare.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <unistd.h>

#include "experiments/result_table.h"
#include "core/common/error.h"
#include "tests/test_paths.h"

namespace arena {
namespace compare_test {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const std::string kSource = ::arena::testing::SourceDir();
const std::string kClaims = kSource + "/experiments";

class CompareTest : public ::testing::Test {
 protected:
  CompareTest() : root_(fs::temp_directory_path() / ("arena_compare_" + std::to_string(::getpid()))) {
    for (const char* side : {"A", "B"}) {
      fs::create_directories(root_ / side);
      fs::copy(kSource + "/tests/data/reference/lcp_warmstart", root_ / side / "lcp_warmstart");
    }
  }
  ~CompareTest() override { fs::remove_all(root_); }
  std::string A() const { return (root_ / "A").string(); }
  std::string B() const { return (root_ / "B").string(); }
  // Rewrites B's CSV with `edit` applied to its text.
  template <class F>
  void EditB(F edit) {
    const fs::path csv = root_ / "B" / "lcp_warmstart" / "lcp_warmstart.csv";
    std::stringstream text;
    text << std::ifstream(csv).rdbuf();
    std::string s = text.str();
    edit(&s);
    std::ofstream(csv) << s;
  }
  fs::path root_;
};

TEST_F(CompareTest, TheSameResultsRegressNothing) {
  const Comparison c = CompareResults(A(), B(), kClaims);
  EXPECT_FALSE(c.regressed());
  EXPECT_EQ(c.differing_cells, 0);
  ASSERT_EQ(c.claims.size(), 1u);
  EXPECT_EQ(c.claims[0].id, "lcp_warmstart.hit_rate");
  EXPECT_THAT(FormatComparison(c, "a", "b"), HasSubstr("no regression"));
}

// Atlas's hits halved: the cell and the claim it feeds (0.957 -> 0.906, below the paper's 0.95).
TEST_F(CompareTest, AnEditedMetricAndTheClaimItBreaksAreReported) {
  const ResultTable before = ResultTable::ReadCsv(B() + "/lcp_warmstart/lcp_warmstart.csv");
  const std::string hits = before.Text(0, "hits");
  EditB([&](std::string* s) {
    const size_t row = s->find("nimble/atlas/ic=0");
    const size_t at = s->find("," + hits + ",", row);
    s->replace(at + 1, hits.size(), std::to_string(std::stoi(hits) / 2));
  });
  const Comparison c = CompareResults(A(), B(), kClaims);
  EXPECT_TRUE(c.regressed());
  EXPECT_EQ(c.differing_cells, 1);
  ASSERT_EQ(c.claims.size(), 1u);
  EXPECT_TRUE(c.claims[0].regression);
  const std::string text = FormatComparison(c, "a", "b");
  EXPECT_THAT(text, HasSubstr("| lcp_warmstart | hits | 1 of 8 |"));
  EXPECT_THAT(text, HasSubstr("nimble/atlas/ic=0"));
  EXPECT_THAT(text, HasSubstr("REGRESSION"));
  // Within a looser tolerance the cell agrees (the claim still regresses).
  CompareOptions loose;
  loose.tolerance = 1.0;
  EXPECT_EQ(CompareResults(A(), B(), kClaims, loose).differing_cells, 0);
}

TEST_F(CompareTest, ACaseLostInBIsARegression) {
  EditB([](std::string* s) {
    const size_t row = s->find("\nnimble/half_cheetah/ic=0");
    s->erase(row + 1, s->find('\n', row + 1) - row);
  });
  const Comparison c = CompareResults(A(), B(), kClaims);
  EXPECT_TRUE(c.regressed());
  EXPECT_THAT(::testing::PrintToString(c.missing), HasSubstr("nimble/half_cheetah/ic=0 (in A, not in B)"));
}

// An experiment writing a row per iteration (drone_liftoff: 51 rows per case): rows are matched
// by their place within their case. (Matched by case alone, every row of a case was compared with
// its last one, and a folder differed from its own copy in 150 cells.)
TEST_F(CompareTest, RowsOfOneCaseAreMatchedInOrder) {
  for (const char* side : {"A", "B"}) fs::copy(kSource + "/tests/data/reference/drone_liftoff", root_ / side / "drone_liftoff");
  const Comparison same = CompareResults(A(), B(), kClaims);
  EXPECT_EQ(same.differing_cells, 0);
  EXPECT_TRUE(same.missing.empty()) << ::testing::PrintToString(same.missing);
  // The third row of nimble/standard (iteration 2) edited in B's loss column.
  const fs::path csv = root_ / "B" / "drone_liftoff" / "drone_liftoff.csv";
  ResultTable table = ResultTable::ReadCsv(csv.string());
  const int loss = table.ColumnIndex("loss");
  ASSERT_GE(loss, 0);
  ASSERT_EQ(table.Text(2, "case_id"), "nimble/standard");
  std::stringstream text;
  text << std::ifstream(csv).rdbuf();
  std::vector<std::string> lines;
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  std::string& line = lines[3];  // the header, then rows 0, 1, 2 (no quoted cells in them)
  size_t begin = 0;
  for (int k = 0; k < loss; ++k) begin = line.find(',', begin) + 1;
  line.replace(begin, line.find(',', begin) - begin, "99");
  std::ofstream out(csv);
  for (const std::string& l : lines) out << l << "\n";
  out.close();
  const Comparison c = CompareResults(A(), B(), kClaims);
  EXPECT_EQ(c.differing_cells, 1);
  EXPECT_THAT(FormatComparison(c, "a", "b"), HasSubstr("nimble/standard row 3"));
}

TEST_F(CompareTest, AFolderWithoutResultsIsAnError) {
  EXPECT_THROW(CompareResults(A(), (root_ / "nowhere").string(), kClaims), InvalidArgument);
  fs::create_directories(root_ / "empty");
  fs::create_directories(root_ / "empty2");
  EXPECT_THROW(CompareResults((root_ / "empty").string(), (root_ / "empty2").string(), kClaims), InvalidArgument);
  // Results on one side only are listed, not compared.
  const Comparison c = CompareResults(A(), (root_ / "empty").string(), kClaims);
  EXPECT_THAT(::testing::PrintToString(c.only_in_one), HasSubstr("lcp_warmstart (A only)"));
}

}  // namespace compare_test
}  // namespace arena
