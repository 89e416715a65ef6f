// Random numbers that are identical on every platform: std::mt19937_64 is specified exactly by
// the standard, but std::uniform_real_distribution is not, so we map its bits ourselves.
#pragma once

#include <cstdint>
#include <random>

namespace arena {

using Rng = std::mt19937_64;

/// Uniform in [0, 1) with 53 random bits.
inline double Uniform01(Rng& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

/// Uniform in [lo, hi).
inline double Uniform(Rng& rng, double lo, double hi) { return lo + (hi - lo) * Uniform01(rng); }

}  // namespace arena
