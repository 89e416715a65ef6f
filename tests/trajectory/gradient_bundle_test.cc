// The gradient bundle (seed 004's baseline, Suh et al. 2022): on functions whose smoothed
// gradient is known in closed form, and around a model's rollout.
#include <gtest/gtest.h>

#include <cmath>

#include "core/common/error.h"
#include "models/registry.h"
#include "scenes/scene_registry.h"
#include "trajectory/gradient_bundle.h"
#include "trajectory/shooting_objective.h"

namespace arena {
namespace gradient_bundle_test {

// f(x) = sum_i relu(x_i - 1): flat (gradient exactly 0) at x = 0, like a contact not yet made.
// Smoothed with N(0, sigma^2): d/dx_i E[relu(x_i + w - 1)] = P(w > 1 - x_i) = 1 - Phi((1 - x_i) / sigma).
class Ramp final : public Objective {
 public:
  explicit Ramp(int n) : n_(n) {}
  int dimension() const override { return n_; }
  double Evaluate(const VecX& x, VecX* gradient) override {
    ++evaluations_;
    if (gradient != nullptr) {
      ++gradients_;
      *gradient = (x.array() > 1.0).cast<double>().matrix();
    }
    return (x.array() - 1.0).cwiseMax(0.0).sum();
  }
  std::int64_t evaluations() const override { return evaluations_; }
  std::int64_t gradient_evaluations() const override { return gradients_; }

 private:
  int n_;
  std::int64_t evaluations_ = 0, gradients_ = 0;
};

double SmoothedRampSlope(double x, double sigma) { return 0.5 * std::erfc((1.0 - x) / (sigma * std::sqrt(2.0))); }

TEST(GradientBundle, SeesAContactThatIsNotMadeYet) {
  Ramp ramp(3);
  VecX plain;
  ramp.Evaluate(VecX::Zero(3), &plain);
  EXPECT_EQ(plain.norm(), 0.0);  // the plain gradient is exactly zero at 0
  for (BundleOrder order : {BundleOrder::kFirst, BundleOrder::kZeroth}) {
    GradientBundleOptions options;
    options.samples = 20000;
    options.sigma = 1.0;
    options.order = order;
    options.seed = 5;
    GradientBundleObjective bundle(ramp, options);
    VecX g;
    EXPECT_EQ(bundle.Evaluate(VecX::Zero(3), &g), 0.0);  // the value is f(x) itself
    EXPECT_EQ(bundle.last_samples_used(), 20000);
    // 1 - Phi(1) = 0.1587; the Monte Carlo error is about sqrt(p (1 - p) / N) = 0.0026 (first
    // order) and a few times that for the zeroth-order estimator.
    const double expected = SmoothedRampSlope(0.0, 1.0);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(g[i], expected, order == BundleOrder::kFirst ? 0.012 : 0.03) << ToString(order);
  }
}

TEST(GradientBundle, CountsTheInnerWorkAndRepeatsWithTheSeed) {
  Ramp a(2), b(2);
  GradientBundleOptions options;
  options.samples = 8;
  options.order = BundleOrder::kZeroth;
  GradientBundleObjective ba(a, options), bb(b, options);
  VecX ga, gb;
  ba.Evaluate(Vec2(0.9, 1.2), &ga);
  bb.Evaluate(Vec2(0.9, 1.2), &gb);
  EXPECT_EQ(ga, gb);
  EXPECT_EQ(ba.evaluations(), 9);  // f(x) and 8 samples
  EXPECT_EQ(ba.gradient_evaluations(), 0);
  options.samples = 0;
  EXPECT_THROW(GradientBundleObjective(a, options), InvalidArgument);
}

// Around a model: with a small sigma the first-order bundle of a cartpole rollout approaches
// the model's own gradient (the smoothing vanishes with sigma).
TEST(GradientBundle, AroundAModelTendsToItsGradient) {
  const std::shared_ptr<const Scene> scene = MakeScene("cartpole");
  auto sim = MakeSimulator("penalty", scene, {{"timestep", "0.01"}});
  auto loss = std::make_shared<TerminalStateLoss>();
  loss->q_target = VecX::Zero(2);
  loss->q_weight = VecX::Ones(2);
  loss->v_weight = VecX::Ones(2);
  ShootingObjective rollout(*sim, DefaultState(*scene), 20, loss);
  const VecX u = VecX::LinSpaced(20, -2.0, 3.0);
  VecX exact, smoothed;
  rollout.Evaluate(u, &exact);
  GradientBundleOptions options;
  options.samples = 4;
  options.sigma = 1e-5;
  GradientBundleObjective bundle(rollout, options);
  bundle.Evaluate(u, &smoothed);
  EXPECT_LT((smoothed - exact).norm(), 1e-3 * exact.norm());
}

}  // namespace gradient_bundle_test
}  // namespace arena
