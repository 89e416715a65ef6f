// Helpers shared by the long-range contact tests: seeded random triangles and rotations,
// finite differences over world vertex coordinates, two posed tessellated spheres.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <functional>

#include <Eigen/Geometry>

#include "tests/soak.h"
#include "core/common/random.h"
#include "models/longrange/bounding_sphere_hierarchy.h"
#include "core/geometry/sphere_mesh.h"
#include "models/longrange/triangle_pair_potential.h"
#include "solvers/finite_difference.h"

namespace arena::longrange::testing {

using ::arena::testing::SoakFactor;

inline Vec3 RandomVector(Rng& rng, double h) {
  return Vec3(Uniform(rng, -h, h), Uniform(rng, -h, h), Uniform(rng, -h, h));
}

inline Vec3 RandomUnit(Rng& rng) {
  for (;;) {
    const Vec3 v = RandomVector(rng, 1.0);
    if (v.norm() > 1e-2 && v.norm() <= 1.0) return v.normalized();
  }
}

inline Mat3 RandomRotation(Rng& rng) {
  return Eigen::AngleAxisd(Uniform(rng, 0.0, 3.14159), RandomUnit(rng)).toRotationMatrix();
}

/// A random triangle of size ~`size` about `center`, with no side shorter than size / 10.
inline Triangle RandomTriangle(Rng& rng, const Vec3& center, double size) {
  for (;;) {
    Triangle t = {center + RandomVector(rng, size), center + RandomVector(rng, size),
                  center + RandomVector(rng, size)};
    if ((t[0] - t[1]).norm() > 0.1 * size && (t[1] - t[2]).norm() > 0.1 * size &&
        (t[2] - t[0]).norm() > 0.1 * size &&
        (t[1] - t[0]).cross(t[2] - t[0]).norm() > 0.05 * size * size) {
      return t;
    }
  }
}

/// Moves b along u so that the projections of a and b on u are `gap` apart (a on the + side).
inline void SeparateAlong(const Triangle& a, Triangle* b, const Vec3& u, double gap) {
  double min_a = 1e300, max_b = -1e300;
  for (int k = 0; k < 3; ++k) {
    min_a = std::min(min_a, u.dot(a[k]));
    max_b = std::max(max_b, u.dot((*b)[k]));
  }
  for (auto& v : *b) v += (min_a - max_b - gap) * u;
}

inline Vec18 Stack(const Triangle& a, const Triangle& b) {
  Vec18 x;
  for (int k = 0; k < 3; ++k) {
    x.segment<3>(3 * k) = a[k];
    x.segment<3>(9 + 3 * k) = b[k];
  }
  return x;
}

inline void Unstack(const VecX& x, Triangle* a, Triangle* b) {
  for (int k = 0; k < 3; ++k) {
    (*a)[k] = x.segment<3>(3 * k);
    (*b)[k] = x.segment<3>(9 + 3 * k);
  }
}

/// Row-major N x 3 points as a 3N vector (x0, y0, z0, x1, ...) and back.
inline VecX Flatten(const PointsX3& p) { return Eigen::Map<const VecX>(p.data(), 3 * p.rows()); }
inline PointsX3 Unflatten(const VecX& x) {
  return Eigen::Map<const PointsX3>(x.data(), x.size() / 3, 3);
}

/// Body-frame points mapped by x_W = R x_B + c.
inline PointsX3 Transform(const PointsX3& local, const Mat3& R, const Vec3& c) {
  PointsX3 w = local * R.transpose();
  w.rowwise() += c.transpose();
  return w;
}

}  // namespace arena::longrange::testing
