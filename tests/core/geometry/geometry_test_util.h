// Helpers shared by the geometry tests: seeded random poses and the soak factor.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "core/geometry/primitives.h"
#include "core/geometry/shape.h"
#include "core/math/se3.h"
#include "core/math/so3.h"

namespace arena::testing_geometry {

/// Sample-count multiplier: ARENA_SOAK=<n> runs n times more random samples (default 1).
inline int SoakFactor() {
  const char* s = std::getenv("ARENA_SOAK");
  if (s == nullptr) return 1;
  const int n = std::atoi(s);
  return n > 0 ? n : 1;
}

/// Uniform doubles from mt19937_64 (the same on every standard library).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : gen_(seed) {}
  double Uniform() { return static_cast<double>(gen_() >> 11) * 0x1.0p-53; }
  double Uniform(double lo, double hi) { return lo + (hi - lo) * Uniform(); }
  int Int(int n) { return static_cast<int>(gen_() % static_cast<std::uint64_t>(n)); }
  Vec3 InBox(double h) { return Vec3(Uniform(-h, h), Uniform(-h, h), Uniform(-h, h)); }
  Vec3 UnitVector() {
    for (;;) {
      const Vec3 v = InBox(1.0);
      const double n = v.norm();
      if (n > 1e-3 && n <= 1.0) return v / n;
    }
  }
  Mat3 Rotation() { return ExpSO3(UnitVector() * Uniform(0.0, 3.14159)); }
  SE3 Pose(double translation) { return SE3(Rotation(), InBox(translation)); }
  /// A pose rotating about z (planar scenes), translation in the xy-plane.
  SE3 Pose2(double translation) {
    return SE3(ExpSO3(Vec3(0, 0, Uniform(-3.14159, 3.14159))),
               Vec3(Uniform(-translation, translation), Uniform(-translation, translation), 0.0));
  }

 private:
  std::mt19937_64 gen_;
};

/// The square [-h, h]^2 shifted by `centre` and padded by r (a rounded square), as A p <= b.
inline Polygon2 PaddedSquare(double h, double r, const Vec2& centre = Vec2::Zero()) {
  Eigen::Matrix<double, Eigen::Dynamic, 2> A(4, 2);
  A << 1, 0, -1, 0, 0, 1, 0, -1;
  VecX b(4);
  b << h + centre.x(), h - centre.x(), h + centre.y(), h - centre.y();
  return MakePaddedPolygon2(A, b, r);
}

/// Points on the boundary of a padded polygon, from its definition and independently of the
/// library's samplers: for each core vertex, `per_arc` points (ends included) on the arc of
/// radius r about it between the outward normals of its two edges (by angle); for each core
/// edge, `per_edge` interior points of the edge moved out by r.
inline std::vector<Vec2> PaddedBoundary(const Polygon2& p, int per_edge, int per_arc) {
  const int n = static_cast<int>(p.vertices.rows());
  const double r = p.radius;
  const auto normal_angle = [&](int i) {  // edge i from v_i to v_{i+1}, counter-clockwise
    const Vec2 e = (p.vertices.row((i + 1) % n) - p.vertices.row(i)).transpose();
    return std::atan2(-e.x(), e.y());
  };
  std::vector<Vec2> out;
  for (int i = 0; i < n; ++i) {
    const Vec2 v = p.vertices.row(i).transpose();
    double a0 = normal_angle((i + n - 1) % n), a1 = normal_angle(i);
    while (a1 < a0) a1 += 2.0 * M_PI;
    for (int k = 0; k < per_arc; ++k) {
      const double a = a0 + (a1 - a0) * k / std::max(1, per_arc - 1);
      out.push_back(v + r * Vec2(std::cos(a), std::sin(a)));
    }
    const Vec2 w = p.vertices.row((i + 1) % n).transpose();
    const double a = normal_angle(i);
    for (int k = 1; k <= per_edge; ++k) {
      out.push_back(v + (w - v) * k / (per_edge + 1.0) + r * Vec2(std::cos(a), std::sin(a)));
    }
  }
  return out;
}

}  // namespace arena::testing_geometry
