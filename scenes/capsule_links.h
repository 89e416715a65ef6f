// Capsule links as the incremental-potential models see them (seed 003's chains: convex
// polyhedra, not capsules): a link along +x of its body frame from its joint at the origin to the
// next joint at (length, 0, 0), with hemispherical caps of `radius` about both joints.
#pragma once

#include "core/geometry/convex_hull.h"
#include "core/math/inertia.h"

namespace arena {

/// The hull of the points of a Fibonacci sphere of 2 `cap_points` points split at its equator,
/// each half moved to its cap's centre, and the capsule's two ends: links two apart on a
/// straight chain are exactly length - 2 radius apart.
ConvexHull CapsuleLinkHull(double length, double radius, int cap_points);

/// The solid capsule's inertia at `density` (kg/m^3) in that frame.
SpatialInertia CapsuleLinkInertia(double length, double radius, double density);

}  // namespace arena
