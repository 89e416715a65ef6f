#include "models/incremental_potential/conservative_advancement.h"

#include <algorithm>
#include <utility>
#include <limits>

namespace arena {

namespace {

// The advancement stops after this many re-measurements, or when one advances alpha by less than
// kMinProgress of what remains; either way the alpha reached is sound.
constexpr int kMaxAdvance = 1000;
constexpr double kMinProgress = 1e-6;
// ... or when a pair measured on the path has used all but this fraction of its allowance
// (d0 - eta d0): the advances towards its crossing shrink geometrically, by the ratio of its true
// closing speed to its bound, and a hundred of them (each a configuration of the whole scene)
// would gain a few per cent of a step the line search shortens anyway.
constexpr double kAllowanceLeft = 0.05;

// Reaches in [0, 1) are kept in this many buckets of equal width.
constexpr int kBuckets = 1024;
int BucketOf(double reach) { return std::clamp(static_cast<int>(reach * kBuckets), 0, kBuckets - 1); }

// Both sides at full speed towards each other.
double ReachOfSpeeds(const VecX& a, const VecX& b) {
  return AdvancementReach(a.size() > 0 ? a.maxCoeff() : 0.0, b.size() > 0 ? b.maxCoeff() : 0.0);
}

}  // namespace

double AdvancementReach(const std::vector<VecX>& speed, int a, int b) { return ReachOfSpeeds(speed[a], speed[b]); }

double PairSpeeds::Reach() const { return ReachOfSpeeds(*a, *b); }

PairSpeeds PairSpeedBounds(const ContactConfiguration& x, ContactPath& path, int a, int b) {
  const std::vector<ColliderMesh>& meshes = *x.meshes;
  for (const auto& [carrier, other] : {std::pair{a, b}, std::pair{b, a}}) {
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
  std::vector<TrackedDistance>& pairs = *tracked;
  stats->tracked = static_cast<int>(pairs.size());
  stats->iterations = 0;
  stats->measurements = 0;
  // The pairs not yet certified over the whole path, in buckets by reach (kBuckets over [0, 1)):
  // an advance looks only at the buckets its window covers, not at every pair.
  std::vector<std::vector<int>> bucket(kBuckets);
  int front = 0;  // no pair is in a bucket before it
  // (A pair measured a rounding below eta d0 has a reach below alpha: it goes to the front, and
  // stalls the advancement there.)
  auto certify = [&pairs, &bucket, &front](int i, double d, double alpha) {
    TrackedDistance& t = pairs[i];
    t.d = d;
    t.reach = alpha + (d - kAdvancementEta * t.d0) / t.speed;
    if (t.reach < 1.0) bucket[std::max(BucketOf(t.reach), front)].push_back(i);
  };
  for (int i = 0; i < static_cast<int>(pairs.size()); ++i) certify(i, pairs[i].d, 0.0);
  std::vector<int> due;
  double alpha = 0.0;
  for (;;) {
    while (front < kBuckets && bucket[front].empty()) ++front;
    if (front == kBuckets) return 1.0;
    double next = 1.0;
    for (int i : bucket[front]) next = std::min(next, pairs[i].reach);
    // The advance itself is sound: a small one ends the advancement, not the step.
    const double tau = next - alpha;
    if (!(tau > kMinProgress * (1.0 - alpha)) || stats->iterations == kMaxAdvance) return std::max(next, alpha);
    alpha = next;
    ++stats->iterations;
    path.At(alpha, point);
    // The pairs that would stop the next advance of the same length are measured again.
    const double window = alpha + tau;
    due.clear();
    for (int b = front, last = BucketOf(window); b <= last; ++b) {
      std::vector<int>& in = bucket[b];
      auto stays = std::partition(in.begin(), in.end(), [&](int i) { return pairs[i].reach > window; });
      due.insert(due.end(), stays, in.end());
      in.erase(stays, in.end());
    }
    bool used_up = false;
    for (int i : due) {
      certify(i, distance(*point, pairs[i].id), alpha);
      ++stats->measurements;
      const TrackedDistance& t = pairs[i];
      used_up = used_up || t.d - kAdvancementEta * t.d0 <= kAllowanceLeft * (1.0 - kAdvancementEta) * t.d0;
    }
    if (used_up) return alpha;
  }
}

}  // namespace arena
