// Typed experiment settings: one struct per experiment declares, once, the config keys it reads
// (type, doc, unit, range), the parameters each case writes as CSV columns, and how Run decodes
// a case back into the struct; no key is looked up by string in Expand, Run or Summarize.
//
// The declaration is a VisitFields, as for model Options (core/common/options.h), with an
// optional last argument saying where the field lives:
//
//   struct DropSettings {
//     std::vector<double> heights_m;  // the sweep axis (config only)
//     double height_m = 0.0;          // m, one case's value of the axis
//     double duration_s = 1.0;        // s, a config key copied into every case
//     template <class V> void VisitFields(V&& v) {
//       v("heights_m", heights_m, "drop heights", "m", LeftOpen(0, 10), SettingRole::kConfig);
//       v("height_m", height_m, "drop height", "m", LeftOpen(0, 10), SettingRole::kCase);
//       v("duration_s", duration_s, "simulated time", "s", Positive());
//     }
//   };
//
//   DropSettings s = ReadSettings<DropSettings>(config);  // Expand: every config key, range-checked
//   for (double h : s.heights_m) { s.height_m = h; c.params = CaseParams(s); }
//   const DropSettings s = DecodeSettings<DropSettings>(c);  // Run
//
// Field types: double, int, std::int64_t, bool, std::string; std::optional of these (a config
// key that may be absent, unless kConfigAndSomeCases; a parameter only some cases have); and
// config lists: std::vector of double, std::string or std::int64_t (a list of integers takes no
// range: the experiment checks it). Integers become int64 cells and doubles double cells, so a
// field's CSV text is what its type writes (1000000 vs 1e+06).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "config/profile_config.h"
#include "core/common/options.h"
#include "experiments/experiment.h"

namespace arena {

/// Where a settings field lives.
enum class SettingRole {
  kConfigAndCase,  // a config key copied into every case's parameters (the default)
  kCase,           // a case parameter Expand sets per case (a sweep coordinate); not a config key
  kConfig,         // a config key Expand alone uses; a list is a sweep axis (>= 1 value, none twice)
  kConfigList,     // a config list of any length whose values may repeat (one per problem)
  kConfigAndSomeCases,  // a config key every profile has, a parameter of only some cases: the field
                        // is a std::optional that Expand resets for the others
  kConfigCount,    // a config key only: a count of the sweep's instances, 1 to the run's max_cases
                   // (ProfileConfig::max_cases; the field takes no range)
};

/// (0, hi]: a positive number (any finite one by default).
constexpr Range Positive(double hi = std::numeric_limits<double>::max()) { return LeftOpen(0.0, hi); }

/// One field as DescribeSettings lists it.
struct SettingInfo {
  std::string key;
  std::string type;  // "double", "int", "bool", "string", "list of double", ...; "optional ..."
  std::string doc;
  std::string unit;
  std::string valid;  // the range as text, empty for a field without one
  SettingRole role = SettingRole::kConfigAndCase;
};

namespace settings_detail {

template <class T> struct IsOptional : std::false_type {};
template <class T> struct IsOptional<std::optional<T>> : std::true_type { using type = T; };
template <class T> struct IsVector : std::false_type {};
template <class T> struct IsVector<std::vector<T>> : std::true_type { using type = T; };

inline bool InConfig(SettingRole role) { return role != SettingRole::kCase; }
inline bool InCase(SettingRole role) {
  return role == SettingRole::kConfigAndCase || role == SettingRole::kCase || role == SettingRole::kConfigAndSomeCases;
}

// The config reads, range-checked by ProfileConfig (its errors name the file, profile and key).
double ReadDouble(const ProfileConfig& config, const std::string& key, const std::optional<Range>& range);
std::int64_t ReadInt(const ProfileConfig& config, const std::string& key, const std::optional<Range>& range,
                     SettingRole role);
std::vector<double> ReadDoubles(const ProfileConfig& config, const std::string& key,
                                const std::optional<Range>& range, SettingRole role);
std::vector<std::string> ReadStrings(const ProfileConfig& config, const std::string& key, SettingRole role);
std::vector<std::int64_t> ReadInts(const ProfileConfig& config, const std::string& key,
                                   const std::optional<Range>& range);

template <class T>
void ReadField(const ProfileConfig& config, const std::string& key, const std::optional<Range>& range,
               SettingRole role, T* field) {
  if constexpr (IsOptional<T>::value) {
    if (role != SettingRole::kConfigAndSomeCases && !config.Has(key)) return field->reset();
    typename IsOptional<T>::type value{};
    ReadField(config, key, range, role, &value);
    *field = std::move(value);
  } else if constexpr (std::is_same_v<T, double>) {
    *field = ReadDouble(config, key, range);
  } else if constexpr (std::is_same_v<T, int> || std::is_same_v<T, std::int64_t>) {
    *field = static_cast<T>(ReadInt(config, key, range, role));
  } else if constexpr (std::is_same_v<T, bool>) {
    *field = config.Bool(key);
  } else if constexpr (std::is_same_v<T, std::string>) {
    *field = config.String(key);
  } else if constexpr (std::is_same_v<T, std::vector<double>>) {
    *field = ReadDoubles(config, key, range, role);
  } else if constexpr (std::is_same_v<T, std::vector<std::int64_t>>) {
    *field = ReadInts(config, key, range);
  } else {
    static_assert(std::is_same_v<T, std::vector<std::string>>, "unsupported settings field type");
    *field = ReadStrings(config, key, role);
  }
}

template <class T>
Value ToValue(const T& field) {
  if constexpr (std::is_same_v<T, int> || std::is_same_v<T, std::int64_t>) {
    return static_cast<std::int64_t>(field);
  } else {
    static_assert(std::is_same_v<T, double> || std::is_same_v<T, bool> || std::is_same_v<T, std::string>,
                  "a case parameter is a number, a bool or a string");
    return field;
  }
}

/// The case's parameter `key`, or nullptr.
const Value* FindParam(const Case& c, const std::string& key);
// A parameter's value as a field; InvalidArgument naming the case and key when it is not one.
double DecodeNumber(const Case& c, const std::string& key, const Value& value);
std::int64_t DecodeInt(const Case& c, const std::string& key, const Value& value);
bool DecodeBool(const Case& c, const std::string& key, const Value& value);
[[noreturn]] void ThrowMissing(const Case& c, const std::string& key);
/// A list is a config key only: InvalidArgument naming the field when `role` makes it a case parameter.
void CheckConfigOnly(const char* key, SettingRole role);

template <class T>
void DecodeField(const Case& c, const std::string& key, const Value& value, T* field) {
  if constexpr (std::is_same_v<T, double>) {
    *field = DecodeNumber(c, key, value);
  } else if constexpr (std::is_same_v<T, int> || std::is_same_v<T, std::int64_t>) {
    *field = static_cast<T>(DecodeInt(c, key, value));
  } else if constexpr (std::is_same_v<T, bool>) {
    *field = DecodeBool(c, key, value);
  } else {
    static_assert(std::is_same_v<T, std::string>, "a case parameter is a number, a bool or a string");
    *field = ToText(value);
  }
}

template <class T>
ColumnType ColumnTypeOf() {
  if constexpr (IsOptional<T>::value) {
    return ColumnTypeOf<typename IsOptional<T>::type>();
  } else if constexpr (std::is_same_v<T, bool>) {
    return ColumnType::kBool;
  } else if constexpr (std::is_same_v<T, std::string>) {
    return ColumnType::kText;
  } else {
    return ColumnType::kNumber;
  }
}

template <class T>
void DecodeParam(const Case& c, const std::string& key, T* field) {
  const Value* value = FindParam(c, key);
  if constexpr (IsOptional<T>::value) {
    if (!value) return field->reset();
    typename IsOptional<T>::type inner{};
    DecodeField(c, key, *value, &inner);
    *field = std::move(inner);
  } else {
    if (!value) ThrowMissing(c, key);
    DecodeField(c, key, *value, field);
  }
}

template <class T>
std::string TypeName() {
  if constexpr (IsOptional<T>::value) {
    return "optional " + TypeName<typename IsOptional<T>::type>();
  } else if constexpr (IsVector<T>::value) {
    return "list of " + TypeName<typename IsVector<T>::type>();
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return "int";
  } else {
    return options_detail::TypeName<T>();
  }
}

}  // namespace settings_detail

/// `Settings` with every config field read from `config` (a key under `prefix`, e.g.
/// "by_model.silico.", when given) and every case-only field at its default. A missing key, a
/// value of the wrong type or out of range throws naming the file, profile and key; the keys it
/// reads count as read for ProfileConfig::UnreadKeys.
template <class Settings>
Settings ReadSettings(const ProfileConfig& config, const std::string& prefix = "") {
  Settings s;
  s.VisitFields([&](const char* key, auto& field, const char*, const char* = "",
                    std::optional<Range> range = std::nullopt, SettingRole role = SettingRole::kConfigAndCase) {
    if (settings_detail::InConfig(role)) settings_detail::ReadField(config, prefix + key, range, role, &field);
  });
  return s;
}

/// The case parameters (CSV columns) of `s`: its kConfigAndCase, kCase and kConfigAndSomeCases
/// fields in declaration order, an empty optional left out.
template <class Settings>
std::vector<std::pair<std::string, Value>> CaseParams(Settings s) {
  std::vector<std::pair<std::string, Value>> params;
  s.VisitFields([&](const char* key, auto& field, const char*, const char* = "",
                    std::optional<Range> = std::nullopt, SettingRole role = SettingRole::kConfigAndCase) {
    using T = std::decay_t<decltype(field)>;
    if constexpr (settings_detail::IsVector<T>::value) {
      settings_detail::CheckConfigOnly(key, role);
    } else if (!settings_detail::InCase(role)) {
      return;
    } else if constexpr (settings_detail::IsOptional<T>::value) {
      if (field) params.emplace_back(key, settings_detail::ToValue(*field));
    } else {
      params.emplace_back(key, settings_detail::ToValue(field));
    }
  });
  return params;
}

/// The case's parameters back as `Settings` (config-only fields at their defaults). A missing
/// parameter (unless its field is optional) or one of the wrong type throws InvalidArgument
/// naming the case and the key; parameters the struct does not declare (those of a shared sweep)
/// are ignored. Ranges are not checked again: Expand checked the config's, and Run meets a
/// degenerate case (a duration of no step) with a failed row of its own.
template <class Settings>
Settings DecodeSettings(const Case& c) {
  Settings s;
  s.VisitFields([&](const char* key, auto& field, const char*, const char* = "", std::optional<Range> = std::nullopt,
                    SettingRole role = SettingRole::kConfigAndCase) {
    using T = std::decay_t<decltype(field)>;
    if constexpr (settings_detail::IsVector<T>::value) {
      settings_detail::CheckConfigOnly(key, role);
    } else if (settings_detail::InCase(role)) {
      settings_detail::DecodeParam(c, key, &field);
    }
  });
  return s;
}

/// The CSV columns of the case parameters, in declaration order, each with its field's doc.
template <class Settings>
std::vector<Column> ParamColumns() {
  std::vector<Column> out;
  Settings s;
  s.VisitFields([&](const char* key, auto& field, const char* doc, const char* = "",
                    std::optional<Range> = std::nullopt, SettingRole role = SettingRole::kConfigAndCase) {
    using T = std::decay_t<decltype(field)>;
    if constexpr (settings_detail::IsVector<T>::value) {
      settings_detail::CheckConfigOnly(key, role);
    } else if (settings_detail::InCase(role)) {
      out.push_back({key, doc, false, settings_detail::ColumnTypeOf<T>()});
    }
  });
  return out;
}

/// Every field with its type, doc, unit, range and role (what `Settings` declares).
template <class Settings>
std::vector<SettingInfo> DescribeSettings() {
  std::vector<SettingInfo> out;
  Settings s;
  s.VisitFields([&](const char* key, auto& field, const char* doc, const char* unit = "",
                    std::optional<Range> range = std::nullopt, SettingRole role = SettingRole::kConfigAndCase) {
    using T = std::decay_t<decltype(field)>;
    out.push_back({key, settings_detail::TypeName<T>(), doc, unit, range ? range->ToString() : "", role});
  });
  return out;
}

}  // namespace arena
