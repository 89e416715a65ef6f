// The scenes of box_drop, seed 000 (Silico, Le Cleac'h et al. 2023) Fig. 9: a polytope dropped
// on flat ground from random initial conditions.
//
// Two variants:
//   planar   the paper's own: the 5-face polygon A p <= b (A rows (1, 0.2), (0, 1), (-1, -0.3),
//            (0, -1), (0.8, -0.8); b = 0.4), m = 1 kg, J = 0.2 kg m^2, mu = 0.2, gravity -9.81 y,
//            ground y <= 0; initial y in [sqrt(2)/2, 1.5] m, theta in [0, 2 pi), velocity
//            vx in [-1, 1], vy in [-2, 0] m/s, omega in [-1, 1] rad/s (world frame).
//   spatial  a 0.5 m cube (m = 1 kg, mu = 0.2) on a free joint over the ground z <= 0; initial
//            height in [sqrt(3)/4 + 0.05, 1.5] m, uniform random orientation, velocity
//            vx, vy in [-1, 1], vz in [-2, 0] m/s, omega in [-1, 1]^3 rad/s (world frame).
// Registered as "polygon" and "box" (scenes/scene_registry.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/scene/scene.h"

namespace arena {

/// The scene of a variant ("planar" or "spatial"); throws InvalidArgument otherwise.
std::shared_ptr<const Scene> BoxDropScene(const std::string& variant);
/// Initial condition `seed` of a variant (world-frame velocities converted to the joint's).
State BoxDropInitialState(const std::string& variant, std::uint64_t seed);

}  // namespace arena
