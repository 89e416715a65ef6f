// Small string helpers used by error messages ("valid: a, b, c") and parsers.
#pragma once

#include <string>
#include <vector>

namespace arena {

/// "a, b, c" (or with another separator).
inline std::string Join(const std::vector<std::string>& items, const std::string& sep = ", ") {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

/// `s` without leading and trailing spaces and tabs.
inline std::string Trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

/// The `sep`-separated items of `s`, each trimmed, the empty ones dropped.
inline std::vector<std::string> SplitTrimmed(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string::size_type start = 0;
  while (start <= s.size()) {
    const auto end = s.find(sep, start);
    const std::string item = Trim(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (!item.empty()) out.push_back(item);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

}  // namespace arena
