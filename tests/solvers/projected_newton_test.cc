// Projected Newton on problems with known minimisers: a quadratic (one step), Rosenbrock (an
// indefinite Hessian on the way: the eigenvalue floor), and a barrier whose feasible set the
// iterates must never leave (the step bound and the infinite energies outside).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

#include "core/common/deadline.h"
#include "solvers/projected_newton.h"

namespace arena {
namespace projected_newton_test {

// A problem in R^n whose iterate is a plain vector.
class VectorProblem : public NewtonProblem {
 public:
  explicit VectorProblem(VecX x0) : x_(std::move(x0)) {}
  int dimension() const override { return static_cast<int>(x_.size()); }
  double Evaluate(VecX* g, MatX* H) override {
    ++evaluations;
    return F(x_, g, H);
  }
  double EnergyAlong(const VecX& d, double alpha, TrialNeeds) override {
    const VecX y = x_ + alpha * d;
    worst = std::min(worst, Feasibility(y));
    return F(y, nullptr, nullptr);
  }
  void Retract(const VecX& d, double alpha) override {
    x_ += alpha * d;
    worst_iterate = std::min(worst_iterate, Feasibility(x_));
  }
  virtual double F(const VecX& x, VecX* g, MatX* H) const = 0;
  virtual double Feasibility(const VecX&) const { return 1.0; }
  const VecX& x() const { return x_; }
  int evaluations = 0;
  double worst = std::numeric_limits<double>::infinity();
  double worst_iterate = std::numeric_limits<double>::infinity();

 protected:
  VecX x_;
};

class Quadratic final : public VectorProblem {
 public:
  using VectorProblem::VectorProblem;
  double F(const VecX& x, VecX* g, MatX* H) const override {
    const Vec3 c(1.0, -2.0, 0.5), k(1.0, 10.0, 100.0);
    if (g) *g = k.cwiseProduct(x - c);
    if (H) *H = k.asDiagonal();
    return 0.5 * (k.array() * (x - c).array().square()).sum();
  }
};

// The case's wall-clock budget (core/common/deadline.h) ends a solve at its next iteration, the
// iterate left where it was (feasible, not moved), a converged start still reported converged.
TEST(ProjectedNewton, PassedDeadlineIsReported) {
  Quadratic p(VecX::Zero(3));
  {
    const ScopedDeadline deadline(1e-9, "budget");
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const NewtonReport r = MinimizeNewton(p, {});
    EXPECT_EQ(r.status, NewtonStatus::kDeadline);
    EXPECT_EQ(ToString(r.status), "deadline");
    EXPECT_EQ(r.iterations, 0);
    EXPECT_EQ(p.evaluations, 1);
    EXPECT_EQ(p.x(), VecX::Zero(3));
    Quadratic at_minimum(Vec3(1.0, -2.0, 0.5));
    EXPECT_EQ(MinimizeNewton(at_minimum, {}).status, NewtonStatus::kConverged);
  }
  EXPECT_EQ(MinimizeNewton(p, {}).status, NewtonStatus::kConverged);  // the deadline is gone
}

TEST(ProjectedNewton, SolvesAQuadraticInOneStep) {
  Quadratic p(VecX::Zero(3));
  const NewtonReport r = MinimizeNewton(p, {});
  EXPECT_EQ(r.status, NewtonStatus::kConverged);
  EXPECT_EQ(r.iterations, 1);
  EXPECT_LT((p.x() - Vec3(1.0, -2.0, 0.5)).norm(), 1e-12);
}

// f = |x - c|^2 / 2 + |x - c|^4 / 4 with a Hessian model twice the true one (a projection that
// over-estimates curvature): Newton converges only linearly, halving the error each iteration, so
// at a loose step tolerance the iterate is off by about the tolerance. The polishing step with the
// exact Hessian (when the problem has one) leaves it exact to rounding.
class OverestimatedCurvature final : public VectorProblem {
 public:
  OverestimatedCurvature(VecX x0, bool exact) : VectorProblem(std::move(x0)), exact_(exact) {}
  static Vec3 Minimiser() { return Vec3(1.0, -2.0, 0.5); }
  double F(const VecX& x, VecX* g, MatX* H) const override { return Exact(x, g, H, 2.0); }
  bool ExactDerivatives(VecX* g, MatX* H) override {
    if (!exact_) return false;
    Exact(x_, g, H, 1.0);
    return true;
  }

 private:
  static double Exact(const VecX& x, VecX* g, MatX* H, double hessian_scale) {
    const VecX e = x - Minimiser();
    const double r2 = e.squaredNorm();
    if (g) *g = (1.0 + r2) * e;
    if (H) *H = hessian_scale * ((1.0 + r2) * MatX::Identity(3, 3) + 2.0 * e * e.transpose());
    return 0.5 * r2 + 0.25 * r2 * r2;
  }
  bool exact_;
};

TEST(ProjectedNewton, PolishesTheMinimiserWithTheExactHessian) {
  NewtonOptions o;
  o.step_tolerance = 1e-6;
  o.gradient_tolerance = 1e-12;
  OverestimatedCurvature with_exact(VecX::Zero(3), true), without(VecX::Zero(3), false);
  const NewtonReport a = MinimizeNewton(with_exact, o), b = MinimizeNewton(without, o);
  ASSERT_EQ(a.status, NewtonStatus::kConverged);
  ASSERT_EQ(b.status, NewtonStatus::kConverged);
  EXPECT_TRUE(a.polished);
  EXPECT_TRUE(b.polished);
  EXPECT_LT((with_exact.x() - OverestimatedCurvature::Minimiser()).norm(), 1e-14);
  // Without it the last (halving) direction is taken: still off by about the tolerance.
  EXPECT_GT((without.x() - OverestimatedCurvature::Minimiser()).norm(), 1e-8);
}

class Rosenbrock final : public VectorProblem {
 public:
  using VectorProblem::VectorProblem;
  double F(const VecX& x, VecX* g, MatX* H) const override {
    const double a = 1.0 - x[0], b = x[1] - x[0] * x[0];
    if (g) *g = Vec2(-2.0 * a - 400.0 * x[0] * b, 200.0 * b);
    if (H) {
      H->resize(2, 2);
      *H << 2.0 - 400.0 * b + 800.0 * x[0] * x[0], -400.0 * x[0], -400.0 * x[0], 200.0;
    }
    return a * a + 100.0 * b * b;
  }
};

TEST(ProjectedNewton, ConvergesThroughAnIndefiniteRegion) {
  Rosenbrock p(Vec2(-1.2, 1.0));
  NewtonOptions o;
  o.step_tolerance = 1e-12;
  const NewtonReport r = MinimizeNewton(p, o);
  EXPECT_EQ(r.status, NewtonStatus::kConverged) << ToString(r.status);
  EXPECT_LT((p.x() - Vec2(1.0, 1.0)).norm(), 1e-8);
}

// E = -log-free barrier: x + y + 1e-3 / (1 - x^2 - y^2) on the unit disk; infinite outside.
// The minimiser sits near the boundary at (-1, -1)/sqrt(2); no iterate may leave the disk.
class DiskBarrier final : public VectorProblem {
 public:
  using VectorProblem::VectorProblem;
  double F(const VecX& x, VecX* g, MatX* H) const override {
    const double s = 1.0 - x.squaredNorm();
    if (s <= 0.0) return std::numeric_limits<double>::infinity();
    const double k = 1e-3;
    if (g) *g = Vec2(1.0, 1.0) + (2.0 * k / (s * s)) * x;
    if (H) *H = (2.0 * k / (s * s)) * MatX::Identity(2, 2) + (8.0 * k / (s * s * s)) * x * x.transpose();
    return x.sum() + k / s;
  }
  double Feasibility(const VecX& x) const override { return 1.0 - x.squaredNorm(); }
  // The largest alpha keeping |x + alpha d| < 1.
  double MaxStep(const VecX& d) override {
    const double a = d.squaredNorm(), b = 2.0 * x_.dot(d), c = x_.squaredNorm() - 1.0;
    const double root = (-b + std::sqrt(b * b - 4.0 * a * c)) / (2.0 * a);
    return std::min(1.0, root);
  }
};

TEST(ProjectedNewton, NeverLeavesTheBarriersFeasibleSet) {
  DiskBarrier p(Vec2(0.5, 0.3));
  const NewtonReport r = MinimizeNewton(p, {});
  EXPECT_EQ(r.status, NewtonStatus::kConverged) << ToString(r.status);
  EXPECT_GT(p.worst_iterate, 0.0);
  EXPECT_LT(p.x().norm(), 1.0);
  EXPECT_LT((p.x().normalized() - Vec2(-1.0, -1.0) / std::sqrt(2.0)).norm(), 1e-6);
  EXPECT_LT(r.gradient_norm, 1e-6);
}

// method = lm (Levenberg-Marquardt, issue 18's option): the same minimisers, through
// Rosenbrock's indefinite region (lambda grows until H + lambda I is positive definite) and
// inside the barrier's disk (the step bound as for the line search).
TEST(ProjectedNewton, LevenbergMarquardtFindsTheSameMinimisers) {
  NewtonOptions lm;
  lm.method = NewtonMethod::kLevenbergMarquardt;
  lm.step_tolerance = 1e-12;
  Rosenbrock rosenbrock(Vec2(-1.2, 1.0));
  const NewtonReport r = MinimizeNewton(rosenbrock, lm);
  EXPECT_EQ(r.status, NewtonStatus::kConverged) << ToString(r.status);
  EXPECT_LT((rosenbrock.x() - Vec2(1.0, 1.0)).norm(), 1e-8);
  DiskBarrier disk(Vec2(0.5, 0.3));
  EXPECT_EQ(MinimizeNewton(disk, lm).status, NewtonStatus::kConverged);
  EXPECT_GT(disk.worst_iterate, 0.0);
  EXPECT_LT((disk.x().normalized() - Vec2(-1.0, -1.0) / std::sqrt(2.0)).norm(), 1e-6);
  Quadratic quadratic(Vec3::Zero());
  EXPECT_EQ(MinimizeNewton(quadratic, lm).status, NewtonStatus::kConverged);
  EXPECT_LT((quadratic.x() - Vec3(1.0, -2.0, 0.5)).norm(), 1e-10);
  NewtonMethod parsed;
  EXPECT_TRUE(FromString("lm", &parsed));
  EXPECT_EQ(parsed, NewtonMethod::kLevenbergMarquardt);
  lm.lm_initial_damping = 0.0;
  EXPECT_FALSE(lm.Validate().empty());
}

TEST(ProjectedNewton, AnInfeasibleStartIsReported) {
  DiskBarrier p(Vec2(2.0, 0.0));
  EXPECT_EQ(MinimizeNewton(p, {}).status, NewtonStatus::kInfeasibleStart);
  NewtonOptions bad;
  bad.armijo = 0.7;
  EXPECT_FALSE(bad.Validate().empty());
}

}  // namespace projected_newton_test
}  // namespace arena
