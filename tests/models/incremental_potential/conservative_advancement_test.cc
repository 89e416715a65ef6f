// Conservative advancement (models/incremental_potential/conservative_advancement.h) on synthetic distance curves:
// the alpha it returns keeps every pair at or above eta of its start distance (checked on a dense
// sampling of the curves), is exact for pairs closing at their bound speed, and re-measures only
// the pairs near the advancing front.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "models/incremental_potential/conservative_advancement.h"

namespace arena {
namespace conservative_advancement_test {

// d(alpha) = start - closing alpha + wobble sin(frequency alpha): |d'| <= closing + wobble frequency.
struct Curve {
  double start = 1.0, closing = 0.0, wobble = 0.0, frequency = 0.0;
  double At(double alpha) const { return start - closing * alpha + wobble * std::sin(frequency * alpha); }
  double Speed() const { return std::abs(closing) + std::abs(wobble) * frequency; }
};

// The path's configuration carries only alpha (world[0](0, 0)); the curves do the rest.
class AlphaPath final : public ContactPath {
 public:
  void At(double alpha, ContactConfiguration* out) override {
    out->world.assign(1, PointsX3::Constant(1, 3, alpha));
    ++points;
  }
  const std::vector<VecX>& SpeedBounds() override { return none_; }
  int points = 0;

 private:
  std::vector<VecX> none_;
};

struct Advancement {
  double alpha = 0.0;
  AdvancementStats stats;
  int path_points = 0;
};

Advancement Advance(const std::vector<Curve>& curves) {
  std::vector<TrackedDistance> tracked;
  for (int i = 0; i < static_cast<int>(curves.size()); ++i) {
    TrackedDistance t;
    t.id = i;
    t.d0 = t.d = curves[i].At(0.0);
    t.speed = curves[i].Speed();
    if (NeedsTracking(t.d0, t.speed)) tracked.push_back(t);
  }
  AlphaPath path;
  ContactConfiguration point;
  Advancement run;
  run.alpha = AdvanceConservatively(
      &tracked, path, &point, [&](const ContactConfiguration& at, int id) { return curves[id].At(at.world[0](0, 0)); },
      &run.stats);
  run.path_points = path.points;
  return run;
}

// The smallest ratio d(alpha) / d(0) over [0, alpha_end], sampled.
double WorstRatio(const std::vector<Curve>& curves, double alpha_end) {
  double worst = 1.0;
  for (const Curve& c : curves) {
    for (int k = 0; k <= 20000; ++k) worst = std::min(worst, c.At(alpha_end * k / 20000.0) / c.At(0.0));
  }
  return worst;
}

TEST(ConservativeAdvancement, PairsClosingAtTheirBoundStopExactlyAtEta) {
  // d = d0 - s alpha reaches eta d0 at alpha = (1 - eta) d0 / s: 0.45 for the first.
  const std::vector<Curve> curves = {{0.5, 1.0}, {1.0, 1.0}, {2.0, 0.5}};
  const Advancement run = Advance(curves);
  EXPECT_NEAR(run.alpha, (1.0 - kAdvancementEta) * 0.5, 1e-12);
  EXPECT_EQ(run.stats.tracked, 2);  // the third never comes within eta of its distance
}

TEST(ConservativeAdvancement, NothingCloseCertifiesTheWholePath) {
  const Advancement run = Advance({{1.0, 0.5}, {1.0, -0.3, 0.1, 3.0}});
  EXPECT_EQ(run.alpha, 1.0);
  EXPECT_EQ(run.stats.tracked, 0);
}

TEST(ConservativeAdvancement, RandomCurvesKeepEtaOfTheirDistance) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> start(0.05, 1.0), closing(-0.5, 2.0), wobble(0.0, 0.3), frequency(1.0, 40.0);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<Curve> curves(40);
    for (Curve& c : curves) c = {start(rng), closing(rng), wobble(rng), frequency(rng)};
    const Advancement run = Advance(curves);
    ASSERT_GE(run.alpha, 0.0);
    ASSERT_LE(run.alpha, 1.0);
    EXPECT_GE(WorstRatio(curves, run.alpha), kAdvancementEta - 1e-12) << "trial " << trial;
  }
}

// Hundreds of pairs far from the front and one wobbling close: the close one sets the advances;
// the far ones are measured again only when the front comes near their certificates.
TEST(ConservativeAdvancement, OnlyPairsNearTheFrontAreMeasuredAgain) {
  std::vector<Curve> curves;
  for (int i = 0; i < 400; ++i) curves.push_back({1.0 + 0.001 * i, 1.0});  // certified to ~0.9
  curves.push_back({0.2, 0.0, 0.15, 30.0});                               // many short advances
  const Advancement run = Advance(curves);
  EXPECT_GE(WorstRatio(curves, run.alpha), kAdvancementEta - 1e-12);
  ASSERT_GT(run.stats.iterations, 10);
  EXPECT_EQ(run.path_points, run.stats.iterations);
  // Measuring every tracked pair at every advance would take tracked x iterations.
  EXPECT_LT(run.stats.measurements, run.stats.tracked * run.stats.iterations / 4)
      << run.stats.measurements << " measurements, " << run.stats.tracked << " tracked, " << run.stats.iterations
      << " advances";
}

}  // namespace conservative_advancement_test
}  // namespace arena
