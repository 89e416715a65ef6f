// Seed 003's biped (Sec. VII, Figs. 12-13; 7 links, 12 DOF after the authors' loader; the
// dimensions and masses are ours, the paper gives none): a torso on a 6-DOF root (slides along
// x, y, z, then roll, pitch and yaw hinges) and two legs of hip, knee and ankle hinges about the
// pitch axis. Each foot is three convex hulls of 32 points (heel left, heel right, toe; the
// paper's 96-vertex foot split into 3 hulls by V-HACD): the design of its co-design task (issue
// 22, not yet an experiment). Flat ground. Every leg DOF has a PD-target actuator (kp) and a
// velocity-target actuator (kd) for sine-wave targets (trajectory/sine_wave_controls.h).
#pragma once

#include <memory>

#include "core/scene/scene.h"

namespace arena {

struct BipedOptions {
  double kp = 200.0;       // [GUESS] N m / rad
  double kd = 2.0;         // [GUESS] N m s / rad
  double friction = 0.75;  // the authors' code default
  int foot_points = 32;    // points per foot hull
  int cap_points = 8;      // points per cap of a leg's capsule hull
};

/// Throws InvalidArgument on non-positive gains or counts.
std::shared_ptr<const Scene> BipedScene(const BipedOptions& options = {});

inline constexpr const char* kBipedTorso = "torso";
inline constexpr const char* kBipedFootPrefix = "foot";  // foot colliders: foot<leg>_<hull>
/// The root's coordinates in q: x, y, z slides, then roll, pitch and yaw hinges.
inline constexpr int kBipedRootX = 0, kBipedRootZ = 2, kBipedRootRoll = 3, kBipedRootPitch = 4;

}  // namespace arena
