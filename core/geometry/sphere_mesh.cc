#include "core/geometry/sphere_mesh.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "core/common/error.h"
#include "core/geometry/convex_hull.h"

namespace arena {

SphereMesh FibonacciSphere(int n, double radius) {
  if (n < 4 || !(radius > 0.0)) {
    throw InvalidArgument("FibonacciSphere: needs n >= 4 and radius > 0 (got n = " +
                          std::to_string(n) + ", radius = " + std::to_string(radius) + ")");
  }
  // Point k at height z_k = 1 - (2k + 1)/n, azimuth k times the golden angle.
  const double golden_angle = std::numbers::pi * (3.0 - std::sqrt(5.0));
  PointsX3 points(n, 3);
  for (int k = 0; k < n; ++k) {
    const double z = 1.0 - (2.0 * k + 1.0) / n;
    const double rho = std::sqrt(std::max(0.0, 1.0 - z * z));
    const double theta = golden_angle * k;
    points.row(k) << radius * rho * std::cos(theta), radius * rho * std::sin(theta), radius * z;
  }
  const ConvexHull hull = MakeConvexHull(points);
  SphereMesh mesh;
  mesh.vertices = hull.data->vertices;
  mesh.triangles.resize(static_cast<int>(hull.data->triangles.size()), 3);
  for (int t = 0; t < mesh.triangles.rows(); ++t) {
    mesh.triangles.row(t) = hull.data->triangles[t].transpose();
  }
  return mesh;
}

}  // namespace arena
