// Tessellated spheres: the convex hull (qhull, core/geometry/convex_hull.h) of n points on a
// Fibonacci spiral, which has 2n - 4 triangles. Seed 004's billiard balls (Sec. 6 and App.
// A.6.5) are spheres of diameter 1 with 18 to 196 vertices (32 to 388 triangles each); the
// incremental-potential models tessellate every sphere collider this way.
#pragma once

#include "core/geometry/primitives.h"

namespace arena {

struct SphereMesh {
  PointsX3 vertices;      // n x 3, on the sphere of the given radius about the origin
  TrianglesX3 triangles;  // (2n - 4) x 3, outward winding
};

/// Throws InvalidArgument for n < 4 or radius <= 0.
SphereMesh FibonacciSphere(int n, double radius);

}  // namespace arena
