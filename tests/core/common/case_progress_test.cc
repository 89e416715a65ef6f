// A running case's sign of life (core/common/case_progress.h): nothing without a sink (the text
// is never built), at most one report per interval, nested scopes restored, and an optimiser
// reporting its iteration through it.
#include "core/common/case_progress.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "solvers/first_order_optimizers.h"
#include "solvers/objective.h"

namespace arena {
namespace case_progress_test {

using namespace std::chrono_literals;

TEST(CaseProgress, WithoutASinkTheTextIsNeverBuilt) {
  bool built = false;
  ReportCaseProgress([&] {
    built = true;
    return std::string("x");
  });
  EXPECT_FALSE(built);
}

TEST(CaseProgress, ReportsAtMostOncePerIntervalAndRestoresTheEnclosingSink) {
  std::vector<std::string> outer, inner;
  const ScopedCaseProgress a(0.0, [&](const std::string& s) { outer.push_back(s); });
  ReportCaseProgress([] { return std::string("first"); });
  {
    const ScopedCaseProgress b(0.05, [&](const std::string& s) { inner.push_back(s); });
    ReportCaseProgress([] { return std::string("too early"); });
    std::this_thread::sleep_for(60ms);
    ReportCaseProgress([] { return std::string("due"); });
    ReportCaseProgress([] { return std::string("too early again"); });
  }
  ReportCaseProgress([] { return std::string("back"); });
  EXPECT_EQ(outer, (std::vector<std::string>{"first", "back"}));
  EXPECT_EQ(inner, (std::vector<std::string>{"due"}));
}

// f(x) = |x|^2 in 2-D.
class Bowl final : public Objective {
 public:
  int dimension() const override { return 2; }
  double Evaluate(const VecX& x, VecX* g) override {
    ++evaluations_;
    if (g != nullptr) *g = 2.0 * x;
    return x.squaredNorm();
  }
  std::int64_t evaluations() const override { return evaluations_; }
  std::int64_t gradient_evaluations() const override { return evaluations_; }

 private:
  std::int64_t evaluations_ = 0;
};

TEST(CaseProgress, AnOptimiserSaysWhichIterationItIsAt) {
  std::vector<std::string> notes;
  const ScopedCaseProgress p(0.0, [&](const std::string& s) { notes.push_back(s); });
  Bowl bowl;
  OptimizerBudget budget;
  budget.max_iterations = 3;
  MinimizeAdam(bowl, VecX::Ones(2), AdamOptions{.learning_rate = 0.1}, budget);
  ASSERT_EQ(notes.size(), 3u);  // iterations 0-2; the last (3) stops instead
  EXPECT_THAT(notes[1], ::testing::StartsWith("optimiser iteration 1 of 3, best loss "));
}

}  // namespace case_progress_test
}  // namespace arena
