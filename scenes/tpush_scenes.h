// The planar pushing scene of seed 001 Figs. 6-7: a T-shaped block (a 25 x 5 cm bar on a 5 x 15 cm
// stem, 5 cm thick: the paper's 25 x 20 cm bounding box) pushed in the horizontal plane by a
// position-controlled spherical finger. The paper gives no dimensions, masses or gains beyond the
// bounding box; the values below are this project's (docs/deviations.md, "tpush").
//
// The T moves on a slide x / slide y / hinge z chain (massless carriers), the finger on slide x /
// slide y, both at the height of the T's mid-plane; gravity is off and there is no table. The
// table's friction is stood in for by viscous damping on the T's three joints, the same term in
// every model (MuJoCo and scm read the joints' damping), so the T stops when the finger lets go.
//
//   q = [T x, T y, T yaw, finger x, finger y],   u = [finger x target, finger y target]
#pragma once

#include <memory>

#include "core/scene/scene.h"

namespace arena {

inline constexpr double kTPushMass = 0.2;             // kg, the T
inline constexpr double kTPushBarLength = 0.25;       // m (x)
inline constexpr double kTPushBarWidth = 0.05;        // m (y)
inline constexpr double kTPushStemLength = 0.15;      // m (y)
inline constexpr double kTPushStemWidth = 0.05;       // m (x)
inline constexpr double kTPushThickness = 0.05;       // m (z)
inline constexpr double kTPushFingerRadius = 0.01;    // m
inline constexpr double kTPushFingerMass = 0.1;       // kg
inline constexpr double kTPushFingerKp = 200.0;       // N/m, the finger's position gain
inline constexpr double kTPushFingerKd = 8.0;         // N s/m
inline constexpr double kTPushLinearDamping = 4.0;    // N s/m on the T's slides (table friction's stand-in)
inline constexpr double kTPushFriction = 0.5;         // finger-T Coulomb coefficient

/// Where the bar's and the stem's centres sit in the T's frame, whose origin is the T's centre of
/// mass (the bar along x at +y, the stem below it along -y).
Vec3 TPushBarCentre();
Vec3 TPushStemCentre();
/// The T's rotational inertia about z through its centre of mass, kg m^2.
double TPushYawInertia();

/// The T at the origin, unrotated; the finger at (0, -0.3).
std::shared_ptr<const Scene> TPushScene();

/// The T's pose (x, y, yaw) and the finger's centre in a configuration of TPushScene.
Vec3 TPushPose(const VecX& q);
Vec2 TPushFinger(const VecX& q);
/// Distance from a point of the plane (world x, y) to the T at `pose` (0 on or inside it).
double TPushDistance(const Vec3& pose, const Vec2& point);
/// The gap between the finger's surface and the T (exact geometry; < 0 overlapping, where it is
/// 0 minus the finger's radius at most): the models' common contact test.
double TPushFingerGap(const VecX& q);

}  // namespace arena
