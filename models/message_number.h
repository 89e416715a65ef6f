// A number as the models' diagnostic messages print it: three significant digits ("0.0433",
// "1.4e+06"), enough to compare with the bound printed beside it.
#pragma once

#include <cstdio>
#include <string>

namespace arena {

inline std::string MessageNumber(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

}  // namespace arena
