#include "core/common/options.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

namespace arena::options_detail {

std::string FormatDouble(double x) {
  // Shortest text that reads back to the same double.
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), x);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(x);
}

double ParseDouble(std::string_view text, const std::string& key) {
  double x = 0.0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (!text.empty() && *first == '+') ++first;
  auto [end, ec] = std::from_chars(first, last, x);
  if (ec != std::errc() || end != last) {
    throw InvalidArgument("option '" + key + "': '" + std::string(text) + "' is not a number");
  }
  return x;
}

int ParseInt(std::string_view text, const std::string& key) {
  int x = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (!text.empty() && *first == '+') ++first;
  auto [end, ec] = std::from_chars(first, last, x);
  if (ec != std::errc() || end != last) {
    // Accept integral doubles written as 1e3; compare in double, where a cast to int of a value
    // out of its range would be undefined.
    const double d = ParseDouble(text, key);
    if (d != std::floor(d)) {
      throw InvalidArgument("option '" + key + "': '" + std::string(text) + "' is not an integer");
    }
    if (!(d >= std::numeric_limits<int>::min() && d <= std::numeric_limits<int>::max())) {
      throw InvalidArgument("option '" + key + "': " + std::string(text) + " is out of range for an integer (at most " +
                            std::to_string(std::numeric_limits<int>::max()) + ")");
    }
    return static_cast<int>(d);
  }
  return x;
}

bool ParseBool(std::string_view text, const std::string& key) {
  if (text == "true" || text == "1" || text == "on") return true;
  if (text == "false" || text == "0" || text == "off") return false;
  throw InvalidArgument("option '" + key + "': '" + std::string(text) + "' is not true/false");
}

}  // namespace arena::options_detail
