#include "experiments/common/settings/case_params.h"

#include <charconv>

namespace arena {

Value ParamValue(const std::string& text) {
  if (text.empty()) return std::monostate{};
  double x = 0.0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
  if (ec == std::errc() && end == text.data() + text.size()) return x;
  return text;
}

}  // namespace arena
