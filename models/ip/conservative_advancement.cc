#include "models/ip/conservative_advancement.h"

#include <algorithm>
#include <utility>
#include <limits>

namespace arena {

namespace {

// The advancement stops after this many re-measurements, or when one advances alpha by less than
// kMinProgress of what remains; either way the alpha reached is sound.
constexpr int kMaxAdvance = 1000;
constexpr double kMinProgress = 1e-6;

}  // namespace

namespace {

// (largest of a + largest of b) / (1 - eta): both sides at full speed towards each other.
double ReachOfSpeeds(const VecX& a, const VecX& b) {
  const double la = a.size() > 0 ? a.maxCoeff() : 0.0, lb = b.size() > 0 ? b.maxCoeff() : 0.0;
  return (la + lb) / (1.0 - kAdvancementEta);
}

}  // namespace

double AdvancementReach(const std::vector<VecX>& speed, int a, int b) { return ReachOfSpeeds(speed[a], speed[b]); }

double PairSpeeds::Reach() const { return ReachOfSpeeds(*a, *b); }

PairSpeeds PairSpeedBounds(const ContactConfiguration& x, ContactPath& path, int a, int b) {
  const std::vector<ColliderMesh>& meshes = *x.meshes;
  for (const auto [carrier, other] : {std::pair{a, b}, std::pair{b, a}}) {
    const int frame = meshes[carrier].body;
    if (frame == kWorldBody) continue;
    const VecX* moving = path.SpeedBoundsIn(other, frame);
    if (moving == nullptr) continue;
    const VecX* fixed = path.SpeedBoundsIn(carrier, frame);
    return carrier == a ? PairSpeeds{fixed, moving, a} : PairSpeeds{moving, fixed, b};
  }
  const std::vector<VecX>& world = path.SpeedBounds();
  return {&world[a], &world[b], -1};
}

double AdvanceConservatively(std::vector<TrackedDistance>* tracked, ContactPath& path, ContactConfiguration* point,
                             const std::function<double(const ContactConfiguration&, int)>& distance,
                             AdvancementStats* stats) {
  constexpr double eta = kAdvancementEta;
  stats->tracked = static_cast<int>(tracked->size());
  stats->iterations = 0;
  double alpha = 0.0;
  for (;;) {
    double tau = std::numeric_limits<double>::infinity();
    for (const TrackedDistance& t : *tracked) tau = std::min(tau, (t.d - eta * t.d0) / t.speed);
    if (alpha + tau >= 1.0) return 1.0;
    // tau itself is sound: a small one ends the advancement, not the step.
    if (!(tau > kMinProgress * (1.0 - alpha)) || stats->iterations == kMaxAdvance) return alpha + std::max(tau, 0.0);
    alpha += tau;
    ++stats->iterations;
    path.At(alpha, point);
    for (TrackedDistance& t : *tracked) t.d = distance(*point, t.id);
    // A pair that cannot come within eta d0 over the rest of the path is done with.
    std::erase_if(*tracked, [alpha](const TrackedDistance& t) { return t.d - (1.0 - alpha) * t.speed >= eta * t.d0; });
  }
}

}  // namespace arena
