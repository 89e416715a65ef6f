#include "experiments/tpush/tpush_rollout.h"

#include <chrono>
#include <cmath>

#include "core/common/deadline.h"
#include "core/common/error.h"
#include "scenes/tpush_scenes.h"

namespace arena {

namespace tpush_rollout {

constexpr double kMakeGap = 2e-3, kBreakGap = 5e-3;  // m (scm pushes from a millimetre or two away)
constexpr double kFlungSpeed = 5.0, kFlungDistance = 2.0;

bool Flung(const State& s) {
  return s.v.head<2>().norm() > kFlungSpeed || s.q.head<2>().norm() > kFlungDistance;
}

}  // namespace tpush_rollout

TPushRollout RollOutPushes(Simulator& sim, const PushSequence& sequence, const TPushRolloutOptions& options) {
  using namespace tpush_rollout;
  const double dt = sim.timestep();
  const double end = std::min(sequence.duration() + options.settle_s, options.until_s);
  const int steps = static_cast<int>(std::ceil(end / dt - 1e-9));
  const int trace_every = options.trace_interval_s > 0.0 ? std::max(1, static_cast<int>(std::lround(options.trace_interval_s / dt))) : 0;
  TPushRollout out;
  State s = DefaultState(sim.scene());
  Control u{VecX(2)};
  bool touching = TPushFingerGap(s.q) < kMakeGap;
  auto record = [&](double t) {
    const Vec3 pose = TPushPose(s.q);
    const Vec2 f = TPushFinger(s.q);
    out.trace.push_back({t, pose.x(), pose.y(), pose.z(), f.x(), f.y()});
  };
  if (trace_every > 0) record(0.0);
  for (int k = 0; k < steps; ++k) {
    if (k % 256 == 0 && DeadlinePassed()) throw Error(DeadlineMessage());
    u.u = sequence.TargetAt(k * dt);
    const auto start = std::chrono::steady_clock::now();
    const StepReport r = sim.Step(s, u);
    out.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ++out.steps;
    const std::string non_finite = FirstNonFiniteEntry(s);
    const bool flung = non_finite.empty() && Flung(s);
    if (!r.ok() || !non_finite.empty() || flung) {
      out.diverged = true;
      out.failure = !r.ok() ? std::string(ToString(r.status)) + ": " + r.message
                            : "diverged at t = " + std::to_string((k + 1) * dt) + " s (" +
                                  (flung ? "the T flung away" : non_finite) + ")";
      return out;
    }
    const double gap = TPushFingerGap(s.q);
    if (!touching && gap < kMakeGap) {
      touching = true;
      ++out.contacts_made;
    } else if (touching && gap > kBreakGap) {
      touching = false;
      ++out.contacts_broken;
    }
    if (trace_every > 0 && (k + 1) % trace_every == 0) record((k + 1) * dt);
  }
  out.final_pose = TPushPose(s.q);
  return out;
}

}  // namespace arena
