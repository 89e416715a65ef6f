#include "experiments/experiment.h"

#include <charconv>

namespace arena {

std::string ToText(const Value& value) {
  struct Visitor {
    std::string operator()(std::monostate) const { return ""; }
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(std::int64_t i) const { return std::to_string(i); }
    std::string operator()(double d) const { return options_detail::FormatDouble(d); }
    std::string operator()(const std::string& s) const { return s; }
  };
  return std::visit(Visitor{}, value);
}

std::string_view ToString(ColumnType type) {
  switch (type) {
    case ColumnType::kNumber: return "number";
    case ColumnType::kBool: return "true/false";
    case ColumnType::kText: return "text";
  }
  return "?";
}

bool Fits(const Value& value, ColumnType type) {
  if (std::holds_alternative<std::monostate>(value)) return true;
  switch (type) {
    case ColumnType::kNumber:
      return std::holds_alternative<std::int64_t>(value) || std::holds_alternative<double>(value);
    case ColumnType::kBool: return std::holds_alternative<bool>(value);
    case ColumnType::kText: return true;
  }
  return false;
}

bool CellFits(const std::string& text, ColumnType type) {
  if (text.empty()) return true;
  switch (type) {
    case ColumnType::kNumber: {
      // As ToText writes them: integers, and doubles in their shortest form (nan, inf, -inf).
      const char* first = text.data();
      const char* last = first + text.size();
      double x = 0.0;
      auto [end, ec] = std::from_chars(first, last, x);
      return ec == std::errc() && end == last;
    }
    case ColumnType::kBool: return text == "true" || text == "false";
    case ColumnType::kText: return true;
  }
  return false;
}

std::uint64_t DeriveSeed(std::string_view experiment, std::string_view key) {
  // FNV-1a over "experiment/key", then a splitmix64 finaliser to spread the bits.
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](std::string_view s) {
    for (unsigned char c : s) {
      h ^= c;
      h *= 1099511628211ull;
    }
  };
  mix(experiment);
  mix("/");
  mix(key);
  h += 0x9e3779b97f4a7c15ull;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

}  // namespace arena
