#include "scenes/capsule_links.h"

#include <numbers>

#include "core/geometry/sphere_mesh.h"

namespace arena {

ConvexHull CapsuleLinkHull(double length, double radius, int cap_points) {
  const SphereMesh sphere = FibonacciSphere(2 * cap_points, radius);
  PointsX3 p(sphere.vertices.rows() + 2, 3);
  p.bottomRows<2>() << -radius, 0.0, 0.0, length + radius, 0.0, 0.0;
  for (Eigen::Index i = 0; i < sphere.vertices.rows(); ++i) {
    Vec3 v = sphere.vertices.row(i).transpose();
    // The sphere's poles are on z; the link's axis is x: swap, then shift each half to its cap.
    v = Vec3(v.z(), v.x(), v.y());
    v.x() += v.x() >= 0.0 ? length : 0.0;
    p.row(i) = v.transpose();
  }
  return MakeConvexHull(p);
}

SpatialInertia CapsuleLinkInertia(double length, double radius, double density) {
  const double r = radius, half = 0.5 * length;
  const double volume = std::numbers::pi * r * r * (2.0 * half) + 4.0 / 3.0 * std::numbers::pi * r * r * r;
  // SolidCapsule is along z about its centre; the link runs along x from its joint.
  const SpatialInertia along_z = SpatialInertia::SolidCapsule(density * volume, r, half);
  const Mat3 z_to_x = (Mat3() << 0, 0, 1, 1, 0, 0, 0, 1, 0).finished();
  return along_z.Transformed(SE3(z_to_x, Vec3(half, 0.0, 0.0)));
}

}  // namespace arena
