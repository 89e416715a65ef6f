// Reflection for plain Options structs, so every model and solver option can be set from a
// config file or `--set model.key=value`, listed with its default, doc and valid range, and
// recorded in a sidecar when it differs from the default.
//
// An Options struct lists its fields once, numeric fields with the values they accept:
//
//   struct PenaltyOptions {
//     double stiffness = 1e4;  // N/m
//     template <class V> void VisitFields(V&& v) {
//       v("stiffness", stiffness, "normal spring stiffness", "N/m", Closed(1.0, 1e12));
//     }
//     std::string Validate() const { return CheckRanges(*this); }  // empty when valid
//   };
//
// Supported field types: double, int, bool, std::string, and enums with ToString/FromString
// found by argument-dependent lookup (`ToString(E)` and `FromString(std::string_view, E*)`).
// A Range has finite ends, so NaN and infinities are never in one.
#pragma once

#include <cmath>
#include <map>
#include <optional>
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
  std::string doc;            // ends with "; valid: <range>" for a field with a range
  std::string unit;
  std::string valid;          // the range as text ("[1e-06, 1]"), empty for a field without one
};

/// The values a numeric option accepts: [lo, hi], or (lo, hi] when lo_open; with zero_allowed,
/// 0 as well (a "use the default" value such as residual_tolerance = 0: rho / 10).
struct Range {
  double lo = 0.0;
  double hi = 0.0;
  bool lo_open = false;
  bool zero_allowed = false;

  bool Contains(double x) const {
    if (zero_allowed && x == 0.0) return true;
    return (lo_open ? x > lo : x >= lo) && x <= hi;  // false for NaN; the ends are finite
  }
  /// "[1e-06, 1]", "(0, 100]", "0 or [1e-14, 0.001]".
  std::string ToString() const;
  /// What a value must be: "in [1e-06, 1]", "0 or in [1e-14, 0.001]".
  std::string Requirement() const;
  /// The interval alone: "[1e-14, 0.001]".
  std::string Interval() const;
};
/// [lo, hi].
constexpr Range Closed(double lo, double hi) { return {lo, hi, false, false}; }
/// (lo, hi].
constexpr Range LeftOpen(double lo, double hi) { return {lo, hi, true, false}; }
/// 0 or `r`.
constexpr Range ZeroOr(Range r) {
  r.zero_allowed = true;
  return r;
}

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

/// Lists every field of `options` with its current value as the default; a field's range is
/// appended to its doc (what `arena models --options` prints).
template <class Options>
std::vector<OptionInfo> DescribeOptions(Options options) {
  std::vector<OptionInfo> out;
  options.VisitFields([&](const char* key, auto& field, const char* doc, const char* unit = "",
                          std::optional<Range> range = std::nullopt) {
    using T = std::decay_t<decltype(field)>;
    const std::string valid = range ? range->ToString() : "";
    out.push_back({key, options_detail::TypeName<T>(), options_detail::ToText(field),
                   valid.empty() ? std::string(doc) : std::string(doc) + "; valid: " + valid, unit, valid});
  });
  return out;
}

/// The first numeric field outside its range, as "<key> must be in <range>, got <value>"; ""
/// when every field is in range. An Options::Validate starts with it.
template <class Options>
std::string CheckRanges(Options options) {
  std::string error;
  options.VisitFields([&](const char* key, auto& field, const char*, const char* = "",
                          std::optional<Range> range = std::nullopt) {
    using T = std::decay_t<decltype(field)>;
    if constexpr (std::is_same_v<T, double> || std::is_same_v<T, int>) {
      if (error.empty() && range && !range->Contains(static_cast<double>(field))) {
        error = std::string(key) + " must be " + range->Requirement() + ", got " + options_detail::ToText(field);
      }
    }
  });
  return error;
}

/// Sets fields from `values`; an unknown key throws InvalidArgument naming `owner` and listing
/// the valid keys; a bad value throws naming the key. Then runs Validate().
template <class Options>
void ApplyOptions(const OptionMap& values, const std::string& owner, Options* options) {
  for (const auto& entry : values) {
    // Named references, not a structured binding: clang 14 (the fuzz build) cannot capture one.
    const std::string& key = entry.first;
    const std::string& text = entry.second;
    bool found = false;
    options->VisitFields([&](const char* name, auto& field, const char*, const char* = "",
                             std::optional<Range> = std::nullopt) {
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

}  // namespace arena
