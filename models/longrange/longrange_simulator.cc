#include "models/longrange/longrange_simulator.h"

#include <cmath>

#include "core/common/error.h"

namespace arena {

// The embedded IpOptions' fields are visited too, so one CheckRanges covers both.
std::string LongRangeModelOptions::Validate() const { return CheckRanges(*this); }

Capabilities LongRangeSimulator::CapabilitiesFor(const LongRangeModelOptions&) {
  return IpCapabilities(/*smooth=*/true);  // P is C2 (Theorem 5.4)
}

namespace {

const LongRangeModelOptions& Checked(const LongRangeModelOptions& o) {
  if (std::string why = o.Validate(); !why.empty()) throw InvalidArgument("longrange: " + why);
  return o;
}

}  // namespace

double LongRangeSimulator::StackingGap(const LongRangeModelOptions& options, double weight_n) {
  return std::sqrt(48.0 * options.mu / weight_n);
}

LongRangeSimulator::LongRangeSimulator(std::shared_ptr<const Scene> scene, const LongRangeModelOptions& options)
    : IncrementalPotentialModel(std::move(scene), Checked(options),
                                    [&options](const std::vector<ColliderMesh>& meshes) {
                                      longrange::LongRangeOptions o;
                                      o.eps = options.epsilon;
                                      o.brute_force = options.brute_force;
                                      // Each pair's plane from its last solve, and a near-Newton first step
                                      // from there: P is unique, so only the solve's cost changes (about 2x).
                                      o.warm_start = true;
                                      o.pair.initial_damping = 1e-6;
                                      return std::make_unique<LongRangeContact>(meshes, options.mu, o, options.ip.timestep,
                                                                                options.friction_epsilon);
                                    }) {}

}  // namespace arena
