// Solver-agnostic metrics, computed in one place from the scene and the state with our own
// geometry (never from what a model reports), so every model is measured the same way.
#pragma once

#include "core/multibody/data.h"
#include <vector>

#include "core/scene/scene.h"

namespace arena {

/// Smallest signed distance over the scene's collision pairs (m; < 0 is penetration), exact
/// for pairs with a half-space or half-plane and by GJK/EPA for convex pairs. +inf when the
/// scene has no pairs.
double MinSignedDistance(const Scene& scene, MultibodyData& data, const VecX& q);

/// Signed distance of every collision pair (the order of scene.CollisionPairs(), pairs of two
/// world colliders left out), after forward kinematics at q.
std::vector<double> PairSignedDistances(const Scene& scene, MultibodyData& data, const VecX& q);

/// max(0, -MinSignedDistance): penetration depth in metres.
double Penetration(const Scene& scene, MultibodyData& data, const VecX& q);

/// Kinetic + potential energy (J).
double TotalEnergy(const Scene& scene, MultibodyData& data, const State& state);

}  // namespace arena
