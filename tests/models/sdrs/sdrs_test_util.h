// Helpers of the SDRS tests: seeded random point sets (hull vertices), cubes, and placing two
// sets at a given hull distance.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <memory>

#include <Eigen/Geometry>

#include "tests/soak.h"
#include "core/common/random.h"
#include "core/geometry/primitives.h"
#include "core/scene/scene_builder.h"
#include "models/sdrs/point_set_distance.h"

namespace arena::sdrs::testing {

using ::arena::testing::SoakFactor;

inline Vec3 RandomUnit(Rng& rng) {
  for (;;) {
    const Vec3 v(Uniform(rng, -1, 1), Uniform(rng, -1, 1), Uniform(rng, -1, 1));
    if (v.norm() > 1e-2 && v.norm() <= 1.0) return v.normalized();
  }
}

inline Mat3 RandomRotation(Rng& rng) {
  return Eigen::AngleAxisd(Uniform(rng, 0.0, 3.14159), RandomUnit(rng)).toRotationMatrix();
}

/// `count` points uniform in a ball of radius `radius` about `center`.
inline PointsX3 RandomPoints(Rng& rng, int count, const Vec3& center, double radius) {
  PointsX3 p(count, 3);
  for (int k = 0; k < count; ++k) p.row(k) = (center + radius * std::cbrt(Uniform01(rng)) * RandomUnit(rng)).transpose();
  return p;
}

/// The 8 corners of a cube of half extent `half`, rotated by R about `center`.
inline PointsX3 Cube(const Vec3& center, double half, const Mat3& R = Mat3::Identity()) {
  PointsX3 p(8, 3);
  for (int k = 0; k < 8; ++k) {
    const Vec3 corner(k & 1 ? half : -half, k & 2 ? half : -half, k & 4 ? half : -half);
    p.row(k) = (center + R * corner).transpose();
  }
  return p;
}

/// Translates `b` so that the hulls of `a` and `b` are `gap` apart, `b` on the side -u of `a`.
inline void PlaceAtDistance(const PointsX3& a, PointsX3* b, const Vec3& u, double gap) {
  // First along u: a's lowest projection minus b's highest is the gap along u, a lower bound
  // on the distance; then along the closest points' direction until the distance is `gap`.
  const double min_a = (a * u).minCoeff(), max_b = (*b * u).maxCoeff();
  b->rowwise() += ((min_a - max_b - gap) * u).transpose();
  for (int it = 0; it < 20; ++it) {
    const PointSetSeparation s = SeparatePointSets(a, *b);
    if (std::abs(s.distance - gap) <= 1e-13 * std::max(1.0, gap)) break;
    const Vec3 dir = (s.point_a - s.point_b) / s.distance;
    b->rowwise() += ((s.distance - gap) * dir).transpose();
  }
}

/// A 1 kg cube of half extent `half` (mu 0.5) on a free joint, its bottom face `gap` above the
/// ground z <= 0 (mu 0.5).
inline std::shared_ptr<const Scene> CubeAboveGround(double gap, double half) {
  SceneBuilder b("sdrs_cube_above_ground");
  b.SetGravity(Vec3(0.0, 0.0, -9.81));
  const Vec3 h = Vec3::Constant(half);
  const int body = b.AddFreeBody("cube", SpatialInertia::SolidBox(1.0, h), SE3::FromTranslation(Vec3(0, 0, half + gap)));
  b.AddCollider(body, Box{h}, SE3(), "cube").friction = 0.5;
  b.AddGround(0.5);
  return b.Build();
}

}  // namespace arena::sdrs::testing
