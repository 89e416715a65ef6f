// A robot held still: every joint of a scene replaced by a fixed joint at a given
// configuration. Scenes that use a robot as furniture (box_on_arm) weld it, so that the only
// thing that moves is what lands on it and every engine sees the same rigid geometry.
#pragma once

#include "core/scene/scene.h"

namespace arena {

/// A copy of `scene` whose bodies keep their names, inertias, order (so collider body indices
/// and excluded pairs stay valid) and pose at configuration `q`, but are all on fixed joints
/// (nq = nv = 0). Actuators are dropped: a welded joint has nothing to drive. Every pair of
/// its bodies, and each body with the world, is excluded from collision: nothing among them
/// can move, so a contact there (a link resting on the floor, two links touching at the
/// chosen pose) could only ask an engine to push on the immovable. Throws InvalidArgument
/// when q does not have size scene.nq().
Scene WeldJoints(const Scene& scene, const VecX& q);

}  // namespace arena
