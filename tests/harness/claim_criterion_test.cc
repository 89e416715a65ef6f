#include "harness/claim_criterion.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/common/error.h"
#include "tests/harness/toy_experiment.h"

namespace arena {
namespace claim_criterion_test {

using testing::Contains;
const double kNaN = std::numeric_limits<double>::quiet_NaN();

bool Met(const std::string& text, double ours, const std::map<std::string, double>& values = {}) {
  return Criterion::Parse(text).Evaluate(ours, values).met;
}

// The problem message of a criterion that does not parse.
std::string ParseProblem(const std::string& text) {
  try {
    Criterion::Parse(text);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "(parsed)";
}

TEST(ClaimCriterion, EveryOperatorOnBothSidesOfItsBoundary) {
  for (const auto& [op, below, at, above] :
       std::vector<std::tuple<std::string, bool, bool, bool>>{{"<", true, false, false},
                                                              {"<=", true, true, false},
                                                              {">", false, false, true},
                                                              {">=", false, true, true},
                                                              {"==", false, true, false},
                                                              {"!=", true, false, true}}) {
    const std::string c = "ours " + op + " 0.95";
    EXPECT_EQ(Met(c, 0.94, {}), below) << c;
    EXPECT_EQ(Met(c, 0.95, {}), at) << c;
    EXPECT_EQ(Met(c, 0.96, {}), above) << c;
    // The operand order is kept: 0.95 op ours mirrors it.
    const std::string mirrored = "0.95 " + op + " ours";
    EXPECT_EQ(Met(mirrored, 0.96, {}), below) << mirrored;
    EXPECT_EQ(Met(mirrored, 0.94, {}), above) << mirrored;
  }
  for (CompareOp op : {CompareOp::kLess, CompareOp::kLessEqual, CompareOp::kGreater, CompareOp::kGreaterEqual,
                       CompareOp::kEqual, CompareOp::kNotEqual}) {
    EXPECT_NE(ToString(op), "?");
  }
}

TEST(ClaimCriterion, SpacesAreOptionalAndNumbersAreDecimalLiterals) {
  EXPECT_TRUE(Met("ours>=1e-6", 1e-6));
  EXPECT_FALSE(Met("ours>=1e-6", 9.99e-7));
  EXPECT_TRUE(Met("  ours  <  -0.5 ", -0.6));
  EXPECT_TRUE(Met("ours == 1E+2", 100.0));
  EXPECT_TRUE(Met("ours > .5", 0.6));
  EXPECT_TRUE(Met("ours == 3.", 3.0));
  EXPECT_TRUE(Met("within 20% of 87.84", 100.0));
}

// |ours - Y| <= X / 100 * |Y|, both ends included, for positive and negative Y.
TEST(ClaimCriterion, Within) {
  EXPECT_TRUE(Met("within 20 % of 87.84", 87.84));
  EXPECT_TRUE(Met("within 20 % of 100", 80.0));
  EXPECT_TRUE(Met("within 20 % of 100", 120.0));
  EXPECT_FALSE(Met("within 20 % of 100", 79.9));
  EXPECT_FALSE(Met("within 20 % of 100", 120.1));
  EXPECT_TRUE(Met("within 10 % of -2", -2.1));
  EXPECT_TRUE(Met("within 10 % of -2", -1.9));
  EXPECT_FALSE(Met("within 10 % of -2", -2.3));
  EXPECT_FALSE(Met("within 10 % of -2", 2.0));
  EXPECT_TRUE(Met("within 0 % of 0", 0.0));
  EXPECT_FALSE(Met("within 50 % of 0", 1e-300));
  EXPECT_TRUE(Met("within 5 % of paper_value", 1.04, {{"paper_value", 1.0}}));
}

// A factor bounds the ratio both ways, as "within 2x of Table 2" reads; signs must agree.
TEST(ClaimCriterion, WithinFactor) {
  EXPECT_TRUE(Met("within factor 2 of 5.67e-3", 5.67e-3));
  EXPECT_TRUE(Met("within factor 2 of 1e-3", 2e-3));
  EXPECT_TRUE(Met("within factor 2 of 1e-3", 0.5e-3));
  EXPECT_FALSE(Met("within factor 2 of 1e-3", 2.01e-3));
  EXPECT_FALSE(Met("within factor 2 of 1e-3", 0.49e-3));
  EXPECT_TRUE(Met("within factor 10 of -1", -5.0));
  EXPECT_FALSE(Met("within factor 10 of -1", 5.0));
  EXPECT_FALSE(Met("within factor 2 of 0", 0.0));  // a ratio to zero bounds nothing
  EXPECT_TRUE(Met("within factor 1 of 3", 3.0));
  const std::map<std::string, double> v = {{"gap_mu_1e10_m", 6.2e-5}};
  EXPECT_TRUE(Met("gap_mu_1e10_m within factor 2 of 3.13e-5", kNaN, v));
  EXPECT_EQ(Criterion::Parse("gap_mu_1e10_m within factor 1.5 of 3.13e-5").Evaluate(0, v).reason,
            "gap_mu_1e10_m within factor 1.5 of 3.13e-5 does not hold: gap_mu_1e10_m = 6.2e-05");
  EXPECT_TRUE(Contains(ParseProblem("within factor 0.5 of 1"), "expected a factor >= 1 after 'within factor', found '0.5'"));
  EXPECT_TRUE(Contains(ParseProblem("within factor 2 1"), "expected 'of' after 'within factor 2', found '1'"));
}

// `S within ...` and `S between ...` judge S instead of ours.
TEST(ClaimCriterion, WithinAndBetweenOfANamedValue) {
  const std::map<std::string, double> v = {{"margin_mu_1e10_m", 3.0e-5}};
  EXPECT_TRUE(Met("margin_mu_1e10_m within 50 % of 3.13e-5", kNaN, v));
  EXPECT_FALSE(Met("margin_mu_1e10_m within 1 % of 3.13e-5", 3.13e-5, v));
  EXPECT_TRUE(Met("ours within 1 % of 3.13e-5", 3.13e-5, v));
  EXPECT_TRUE(Met("margin_mu_1e10_m between 1e-5 and 1e-4", kNaN, v));
  EXPECT_FALSE(Met("margin_mu_1e10_m between 1e-4 and 1e-3", 5e-4, v));
  EXPECT_TRUE(Met("within 20 % of 5.67e-3 and margin_mu_1e10_m within 20 % of 3.13e-5", 6e-3, v));
  EXPECT_EQ(Criterion::Parse("margin_mu_1e10_m between lo and 1").Names(),
            (std::vector<std::string>{"lo", "margin_mu_1e10_m"}));
  EXPECT_EQ(Criterion::Parse("margin_mu_1e10_m within 1 % of 3.13e-5").Evaluate(0, v).reason,
            "margin_mu_1e10_m within 1 % of 3.13e-5 does not hold: margin_mu_1e10_m = 3e-05");
}

TEST(ClaimCriterion, BetweenIncludesBothEnds) {
  EXPECT_TRUE(Met("between 1 and 2", 1.0));
  EXPECT_TRUE(Met("between 1 and 2", 1.5));
  EXPECT_TRUE(Met("between 1 and 2", 2.0));
  EXPECT_FALSE(Met("between 1 and 2", 0.999));
  EXPECT_FALSE(Met("between 1 and 2", 2.001));
  EXPECT_TRUE(Met("between lo and hi", 5.0, {{"lo", 4.0}, {"hi", 6.0}}));
  EXPECT_FALSE(Met("between lo and hi", 5.0, {{"lo", 6.0}, {"hi", 4.0}}));
}

TEST(ClaimCriterion, AndNeedsEveryClause) {
  const std::map<std::string, double> ok = {{"max_penetration_m", 2e-4}};
  const std::map<std::string, double> deep = {{"max_penetration_m", 2e-3}};
  const std::string c = "ours == 3 and max_penetration_m < 1e-3";
  EXPECT_TRUE(Met(c, 3.0, ok));
  EXPECT_FALSE(Met(c, 2.0, ok));
  EXPECT_FALSE(Met(c, 3.0, deep));
  // between's own 'and' is not a clause separator.
  EXPECT_TRUE(Met("between 0 and 10 and ours != 5", 4.0));
  EXPECT_FALSE(Met("between 0 and 10 and ours != 5", 5.0));
  EXPECT_FALSE(Met("between 0 and 10 and ours != 5", 11.0));
  EXPECT_TRUE(Met("ours > 1 and within 50 % of 2 and ours < n", 2.5, {{"n", 3.0}}));
}

TEST(ClaimCriterion, NamedValues) {
  const Criterion c = Criterion::Parse("ours == compared and b_2 >= x and within 1 % of y and between lo and 9");
  EXPECT_EQ(c.Names(), (std::vector<std::string>{"b_2", "compared", "lo", "x", "y"}));
  EXPECT_EQ(c.text(), "ours == compared and b_2 >= x and within 1 % of y and between lo and 9");
  const std::map<std::string, double> v = {{"compared", 3}, {"b_2", 2}, {"x", 1}, {"y", 3}, {"lo", 0}};
  EXPECT_TRUE(c.Evaluate(3.0, v).met);
  EXPECT_FALSE(c.Evaluate(2.0, v).met);
  // Criteria between two measured values, without ours.
  EXPECT_TRUE(Met("silico < bilevel", kNaN, {{"silico", 1}, {"bilevel", 2}}));
  EXPECT_FALSE(Met("silico < bilevel", kNaN, {{"silico", 2}, {"bilevel", 2}}));
  EXPECT_TRUE(Criterion::Parse("ours >= 0.5").Names().empty());
}

// A criterion that reads a value Summarize did not measure is a mismatch between the catalogue
// and the experiment: an error naming the value and the values there are.
TEST(ClaimCriterion, UnmeasuredValueIsAnError) {
  const Criterion c = Criterion::Parse("ours == compared");
  try {
    c.Evaluate(2.0, {{"problems", 3.0}});
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_TRUE(Contains(e.what(), "reads 'compared', which the experiment did not measure"));
    EXPECT_TRUE(Contains(e.what(), "ours, problems"));
  }
}

// A NaN (nothing measured, 0 / 0) never reproduces a claim, whatever the operator, and says why.
TEST(ClaimCriterion, NaNDiffersWithAReason) {
  for (const std::string c : {"ours < 1", "ours <= 1", "ours > 1", "ours >= 1", "ours == 1", "ours != 1",
                              "within 20 % of 1", "between 0 and 1"}) {
    const Criterion::Outcome o = Criterion::Parse(c).Evaluate(kNaN, {});
    EXPECT_FALSE(o.met) << c;
    EXPECT_TRUE(Contains(o.reason, "ours is NaN")) << c;
  }
  const Criterion::Outcome o = Criterion::Parse("ours == 3 and depth < 1e-3").Evaluate(3.0, {{"depth", kNaN}});
  EXPECT_FALSE(o.met);
  EXPECT_TRUE(Contains(o.reason, "depth < 1e-3 cannot hold: depth is NaN"));
  EXPECT_FALSE(Met("within 20 % of y", 1.0, {{"y", kNaN}}));
}

TEST(ClaimCriterion, ReasonNamesTheFailingClauseAndItsValues) {
  const Criterion c = Criterion::Parse("ours == 3 and max_penetration_m < 1e-3");
  EXPECT_EQ(c.Evaluate(3.0, {{"max_penetration_m", 1e-4}}).reason, "");
  EXPECT_EQ(c.Evaluate(3.0, {{"max_penetration_m", 0.002}}).reason,
            "max_penetration_m < 1e-3 does not hold: max_penetration_m = 0.002");
  EXPECT_EQ(c.Evaluate(2.0, {{"max_penetration_m", 0.002}}).reason,
            "ours == 3 does not hold: ours = 2; max_penetration_m < 1e-3 does not hold: max_penetration_m = 0.002");
  EXPECT_EQ(Criterion::Parse("within 20 % of 87.84").Evaluate(50.0, {}).reason,
            "within 20 % of 87.84 does not hold: ours = 50");
}

TEST(ClaimCriterion, ParseErrorsSayWhatAndWhere) {
  EXPECT_TRUE(Contains(ParseProblem(""), "empty criterion"));
  EXPECT_TRUE(Contains(ParseProblem("   "), "empty criterion"));
  EXPECT_TRUE(Contains(ParseProblem("ours >="), "column 8: expected 'ours', a measured value's name or a number after '>=', found the end"));
  EXPECT_TRUE(Contains(ParseProblem("ours 0.95"), "column 6: expected an operator (< <= > >= == !=), 'within' or 'between' after 'ours', found '0.95'"));
  EXPECT_TRUE(Contains(ParseProblem("ours => 1"), "column 6: unknown operator '='"));
  EXPECT_TRUE(Contains(ParseProblem("ours = 1"), "unknown operator '='"));
  EXPECT_TRUE(Contains(ParseProblem("ours ! 1"), "unknown operator '!'"));
  EXPECT_TRUE(Contains(ParseProblem("ours >= 0.95 or ours < 0"), "column 14: expected 'and' between clauses (or the end), found 'or'"));
  EXPECT_TRUE(Contains(ParseProblem("ours >= 1 and"), "found the end"));
  EXPECT_TRUE(Contains(ParseProblem("ours > 1e"), "'1e' is not a number"));
  EXPECT_TRUE(Contains(ParseProblem("ours > 1.2.3"), "'1.2.3' is not a number"));
  EXPECT_TRUE(Contains(ParseProblem("ours > 3m"), "'3m' is not a number"));
  EXPECT_TRUE(Contains(ParseProblem("ours > 1e999"), "'1e999' is not a number"));
  EXPECT_TRUE(Contains(ParseProblem("ours > 1 + 2"), "column 10: unexpected character '+'"));
  EXPECT_TRUE(Contains(ParseProblem("1 < 2"), "column 1: '1 < 2' only reads numbers"));
  EXPECT_TRUE(Contains(ParseProblem("ours > 0 and 5 within 10 % of 5"), "column 14: '5 within 10 % of 5' only reads numbers"));
  EXPECT_TRUE(Contains(ParseProblem("2 between 1 and 3"), "'2 between 1 and 3' only reads numbers"));
  EXPECT_TRUE(Contains(ParseProblem("ours > 1 within 5 % of 2"), "expected 'and' between clauses"));
  EXPECT_TRUE(Contains(ParseProblem("ours > and"), "found 'and'"));
  EXPECT_TRUE(Contains(ParseProblem("within 20 of 87.84"), "expected '%' after 'within 20', found 'of'"));
  EXPECT_TRUE(Contains(ParseProblem("within x % of 87.84"), "expected a percentage >= 0 after 'within', found 'x'"));
  EXPECT_TRUE(Contains(ParseProblem("within -5 % of 87.84"), "expected a percentage >= 0"));
  EXPECT_TRUE(Contains(ParseProblem("within 20 % 87.84"), "expected 'of' after 'within 20 %', found '87.84'"));
  EXPECT_TRUE(Contains(ParseProblem("between 1 2"), "expected 'and' after 'between 1', found '2'"));
  EXPECT_TRUE(Contains(ParseProblem("between 2 and 1"), "'between 2 and 1' is empty"));
  EXPECT_TRUE(Contains(ParseProblem("between 1 and"), "after 'and', found the end"));
}

}  // namespace claim_criterion_test
}  // namespace arena
