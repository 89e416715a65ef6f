// The "in collision at the default pose" rule of robot set-up tools (MoveIt's Setup Assistant
// writes such pairs as SRDF <disable_collisions reason="Default"/>): collision meshes of a robot's
// links often overlap near their joints by construction, and a contact model would push them
// apart at every step (drchubo's shoulder and hip links overlap their grandparents' by 15-17 mm).
#pragma once

#include <utility>
#include <vector>

#include "core/math/types.h"
#include "core/scene/scene.h"

namespace arena {

/// Body pairs of one articulated tree (bodies with a common ancestor other than the world) that
/// CanCollide and whose colliders overlap at configuration q, tested as convex shapes (a mesh
/// as its hull, as the mesh-mesh kernels collide it). Unbounded shapes are skipped. Each pair
/// once, (smaller, larger) body index, in increasing order.
std::vector<std::pair<int, int>> SelfPairsOverlappingAt(const Scene& scene, const VecX& q);

}  // namespace arena
