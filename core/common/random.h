// Random numbers that are identical on every platform: std::mt19937_64 is specified exactly by
// the standard, but std::uniform_real_distribution is not, so we map its bits ourselves.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

namespace arena {

using Rng = std::mt19937_64;

/// Uniform in [0, 1) with 53 random bits.
inline double Uniform01(Rng& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

/// Uniform in [lo, hi).
inline double Uniform(Rng& rng, double lo, double hi) { return lo + (hi - lo) * Uniform01(rng); }

/// A standard normal sample: Box-Muller on Uniform01 (two uniforms per sample).
inline double StandardNormal(Rng& rng) {
  const double u1 = 1.0 - Uniform01(rng);  // (0, 1]: log is finite
  const double u2 = Uniform01(rng);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

}  // namespace arena
