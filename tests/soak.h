// The soak switch of the randomised oracle tests (docs/conventions.md 5: seeds and sample counts can be
// raised by environment variable for soak runs).
#pragma once

#include <cstdlib>

namespace arena::testing {

/// Sample-count multiplier: ARENA_SOAK=<n> runs n times more random samples (default 1).
inline int SoakFactor() {
  const char* s = std::getenv("ARENA_SOAK");
  const int n = s == nullptr ? 1 : std::atoi(s);
  return n > 0 ? n : 1;
}

}  // namespace arena::testing
