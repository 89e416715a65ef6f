// Three hanging chains, seed 003 (SDRS, Ye et al.) Fig. 10: the left chain's base slides along x
// (a prismatic joint PD-driven to the control, kp 1000, kd 10, as the rotating chains' roots),
// the two others hang from fixed roots 0.6 m and 1.2 m to its right. Every chain has `links`
// capsule-hull links (length 0.5 m, radius 0.1 m: the paper's values are stripped, these are a
// guess), density 1 kg/m^3 (the authors' default), every joint a 2-DOF ball joint (two revolute
// joints through a massless "<link>/swing" link) limited to +-30 deg, the roots 4.5 m up, the
// links pointing down (-z), gravity -9.81 z, friction 0.75. Links of one chain and of different
// chains collide, consecutive ones excluded.
// The task: bring the left chain's tip (the end of its last link, (0.5, 0, 0) in that link's
// frame) to a target 0.3 m to the right of and 0.4 m below where it hangs: out of reach of a
// chain of this length, whatever its base does, unless its shape changes (Fig. 10).
#pragma once

#include <memory>

#include "core/scene/scene.h"

namespace arena {

struct ReachingChainsOptions {
  int links = 8;        // per chain, >= 1
  int cap_points = 4;   // hull points per cap of a link (>= 4)
};

struct ReachingChains {
  std::shared_ptr<const Scene> scene;
  int tip_body = 0;   // the left chain's last link
  Vec3 tip_local;     // the tip in that link's frame
  Vec3 target;        // world (m)
  int base_actuator = 0;
  double base_x = 0.0;  // the base's start x (m): the control is the base's target x
};

/// Throws InvalidArgument naming the option for links < 1 or cap_points < 4.
ReachingChains ReachingChainsScene(const ReachingChainsOptions& options);

}  // namespace arena
