// RecordingObjective (experiments/common/meters/recording_objective.h): one record per evaluation in
// order, with the loss, the gradient's norm and whether it is exactly zero; the inner
// objective's box passes through (an optimiser of the recording must keep the bounds: the
// walkers' feet stay within their design box).
#include "experiments/common/meters/recording_objective.h"

#include <gtest/gtest.h>

namespace arena {
namespace recording_objective_test {

// f(x) = |x|^2 on the box [-1, 2]^2.
class BoxedSquare final : public Objective {
 public:
  int dimension() const override { return 2; }
  double Evaluate(const VecX& x, VecX* gradient) override {
    ++evaluations_;
    if (gradient != nullptr) *gradient = 2.0 * x;
    return x.squaredNorm();
  }
  VecX lower() const override { return VecX::Constant(2, -1.0); }
  VecX upper() const override { return VecX::Constant(2, 2.0); }
  std::int64_t evaluations() const override { return evaluations_; }
  std::int64_t gradient_evaluations() const override { return evaluations_; }

 private:
  std::int64_t evaluations_ = 0;
};

TEST(RecordingObjective, RecordsEveryEvaluationAndKeepsTheBox) {
  BoxedSquare inner;
  RecordingObjective recording(inner);
  VecX g;
  EXPECT_DOUBLE_EQ(recording.Evaluate(VecX::Zero(2), &g), 0.0);
  EXPECT_DOUBLE_EQ(recording.Evaluate(VecX::Constant(2, 1.0), &g), 2.0);
  ASSERT_EQ(recording.records().size(), 2u);
  EXPECT_TRUE(recording.records()[0].zero_gradient);
  EXPECT_FALSE(recording.records()[1].zero_gradient);
  EXPECT_DOUBLE_EQ(recording.records()[1].gradient_norm, std::sqrt(8.0));
  EXPECT_EQ(recording.evaluations(), 2);
  EXPECT_EQ(recording.lower(), inner.lower());
  EXPECT_EQ(recording.upper(), inner.upper());
}

}  // namespace recording_objective_test
}  // namespace arena
