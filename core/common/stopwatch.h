// Wall-clock seconds since a time point, for the phase timers of the solvers and models (the
// cost breakdowns the experiments report) and for timing experiments.
#pragma once

#include <chrono>

namespace arena {

inline double SecondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace arena
