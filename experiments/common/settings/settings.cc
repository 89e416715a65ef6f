#include "experiments/common/settings/settings.h"

#include "core/common/error.h"

namespace arena::settings_detail {

namespace {

NumberRange ToNumberRange(const Range& range) {
  // ProfileConfig has no "0 or [lo, hi]"; no config key has needed one.
  if (range.zero_allowed) throw InvalidArgument("a settings field's range cannot allow 0 besides " + range.Interval());
  return {range.lo, range.hi, range.lo_open};
}

[[noreturn]] void ThrowBadParam(const Case& c, const std::string& key, const Value& value, const std::string& what) {
  throw InvalidArgument("case '" + c.id + "': parameter '" + key + "' must be " + what + ", got '" + ToText(value) + "'");
}

}  // namespace

double ReadDouble(const ProfileConfig& config, const std::string& key, const std::optional<Range>& range) {
  return range ? config.Double(key, ToNumberRange(*range)) : config.Double(key);
}

std::int64_t ReadInt(const ProfileConfig& config, const std::string& key, const std::optional<Range>& range,
                     SettingRole role) {
  if (role == SettingRole::kConfigCount) {
    if (range) throw InvalidArgument("settings field '" + key + "': a count's range is the run's max_cases");
    return config.Int(key, 1, config.max_cases());
  }
  if (!range) return config.Int(key);
  // An integer range's ends are whole numbers below 2^53, exact as doubles; (lo, hi] is [lo + 1, hi].
  const auto lo = static_cast<std::int64_t>(range->lo) + (range->lo_open ? 1 : 0);
  return config.Int(key, lo, static_cast<std::int64_t>(range->hi));
}

std::vector<double> ReadDoubles(const ProfileConfig& config, const std::string& key,
                                const std::optional<Range>& range, SettingRole role) {
  if (role == SettingRole::kConfigList) return range ? config.Doubles(key, ToNumberRange(*range)) : config.Doubles(key);
  return config.SweepDoubles(key, range ? ToNumberRange(*range) : NumberRange::Finite());
}

std::vector<std::string> ReadStrings(const ProfileConfig& config, const std::string& key, SettingRole role) {
  return role == SettingRole::kConfigList ? config.Strings(key) : config.SweepStrings(key);
}

std::vector<std::int64_t> ReadInts(const ProfileConfig& config, const std::string& key,
                                   const std::optional<Range>& range) {
  if (range) throw InvalidArgument("settings field '" + key + "': a list of integers takes no range");
  return config.Ints(key);
}

const Value* FindParam(const Case& c, const std::string& key) {
  for (const auto& [name, value] : c.params) {
    if (name == key) return &value;
  }
  return nullptr;
}

double DecodeNumber(const Case& c, const std::string& key, const Value& value) {
  if (const auto* d = std::get_if<double>(&value)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&value)) return static_cast<double>(*i);
  ThrowBadParam(c, key, value, "a number");
}

std::int64_t DecodeInt(const Case& c, const std::string& key, const Value& value) {
  const auto* i = std::get_if<std::int64_t>(&value);
  if (!i) ThrowBadParam(c, key, value, "an integer");
  return *i;
}

bool DecodeBool(const Case& c, const std::string& key, const Value& value) {
  const auto* b = std::get_if<bool>(&value);
  if (!b) ThrowBadParam(c, key, value, "true or false");
  return *b;
}

void ThrowMissing(const Case& c, const std::string& key) {
  throw InvalidArgument("case '" + c.id + "' has no parameter '" + key + "'");
}

void CheckConfigOnly(const char* key, SettingRole role) {
  if (InCase(role)) throw InvalidArgument(std::string("settings field '") + key + "': a list cannot be a case parameter");
}

}  // namespace arena::settings_detail
