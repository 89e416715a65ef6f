// The smallest distance between the hulls an incremental-potential model sees, over the collider
// pairs the scene lets collide, at every state of a rollout: what a barrier model must keep
// positive (0 when two hulls touch or overlap). The co-design experiments (chain_reach, spider)
// check their optimised shapes with it.
#pragma once

#include <vector>

#include "models/simulator.h"

namespace arena {

/// Throws Unsupported for a model without collider meshes (Simulator::mesh_potential null).
double MinimumHullDistance(Simulator& sim, const std::vector<State>& states);

}  // namespace arena
