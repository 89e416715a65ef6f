// The distance between the convex hulls of two finite point sets, with closest points: where
// the SDRS separating-plane solve starts (seed 003 Sec. IV-B: the plane through the middle of
// the gap, normal to the closest points' difference). GJK (Gilbert, Johnson & Keerthi 1988) on
// the Minkowski difference with a support function that scans the points, so no hull needs to
// be built per call (core/geometry/gjk.h works on Shapes with qhull data; a link's hull is only
// its vertex set here). Every loop is capped; the start plane it seeds is checked for
// feasibility by the caller, so a loose result costs Newton iterations, never correctness.
#pragma once

#include "core/geometry/primitives.h"

namespace arena::sdrs {

struct PointSetSeparation {
  bool intersecting = false;  // the hulls overlap or touch (to round-off)
  double distance = 0.0;      // m; 0 when intersecting
  Vec3 point_a = Vec3::Zero();  // closest point of hull(a)
  Vec3 point_b = Vec3::Zero();  // closest point of hull(b)
  int iterations = 0;
};

/// Hull distance of the rows of `a` and `b` (each non-empty). `relative_tolerance`: GJK stops
/// when |v|^2 - v.w <= relative_tolerance |v|^2 (v the current closest point of the difference,
/// w the new support point), i.e. when the distance is known to that fraction.
PointSetSeparation SeparatePointSets(const PointsX3& a, const PointsX3& b, double relative_tolerance = 1e-10,
                                     int max_iterations = 64);

}  // namespace arena::sdrs
