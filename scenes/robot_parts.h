// Parts of the articulated robots of seed 003's walking tasks (the spider and the biped, after
// the authors' articulated loader): joints, a root that translates freely on massless slides, and
// the drive of a DOF by a sine-wave PD controller (ChainQueen's, Sec. VII).
#pragma once

#include <limits>
#include <string>

#include "core/scene/scene_builder.h"

namespace arena {

/// A revolute joint about `axis` (its frame's), within +-range of its zero (infinite: no limits).
JointModel Hinge(const std::string& name, const Vec3& axis, const SE3& placement = SE3(),
                 double range = std::numeric_limits<double>::infinity());

/// Three massless bodies "<robot>/x", "<robot>/y", "<robot>/z" on slides along the world's x, y
/// and z (joints root_x, root_y, root_z: q starts with them), the last at `height`; returns it,
/// the parent of the robot's rotational root joints.
int AddTranslatingRoot(SceneBuilder& b, const std::string& robot, double height);

/// tau = kp (qbar - q) + kd (qbar' - qdot) on `body`'s DOF, as two actuators: a PD-target one
/// (kp, no damping) and a velocity-target one (kd), named <name>/position and <name>/velocity.
void AddPdDrive(SceneBuilder& b, int body, const std::string& name, double kp, double kd);

}  // namespace arena
