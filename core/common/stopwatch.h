// Wall-clock seconds since a time point, for the phase timers of the solvers and models (the
// cost breakdowns the experiments report) and for timing experiments.
#pragma once

#include <chrono>

namespace arena {

inline double Seconds(std::chrono::steady_clock::time_point t0, std::chrono::steady_clock::time_point t1) {
  return std::chrono::duration<double>(t1 - t0).count();
}

inline double SecondsSince(std::chrono::steady_clock::time_point t0) { return Seconds(t0, std::chrono::steady_clock::now()); }

}  // namespace arena
