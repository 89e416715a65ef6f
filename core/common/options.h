// Reflection for plain Options structs, so every model and solver option can be set from a
// config file or `--set model.key=value`, listed with its default and doc, and recorded in a
// sidecar when it differs from the default.
//
// An Options struct lists its fields once:
//
//   struct PenaltyOptions {
//     double stiffness = 1e4;  // N/m
//     template <class V> void VisitFields(V&& v) {
//       v("stiffness", stiffness, "normal spring stiffness", "N/m");
//     }
//     std::string Validate() const;  // empty when valid
//   };
//
// Supported field types: double, int, bool, std::string, and enums with ToString/FromString
// found by argument-dependent lookup (`ToString(E)` and `FromString(std::string_view, E*)`).
#pragma once

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/common/error.h"
#include "core/common/strings.h"

namespace arena {

/// Option values as text, keyed by option name (no model prefix).
using OptionMap = std::map<std::string, std::string>;

struct OptionInfo {
  std::string key;
  std::string type;           // "double", "int", "bool", "string", or the enum's values "a|b|c"
  std::string default_value;  // as text
  std::string doc;
  std::string unit;
};

namespace options_detail {

std::string FormatDouble(double x);
double ParseDouble(std::string_view text, const std::string& key);
int ParseInt(std::string_view text, const std::string& key);
bool ParseBool(std::string_view text, const std::string& key);

template <class T>
std::string ToText(const T& value) {
  if constexpr (std::is_same_v<T, double>) {
    return FormatDouble(value);
  } else if constexpr (std::is_same_v<T, bool>) {
    return value ? "true" : "false";
  } else if constexpr (std::is_same_v<T, int>) {
    return std::to_string(value);
  } else if constexpr (std::is_same_v<T, std::string>) {
    return value;
  } else {
    static_assert(std::is_enum_v<T>, "unsupported option type");
    return std::string(ToString(value));
  }
}

template <class T>
void FromText(std::string_view text, const std::string& key, T* value) {
  if constexpr (std::is_same_v<T, double>) {
    *value = ParseDouble(text, key);
  } else if constexpr (std::is_same_v<T, bool>) {
    *value = ParseBool(text, key);
  } else if constexpr (std::is_same_v<T, int>) {
    *value = ParseInt(text, key);
  } else if constexpr (std::is_same_v<T, std::string>) {
    *value = std::string(text);
  } else {
    static_assert(std::is_enum_v<T>, "unsupported option type");
    if (!FromString(text, value)) {
      throw InvalidArgument("option '" + key + "': '" + std::string(text) +
                            "' is not one of " + EnumValues(T{}));
    }
  }
}

template <class T>
std::string TypeName() {
  if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_same_v<T, int>) return "int";
  else if constexpr (std::is_same_v<T, std::string>) return "string";
  else return EnumValues(T{});
}

}  // namespace options_detail

/// Lists every field of `options` with its current value as the default.
template <class Options>
std::vector<OptionInfo> DescribeOptions(Options options) {
  std::vector<OptionInfo> out;
  options.VisitFields([&](const char* key, auto& field, const char* doc, const char* unit = "") {
    using T = std::decay_t<decltype(field)>;
    out.push_back({key, options_detail::TypeName<T>(), options_detail::ToText(field), doc, unit});
  });
  return out;
}

/// Sets fields from `values`; an unknown key throws InvalidArgument naming `owner` and listing
/// the valid keys; a bad value throws naming the key. Then runs Validate().
template <class Options>
void ApplyOptions(const OptionMap& values, const std::string& owner, Options* options) {
  for (const auto& [key, text] : values) {
    bool found = false;
    options->VisitFields([&](const char* name, auto& field, const char*, const char* = "") {
      if (key == name) {
        options_detail::FromText(text, owner + "." + key, &field);
        found = true;
      }
    });
    if (!found) {
      std::vector<std::string> valid;
      for (const auto& info : DescribeOptions(*options)) valid.push_back(info.key);
      throw InvalidArgument("unknown option '" + key + "' for " + owner + "; valid options: " + Join(valid));
    }
  }
  if (std::string error = options->Validate(); !error.empty()) {
    throw InvalidArgument(owner + ": " + error);
  }
}

/// The fields whose value differs from a default-constructed Options, as text.
template <class Options>
OptionMap NonDefaultOptions(const Options& options) {
  OptionMap out;
  const auto defaults = DescribeOptions(Options{});
  const auto current = DescribeOptions(options);
  for (size_t i = 0; i < current.size(); ++i) {
    if (current[i].default_value != defaults[i].default_value) {
      out[current[i].key] = current[i].default_value;
    }
  }
  return out;
}

}  // namespace arena
