// Seed 003's spider (Sec. VII, Fig. 11; the authors' articulated loader): a body on a 4-DOF root
// (slides along x, y, z and a yaw hinge) and four legs at yaw 45 + 90 i degrees, each a 2-DOF hip
// (a swing hinge about the vertical, then a lift hinge) and a knee hinge: 9 links, 16 DOF. The
// upper legs leave the body lifted 10 degrees; the knees bend the lower legs 60 degrees below
// the horizontal (ours: the rest pose is not in the paper). Each foot is three convex hulls of
// 32 points at the lower leg's tip (the paper's 96-vertex foot split into 3 hulls by V-HACD):
// the design of the co-design task. The ground is the half-space z <= 0 with gravity tilted by
// the slope angle, so that down the slope is +x (the physics of a slope, one ground for every
// model). Every leg DOF has a PD-target actuator (kp) and a velocity-target actuator (kd) on it,
// driven by sine-wave targets (trajectory/sine_wave_controls.h).
#pragma once

#include <memory>

#include "core/scene/scene.h"

namespace arena {

struct SpiderOptions {
  double slope_deg = 10.0;   // [GUESS] the paper's slope angle is stripped
  double kp = 100.0;         // [GUESS] N m / rad
  double kd = 1.0;           // [GUESS] N m s / rad
  double friction = 0.75;    // the authors' code default
  int foot_points = 32;      // points per foot hull
  int cap_points = 8;        // points per cap of a leg's capsule hull
};

/// Throws InvalidArgument on a slope outside [0, 45) degrees, non-positive gains or counts.
std::shared_ptr<const Scene> SpiderScene(const SpiderOptions& options = {});

/// Seed 004's Ant-Push (Sec. 6, Fig. 9, App. A.6): the spider on flat ground and a free box
/// `box_ahead` in front of it (+x), resting on the ground: 22 DOF, the 12 leg DOFs driven.
struct AntPushOptions {
  SpiderOptions spider{.slope_deg = 0.0};
  double box_size = 0.3;       // [GUESS] m, edge (the rod tasks' cube)
  double box_ahead = 0.7;      // ours: m from the spider's centre to the box's (0.2 m clear of the front feet)
  double box_density = 100.0;  // ours: kg/m^3 (2.7 kg: a tenth of the spider's mass density, so it can push it)
};

/// Throws InvalidArgument on bad spider options, a non-positive box or a box within reach at the start.
std::shared_ptr<const Scene> AntPushScene(const AntPushOptions& options = {});

/// Names of the spider's parts (bodies and colliders) and its root's coordinates in q.
inline constexpr const char* kSpiderBody = "spider";
inline constexpr const char* kSpiderFootPrefix = "foot";  // foot colliders: foot<leg>_<hull>
inline constexpr const char* kAntPushBox = "box";
inline constexpr int kSpiderRootX = 0, kSpiderRootY = 1, kSpiderRootZ = 2;

}  // namespace arena
