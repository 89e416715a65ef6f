// A ground for scenes that come without one (robot files: a URDF describes the robot, not the
// floor it stands on), placed under the scene's lowest point so that nothing starts inside it.
#pragma once

#include "core/scene/scene.h"

namespace arena {

/// The lowest point of the scene's bounded colliders at configuration q, measured along "up"
/// (minus the gravity direction; +z when gravity is zero): min over colliders of the support
/// point along -up, dotted with up. Half-spaces and half-planes are skipped; +inf when nothing
/// is bounded. Throws InvalidArgument when q does not have size scene.nq().
double LowestPointAlongUp(const Scene& scene, const VecX& q);

/// The unit "up" direction LowestPointAlongUp measures along.
Vec3 UpDirection(const Scene& scene);

/// Adds a world half-space named "ground" whose boundary faces up and lies `gap` below the
/// lowest point at the scene's default configuration; returns it for tweaks (friction, group).
/// Bodies welded to the world (a chain of fixed joints to it: a robot bolted down) do not
/// collide with the world's colliders: they cannot move, so a contact between them would
/// only ask the engines to push on the immovable. Throws InvalidArgument for a planar scene,
/// a scene with no bounded collider, or a negative or non-finite gap.
Collider& AddGroundBelow(Scene& scene, double gap = 0.0, double friction = 0.5);

}  // namespace arena
