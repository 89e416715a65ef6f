// The two-sphere force probe of seed 001 Figs. 1 and 5: a sphere of radius 0.1 m fixed at the
// origin (a collider of the world) and a 1 kg sphere of radius 0.05 m on a free joint, gravity
// off, frictionless contact (the probe is at rest: only the normal force acts). The experiment
// `force_profile` places the probe at each sample and reads the force of one step.
#pragma once

#include <memory>

#include "core/scene/scene.h"

namespace arena {

inline constexpr double kForceProbeFixedRadius = 0.1;   // m
inline constexpr double kForceProbeMovingRadius = 0.05;  // m
inline constexpr double kForceProbeMass = 1.0;           // kg

/// The probe starts at (0, 0.3, 0), clear of the fixed sphere.
std::shared_ptr<const Scene> ForceProbeScene();

}  // namespace arena
