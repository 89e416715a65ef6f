#include "experiments/common/settings/case_params.h"

#include <charconv>

#include "core/common/error.h"

namespace arena {

namespace {
const Value& Find(const Case& c, const std::string& name) {
  for (const auto& [key, value] : c.params) {
    if (key == name) return value;
  }
  throw InvalidArgument("case '" + c.id + "' has no parameter '" + name + "'");
}
}  // namespace

bool HasParam(const Case& c, const std::string& name) {
  for (const auto& [key, value] : c.params) {
    if (key == name) return true;
  }
  return false;
}

std::string ParamText(const Case& c, const std::string& name) { return ToText(Find(c, name)); }

double ParamNumber(const Case& c, const std::string& name) {
  const Value& v = Find(c, name);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  throw InvalidArgument("case '" + c.id + "': parameter '" + name + "' is not a number");
}

Value ParamValue(const std::string& text) {
  if (text.empty()) return std::monostate{};
  double x = 0.0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
  if (ec == std::errc() && end == text.data() + text.size()) return x;
  return text;
}

}  // namespace arena
