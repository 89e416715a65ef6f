#include "core/common/options.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace arena {
namespace options_test {

struct ToyOptions {
  double step = 0.01;     // s
  double tolerance = 0.0; // 0: the default
  int iterations = 30;
  bool verbose = false;

  template <class V>
  void VisitFields(V&& v) {
    v("step", step, "step length", "s", LeftOpen(0.0, 1.0));
    v("tolerance", tolerance, "solver tolerance; 0 = automatic", "", ZeroOr(Closed(1e-12, 1e-3)));
    v("iterations", iterations, "iteration cap", "", Closed(1, 100));
    v("verbose", verbose, "print progress");
  }
  std::string Validate() const { return CheckRanges(*this); }
};

TEST(Range, ContainsItsEndsAndNothingNonFinite) {
  const Range closed = Closed(1.0, 2.0), open = LeftOpen(0.0, 1.0), zero = ZeroOr(Closed(1e-3, 1.0));
  EXPECT_TRUE(closed.Contains(1.0));
  EXPECT_TRUE(closed.Contains(2.0));
  EXPECT_FALSE(closed.Contains(std::nextafter(2.0, 3.0)));
  EXPECT_FALSE(open.Contains(0.0));
  EXPECT_TRUE(open.Contains(std::numeric_limits<double>::denorm_min()));
  EXPECT_TRUE(zero.Contains(0.0));
  EXPECT_FALSE(zero.Contains(1e-4));
  for (const Range& r : {closed, open, zero}) {
    EXPECT_FALSE(r.Contains(std::numeric_limits<double>::quiet_NaN()));
    EXPECT_FALSE(r.Contains(std::numeric_limits<double>::infinity()));
    EXPECT_FALSE(r.Contains(-std::numeric_limits<double>::infinity()));
  }
  EXPECT_EQ(closed.ToString(), "[1, 2]");
  EXPECT_EQ(open.ToString(), "(0, 1]");
  EXPECT_EQ(zero.ToString(), "0 or [0.001, 1]");
  EXPECT_EQ(zero.Requirement(), "0 or in [0.001, 1]");
  EXPECT_EQ(closed.Requirement(), "in [1, 2]");
}

TEST(CheckRanges, NamesTheKeyTheRangeAndTheValue) {
  ToyOptions o;
  EXPECT_EQ(o.Validate(), "");
  o.step = 0.0;
  EXPECT_EQ(o.Validate(), "step must be in (0, 1], got 0");
  o.step = 0.5;
  o.tolerance = std::numeric_limits<double>::infinity();
  EXPECT_EQ(o.Validate(), "tolerance must be 0 or in [1e-12, 0.001], got inf");
  o.tolerance = 0.0;
  o.iterations = 2000000000;
  EXPECT_EQ(o.Validate(), "iterations must be in [1, 100], got 2000000000");
}

TEST(DescribeOptions, PrintsTheRangeInTheDoc) {
  const std::vector<OptionInfo> info = DescribeOptions(ToyOptions{});
  ASSERT_EQ(info.size(), 4u);
  EXPECT_EQ(info[0].doc, "step length; valid: (0, 1]");
  EXPECT_EQ(info[0].valid, "(0, 1]");
  EXPECT_EQ(info[1].valid, "0 or [1e-12, 0.001]");
  EXPECT_EQ(info[3].doc, "print progress");
  EXPECT_EQ(info[3].valid, "");
}

TEST(ApplyOptions, RejectsOutOfRangeValuesAndIntegerOverflow) {
  ToyOptions o;
  EXPECT_THROW(ApplyOptions({{"step", "nan"}}, "toy", &o), InvalidArgument);
  try {
    ToyOptions t;
    ApplyOptions({{"iterations", "1e10"}}, "toy", &t);
    FAIL() << "1e10 accepted as an int";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()), "option 'toy.iterations': 1e10 is out of range for an integer (at most 2147483647)");
  }
  try {
    ToyOptions t;
    ApplyOptions({{"iterations", "99999999999"}}, "toy", &t);
    FAIL() << "99999999999 accepted as an int";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()), "option 'toy.iterations': '99999999999' is out of the range of an int");
  }
  try {
    ToyOptions t;
    ApplyOptions({{"step", "1e999"}}, "toy", &t);
    FAIL() << "1e999 accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()), "option 'toy.step': '1e999' is out of the range of a double");
  }
  try {
    ToyOptions t;
    ApplyOptions({{"tolerance", "1e-300"}}, "toy", &t);
    FAIL() << "1e-300 accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()), "toy: tolerance must be 0 or in [1e-12, 0.001], got 1e-300");
  }
}

}  // namespace options_test
}  // namespace arena
