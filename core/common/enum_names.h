// One name table per option enum, from which its ToString / FromString / EnumValues (the trio
// core/common/options.h reads) are one line each:
//   constexpr EnumNameTable<Color, 2> kColors = {{{Color::kRed, "red"}, {Color::kBlue, "blue"}}};
//   std::string_view ToString(Color c) { return EnumName(c, kColors); }
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace arena {

template <class E, std::size_t N>
using EnumNameTable = std::array<std::pair<E, const char*>, N>;

template <class E, std::size_t N>
std::string_view EnumName(E value, const EnumNameTable<E, N>& table) {
  for (const auto& [v, name] : table) {
    if (v == value) return name;
  }
  return "?";
}

/// False (and *out untouched) when `text` names no value.
template <class E, std::size_t N>
bool ParseEnum(std::string_view text, const EnumNameTable<E, N>& table, E* out) {
  for (const auto& [value, name] : table) {
    if (text == name) {
      *out = value;
      return true;
    }
  }
  return false;
}

/// "a|b|c", the form EnumValues returns.
template <class E, std::size_t N>
std::string EnumList(const EnumNameTable<E, N>& table) {
  std::string out;
  for (const auto& entry : table) out += (out.empty() ? "" : "|") + std::string(entry.second);
  return out;
}

}  // namespace arena
