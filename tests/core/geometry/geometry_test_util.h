// Helpers shared by the geometry tests: seeded random poses and the soak factor.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <random>

#include "core/geometry/primitives.h"
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

}  // namespace arena::testing_geometry
