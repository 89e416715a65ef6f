// The optimisers of solvers/ on problems with known minimisers: a shifted quadratic, Rosenbrock,
// bounds that bind. Also what their traces promise: iteration 0 is the start, the best loss
// never rises, and the stop reason names the budget that stopped them.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/common/error.h"
#include "solvers/cross_entropy.h"
#include "solvers/first_order_optimizers.h"

namespace arena {
namespace optimizers_test {

// f(x) = sum_i c_i (x_i - a_i)^2, optionally within [lo, hi].
class Quadratic final : public Objective {
 public:
  Quadratic(VecX a, VecX c) : a_(std::move(a)), c_(std::move(c)) {}
  int dimension() const override { return static_cast<int>(a_.size()); }
  double Evaluate(const VecX& x, VecX* gradient) override {
    ++evaluations_;
    if (gradient != nullptr) {
      ++gradients_;
      *gradient = 2.0 * c_.cwiseProduct(x - a_);
    }
    return (c_.array() * (x - a_).array().square()).sum();
  }
  VecX lower() const override { return lower_; }
  VecX upper() const override { return upper_; }
  std::int64_t evaluations() const override { return evaluations_; }
  std::int64_t gradient_evaluations() const override { return gradients_; }
  VecX lower_, upper_;

 private:
  VecX a_, c_;
  std::int64_t evaluations_ = 0, gradients_ = 0;
};

class Rosenbrock final : public Objective {
 public:
  int dimension() const override { return 2; }
  double Evaluate(const VecX& x, VecX* gradient) override {
    ++evaluations_;
    const double a = 1.0 - x[0], b = x[1] - x[0] * x[0];
    if (gradient != nullptr) {
      gradient->resize(2);
      (*gradient)[0] = -2.0 * a - 400.0 * x[0] * b;
      (*gradient)[1] = 200.0 * b;
    }
    return a * a + 100.0 * b * b;
  }
  std::int64_t evaluations() const override { return evaluations_; }
  std::int64_t gradient_evaluations() const override { return evaluations_; }

 private:
  std::int64_t evaluations_ = 0;
};

void ExpectTraceInvariants(const OptimizerTrace& trace, double start_loss) {
  ASSERT_FALSE(trace.iterations.empty());
  EXPECT_EQ(trace.iterations[0].iteration, 0);
  EXPECT_DOUBLE_EQ(trace.iterations[0].loss, start_loss);
  for (size_t i = 1; i < trace.iterations.size(); ++i) {
    EXPECT_LE(trace.iterations[i].loss, trace.iterations[i - 1].loss);
    EXPECT_GE(trace.iterations[i].evaluations, trace.iterations[i - 1].evaluations);
  }
}

TEST(Lbfgs, SolvesRosenbrockToTheThreshold) {
  Rosenbrock f;
  OptimizerBudget budget;
  budget.threshold = 1e-10;
  const OptimizerTrace trace = MinimizeLbfgs(f, Vec2(-1.2, 1.0), budget);
  ExpectTraceInvariants(trace, 24.2);
  EXPECT_EQ(trace.stop, OptimizerStop::kThreshold);
  EXPECT_LE(trace.best_loss(), 1e-10);
  EXPECT_NEAR(trace.best_x[0], 1.0, 1e-4);
  EXPECT_NEAR(trace.best_x[1], 1.0, 1e-4);
}

TEST(Lbfgs, StopsOnTheEvaluationBudget) {
  Rosenbrock f;
  OptimizerBudget budget;
  budget.max_evaluations = 5;
  const OptimizerTrace trace = MinimizeLbfgs(f, Vec2(-1.2, 1.0), budget);
  EXPECT_EQ(trace.stop, OptimizerStop::kMaxEvaluations);
  EXPECT_GE(trace.iterations.back().evaluations, 5);
  EXPECT_LE(trace.iterations.back().evaluations, 5 + 30);  // one line search at most past it
}

TEST(Adam, ConvergesOnAQuadraticAndStaysInTheBounds) {
  Quadratic f(Vec3(1.0, -2.0, 0.5), Vec3(1.0, 3.0, 0.5));
  OptimizerBudget budget;
  budget.max_iterations = 3000;
  AdamOptions adam;
  adam.learning_rate = 0.05;
  OptimizerTrace trace = MinimizeAdam(f, VecX::Zero(3), adam, budget);
  ExpectTraceInvariants(trace, 1.0 + 12.0 + 0.125);
  EXPECT_EQ(trace.stop, OptimizerStop::kMaxIterations);
  EXPECT_LT((trace.best_x - Vec3(1.0, -2.0, 0.5)).norm(), 1e-3);

  // The bound x_1 >= -1 binds: the minimiser within the box is (1, -1, 0.5).
  f.lower_ = Vec3(-10.0, -1.0, -10.0);
  f.upper_ = Vec3(10.0, 10.0, 10.0);
  adam.beta1 = 0.3;  // seed 004's betas
  adam.beta2 = 0.5;
  trace = MinimizeAdam(f, VecX::Zero(3), adam, budget);
  EXPECT_GE(trace.best_x.minCoeff(), -1.0);
  EXPECT_LT((trace.best_x - Vec3(1.0, -1.0, 0.5)).norm(), 1e-2);
}

TEST(Adam, RejectsBadOptionsAndSizes) {
  Quadratic f(Vec2(0, 0), Vec2(1, 1));
  AdamOptions adam;
  adam.beta2 = 1.0;
  EXPECT_THROW(MinimizeAdam(f, VecX::Zero(2), adam, {}), InvalidArgument);
  EXPECT_THROW(MinimizeAdam(f, VecX::Zero(3), AdamOptions{}, {}), InvalidArgument);
}

TEST(GradientDescent, TakesTheProjectedStep) {
  // One step from 0 with lr 0.25 on (x - 2)^2: x = 0 - 0.25 * (-4) = 1, then the bound 0.5.
  Quadratic f(VecX::Constant(1, 2.0), VecX::Ones(1));
  f.lower_ = VecX::Constant(1, -0.5);
  f.upper_ = VecX::Constant(1, 0.5);
  OptimizerBudget budget;
  budget.max_iterations = 1;
  const OptimizerTrace trace = MinimizeGradientDescent(f, VecX::Zero(1), 0.25, budget);
  ASSERT_EQ(trace.iterations.size(), 2u);
  EXPECT_EQ(trace.last_x[0], 0.5);
  EXPECT_EQ(trace.iterations[1].loss, 2.25);
}

TEST(GradientDescent, StopsAtTheThreshold) {
  Quadratic f(VecX::Constant(1, 2.0), VecX::Ones(1));
  OptimizerBudget budget;
  budget.threshold = 1e-12;
  const OptimizerTrace trace = MinimizeGradientDescent(f, VecX::Zero(1), 0.5, budget);  // exact in one step
  EXPECT_EQ(trace.stop, OptimizerStop::kThreshold);
  EXPECT_EQ(trace.iterations.size(), 2u);
}

TEST(CrossEntropy, ImprovesAndRepeatsWithTheSeed) {
  Quadratic f(Vec2(0.3, -0.2), Vec2(1.0, 1.0));
  f.lower_ = Vec2(-1.0, -1.0);
  f.upper_ = Vec2(1.0, 1.0);
  OptimizerBudget budget;
  budget.max_evaluations = 64 * 20;
  const OptimizerTrace a = MinimizeCrossEntropy(f, VecX::Zero(2), CemOptions{}, budget, 7);
  ExpectTraceInvariants(a, 0.13);
  EXPECT_EQ(a.stop, OptimizerStop::kMaxEvaluations);
  EXPECT_LT(a.best_loss(), 1e-4);
  EXPECT_LE(a.best_x.cwiseAbs().maxCoeff(), 1.0);
  Quadratic g(Vec2(0.3, -0.2), Vec2(1.0, 1.0));
  g.lower_ = f.lower_;
  g.upper_ = f.upper_;
  const OptimizerTrace b = MinimizeCrossEntropy(g, VecX::Zero(2), CemOptions{}, budget, 7);
  EXPECT_EQ(a.best_loss(), b.best_loss());
}

TEST(OptimizerTrace, StopNamesAreStable) {
  EXPECT_EQ(ToString(OptimizerStop::kThreshold), "threshold");
  EXPECT_EQ(ToString(OptimizerStop::kMaxEvaluations), "max_evaluations");
  EXPECT_EQ(ToString(OptimizerStop::kFailed), "failed");
  OptimizerBudget bad;
  bad.max_evaluations = 0;
  EXPECT_FALSE(bad.Validate().empty());
}

}  // namespace optimizers_test
}  // namespace arena
