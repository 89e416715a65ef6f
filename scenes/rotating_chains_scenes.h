// Four rotating chains, the cost benchmark of seed 003 (SDRS, Ye et al.) Figs. 6 and 9 and
// Table II, laid out as the authors' four-chain script does: chains of N capsule links (length
// 0.5 m, radius 0.24 m, density 1 kg/m^3), every inner joint a 2-DOF ball joint with +-30 deg
// limits, three chains on a translating + rotating root and the fourth on a rotating root,
// roots stacked at heights 0, 1, 2, 3 m, gravity -9.81 z, a floor box [-150, 30]^2 x [-8, -6],
// friction 0.75 everywhere (the authors' simulator default).
// The first three chains' roots are PD-driven (kp 1000, kd 10) along horizontal circles of radius
// 4.5, 3 and 1.5 m at 2 rad/s; the chains swing, fold and hit each other, themselves (links two
// apart are 2 cm from touching even when straight) and the floor.
//
// Our realisation: a link is the convex hull of 2 x `cap_points` points on its two hemispherical
// caps and its two ends (SDRS's convex-polyhedron links; the IP models mesh no capsules); a 2-DOF
// ball joint is two
// revolute joints (about the link's y, then z) through a massless joint-chain link
// ("<link>/swing"); the translating root is three prismatic joints (x, y, z) through massless
// links, then a ball joint (3 DOF). DOF: 3 (6 + 2 (N - 1)) + 3 + 2 (N - 1) = 8N + 13.
// Consecutive links (overlapping at their joint) are an excluded pair; every other pair of links,
// of one chain or two, may collide.
// Chains start straight along +x, each driven root on its circle at (R, 0, height).
#pragma once

#include <memory>

#include "core/scene/scene.h"

namespace arena {

struct RotatingChainsOptions {
  int links = 20;        // per chain, >= 1
  int cap_points = 16;   // hull points per cap of a link (>= 4)
};

/// Throws InvalidArgument naming the option for links < 1 or cap_points < 4.
std::shared_ptr<const Scene> RotatingChainsScene(const RotatingChainsOptions& options);

/// The PD targets of the three driven roots at time t (s), in actuator order (chain-major, then
/// x, y, z): the circle R (cos 2t, sin 2t, 0) with its velocity folded into the target,
/// q* = qbar + (kd / kp) qbar_dot, since the actuators' law is kp (u - q) - kd qdot and the
/// authors' is kp (qbar - q) + kd (qbar_dot - qdot).
VecX RotatingChainsTargets(double t);

/// Degrees of freedom of the scene with `links` links per chain: 8 links + 13.
int RotatingChainsDof(int links);

}  // namespace arena
