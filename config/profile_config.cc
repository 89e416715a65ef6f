#include "config/profile_config.h"
#include "core/common/strings.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <toml++/toml.h>

#include "core/common/error.h"

namespace arena {
namespace {

std::vector<std::string> SplitDots(const std::string& key) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(key);
  while (std::getline(in, part, '.')) parts.push_back(part);
  return parts;
}

std::string TypeName(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table: return "table";
    case toml::node_type::array: return "array";
    case toml::node_type::string: return "string";
    case toml::node_type::integer: return "integer";
    case toml::node_type::floating_point: return "float";
    case toml::node_type::boolean: return "boolean";
    case toml::node_type::date: return "date";
    case toml::node_type::time: return "time";
    case toml::node_type::date_time: return "date-time";
    case toml::node_type::none: break;
  }
  return "none";
}

// Scalar TOML value as option text; nullopt for arrays, tables and dates.
std::optional<std::string> ScalarText(const toml::node& node) {
  if (auto s = node.value_exact<std::string>()) return *s;
  if (auto i = node.value_exact<std::int64_t>()) return std::to_string(*i);
  if (auto d = node.value_exact<double>()) return options_detail::FormatDouble(*d);
  if (auto b = node.value_exact<bool>()) return std::string(*b ? "true" : "false");
  return std::nullopt;
}

void CollectLeaves(const toml::table& table, const std::string& prefix,
                   std::vector<std::string>* out) {
  for (const auto& [k, v] : table) {
    const std::string key = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    if (const toml::table* sub = v.as_table()) {
      CollectLeaves(*sub, key, out);
    } else {
      out->push_back(key);
    }
  }
}

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// The smoke profile: [quick] with each leaf of the config's [smoke] table in place of quick's.
// A [smoke] key that quick does not have is an error: smoke only shrinks the quick profile.
toml::table SmokeProfile(const toml::table& root, const std::string& source_name) {
  const toml::table* quick = root.get_as<toml::table>(kQuickProfile);
  const toml::table* smoke = root.get_as<toml::table>(kSmokeProfile);
  if (quick == nullptr || smoke == nullptr) {
    throw ParseError(source_name, "", "the smoke profile needs tables [quick] and [smoke] (what shrinks quick)");
  }
  toml::table merged = *quick;
  std::vector<std::string> leaves;
  CollectLeaves(*smoke, "", &leaves);
  for (const std::string& leaf : leaves) {
    const std::vector<std::string> parts = SplitDots(leaf);
    toml::table* at = &merged;
    const toml::node* value = smoke;
    for (size_t i = 0; i + 1 < parts.size(); ++i) {
      value = value->as_table()->get(parts[i]);
      at = at != nullptr ? at->get_as<toml::table>(parts[i]) : nullptr;
    }
    value = value->as_table()->get(parts.back());
    if (at == nullptr || !at->contains(parts.back())) {
      throw ParseError(source_name, "[smoke] " + leaf, "not a key of [quick]: smoke may only shrink the quick profile");
    }
    at->insert_or_assign(parts.back(), *value);
  }
  return merged;
}

// What a type error shows of the value: a scalar with its text ("string 'abc'"), else the type.
std::string Described(const toml::node& node) {
  if (auto s = node.value_exact<std::string>()) return "string '" + *s + "'";
  if (auto text = ScalarText(node)) return TypeName(node) + " " + *text;
  return TypeName(node);
}

// A --set value that is not valid TOML but reads as a word is taken as a string
// (--set method=newton): letters, digits and _ - . / :, starting with a letter or _. Anything
// else ([10,20, 1e999, "abc) is a typo the parser's message explains.
bool IsBareWord(const std::string& text) {
  if (text.empty() || !(std::isalpha(static_cast<unsigned char>(text[0])) || text[0] == '_')) return false;
  return std::all_of(text.begin(), text.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '.' || ch == '/' ||
           ch == ':';
  });
}

std::string NumberText(double x) { return options_detail::FormatDouble(x); }

}  // namespace

bool NumberRange::Contains(double x) const {
  if (!std::isfinite(x)) return false;
  if (open_min ? !(x > min) : !(x >= min)) return false;
  return x <= max;
}

std::string NumberRange::ToString() const {
  constexpr double kLowest = std::numeric_limits<double>::lowest();
  constexpr double kHighest = std::numeric_limits<double>::max();
  const std::string lower = (open_min ? "> " : ">= ") + NumberText(min);
  if (min == kLowest && max == kHighest) return "a finite number";
  if (max == kHighest) return "a finite number " + lower;
  if (min == kLowest) return "a finite number <= " + NumberText(max);
  if (open_min) return "a number > " + NumberText(min) + " and <= " + NumberText(max);
  return "a number between " + NumberText(min) + " and " + NumberText(max);
}

struct ProfileConfig::Impl {
  std::string file;
  std::string profile;
  toml::table root;
  ModelOptionKeys models;
  // Experiment-key overrides: dotted key -> a table {v = value} holding the parsed value.
  std::map<std::string, toml::table> key_overrides;
  // Model overrides: model -> option -> value text.
  std::map<std::string, OptionMap> model_overrides;
  // Keys a getter has read (tracking only; not part of the configuration's value).
  mutable std::set<std::string> read;
  std::int64_t max_cases = kDefaultMaxCases;

  const toml::table& Profile() const { return *root[profile].as_table(); }

  bool IsModel(const std::string& name) const { return models.count(name) > 0; }

  std::string ModelNames() const {
    std::vector<std::string> names;
    for (const auto& [name, keys] : models) names.push_back(name);
    return Join(names);
  }

  const toml::node* Find(const std::string& key) const {
    if (auto it = key_overrides.find(key); it != key_overrides.end()) return it->second.get("v");
    const toml::node* node = &Profile();
    for (const auto& part : SplitDots(key)) {
      const toml::table* t = node->as_table();
      if (t == nullptr) return nullptr;
      node = t->get(part);
      if (node == nullptr) return nullptr;
    }
    return node;
  }

  std::string Where(const std::string& key, const toml::node* node) const {
    std::string where = "[" + profile + "] key '" + key + "'";
    if (key_overrides.count(key)) {
      where += " (set by --set)";
    } else if (node != nullptr && node->source().begin.line > 0) {
      where += " (line " + std::to_string(node->source().begin.line) + ")";
    }
    return where;
  }

  [[noreturn]] void TypeError(const std::string& key, const toml::node& node,
                              const std::string& expected) const {
    throw ParseError(file, Where(key, &node), "expected " + expected + ", got " + Described(node));
  }

  // A value of the right type that the key does not accept: an InvalidArgument, worded like a
  // ParseError (file: where: reason). `what` is the offending value ("inf", "entry 2, -10", "the
  // list is empty"); `fix` what to give instead.
  [[noreturn]] void ValueError(const std::string& key, const toml::node& node, const std::string& what,
                               const std::string& fix) const {
    throw InvalidArgument(file + ": " + Where(key, &node) + ": " + what + "; " + fix);
  }

  void CheckNumber(const std::string& key, const toml::node& node, double x, const NumberRange& range,
                   const std::string& entry) const {
    if (range.Contains(x)) return;
    ValueError(key, node, entry + NumberText(x) + " is out of range", "give " + range.ToString());
  }

  // An integer within [min, max]; an integral float (1e3) counts, a huge one is out of range.
  std::int64_t ToIntInRange(const std::string& key, const toml::node& node, std::int64_t min,
                            std::int64_t max) const {
    const std::string expected =
        "an integer between " + std::to_string(min) + " and " + std::to_string(max);
    std::int64_t i = 0;
    if (auto exact = node.value_exact<std::int64_t>()) {
      i = *exact;
    } else if (auto d = node.value_exact<double>()) {
      if (!std::isfinite(*d) || *d != std::floor(*d)) TypeError(key, node, expected);
      if (*d < static_cast<double>(min) || *d > static_cast<double>(max)) {
        ValueError(key, node, NumberText(*d) + " is out of range", "give " + expected);
      }
      i = static_cast<std::int64_t>(*d);
    } else {
      TypeError(key, node, expected);
    }
    if (i < min || i > max) ValueError(key, node, std::to_string(i) + " is out of range", "give " + expected);
    return i;
  }

  const toml::node& Get(const std::string& key) const {
    const toml::node* node = Find(key);
    if (node == nullptr) {
      std::vector<std::string> keys;
      CollectLeaves(Profile(), "", &keys);
      throw ParseError(file, "[" + profile + "]",
                       "missing key '" + key + "'; keys of the profile: " + Join(keys));
    }
    read.insert(key);
    return *node;
  }

  double ToDouble(const std::string& key, const toml::node& node) const {
    if (auto d = node.value_exact<double>()) return *d;
    if (auto i = node.value_exact<std::int64_t>()) return static_cast<double>(*i);
    TypeError(key, node, "a number");
  }

  std::int64_t ToInt(const std::string& key, const toml::node& node) const {
    if (auto i = node.value_exact<std::int64_t>()) return *i;
    if (auto d = node.value_exact<double>()) {
      // 1e3 is a float in TOML; accept it when it is integral.
      if (std::isfinite(*d) && *d == std::floor(*d) && std::abs(*d) < 9.0e15) {
        return static_cast<std::int64_t>(*d);
      }
    }
    TypeError(key, node, "an integer");
  }

  std::string ToString(const std::string& key, const toml::node& node) const {
    if (auto s = node.value_exact<std::string>()) return *s;
    TypeError(key, node, "a string");
  }

  template <class T, class Convert>
  std::vector<T> List(const std::string& key, Convert convert) const {
    const toml::node& node = Get(key);
    std::vector<T> out;
    if (const toml::array* arr = node.as_array()) {
      for (const toml::node& el : *arr) out.push_back(convert(key, el));
    } else {
      out.push_back(convert(key, node));  // a scalar is a one-element list
    }
    return out;
  }

  // The table [profile.<section>.<model>], or nullptr.
  const toml::table* ModelTable(const std::string& section, const std::string& model) const {
    const toml::table* sec = Profile().get_as<toml::table>(section);
    if (sec == nullptr) return nullptr;
    const toml::node* node = sec->get(model);
    if (node == nullptr) return nullptr;
    const toml::table* t = node->as_table();
    if (t == nullptr) TypeError(section + "." + model, *node, "a table");
    return t;
  }

  void ApplyOverride(const std::string& text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || Trim(text.substr(0, eq)).empty()) {
      throw InvalidArgument("--set '" + text + "': expected key=value");
    }
    const std::string key = Trim(text.substr(0, eq));
    const std::string value_text = Trim(text.substr(eq + 1));
    if (value_text.empty()) {
      throw InvalidArgument("--set '" + text + "': no value after '='; write " + key +
                            "=<value> in TOML (a number, true/false, \"text\" or a list [a, b])");
    }
    toml::table parsed;
    try {
      parsed = toml::parse("v = " + value_text, std::string("--set " + key));
    } catch (const toml::parse_error& e) {
      if (!IsBareWord(value_text)) {
        throw InvalidArgument("--set " + key + "=" + value_text + ": not a valid TOML value (" +
                              std::string(e.description()) +
                              "); write numbers as 1e-3, lists as [10, 20], strings as \"text\"");
      }
      // A bare word is taken as a string: --set method=newton.
      parsed = toml::table{};
      parsed.insert("v", value_text);
    }
    const toml::node& value = *parsed.get("v");

    const auto parts = SplitDots(key);
    if (IsModel(parts[0])) {
      const std::string& model = parts[0];
      if (parts.size() != 2 || parts[1].empty()) {
        throw InvalidArgument("--set " + text + ": a model option is set as " + model +
                              ".<option>=<value>");
      }
      const std::string& option = parts[1];
      const std::vector<std::string>& valid = models.at(model);
      if (std::find(valid.begin(), valid.end(), option) == valid.end()) {
        throw InvalidArgument("--set " + text + ": unknown option '" + option + "' for model " +
                              model + "; valid options: " + Join(valid));
      }
      auto scalar = ScalarText(value);
      if (!scalar) {
        throw InvalidArgument("--set " + text + ": a model option takes a single value, got " +
                              TypeName(value));
      }
      model_overrides[model][option] = *scalar;
      return;
    }

    std::vector<std::string> keys;
    CollectLeaves(Profile(), "", &keys);
    std::vector<std::string> settable;
    for (const auto& k : keys) {
      if (!StartsWith(k, "options.") && !StartsWith(k, "sweep.")) settable.push_back(k);
    }
    if (StartsWith(key, "options.") || StartsWith(key, "sweep.")) {
      throw InvalidArgument("--set " + text + ": model options are set as <model>.<option>=<value> "
                            "(models: " + ModelNames() + ")");
    }
    // by_model.<model>.<key>: an experiment's own setting of a profile key for one model.
    const bool by_model = parts.size() == 3 && parts[0] == "by_model" && IsModel(parts[1]) &&
                          std::find(settable.begin(), settable.end(), parts[2]) != settable.end();
    if (!by_model && std::find(settable.begin(), settable.end(), key) == settable.end()) {
      throw InvalidArgument("--set " + text + ": unknown key '" + key + "' in [" + profile +
                            "] of " + file + "; valid keys: " + Join(settable) +
                            "; model options are set as <model>.<option> (models: " +
                            ModelNames() + ")");
    }
    toml::table holder;
    holder.insert("v", value);
    key_overrides[key] = std::move(holder);
  }
};

ProfileConfig::ProfileConfig(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ProfileConfig::ProfileConfig(ProfileConfig&&) noexcept = default;
ProfileConfig& ProfileConfig::operator=(ProfileConfig&&) noexcept = default;
ProfileConfig::~ProfileConfig() = default;

ProfileConfig ProfileConfig::Load(const std::string& file, const std::string& profile,
                                  const std::vector<std::string>& overrides,
                                  const ModelOptionKeys& models) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ParseError(file, "", "cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  return Parse(text.str(), file, profile, overrides, models);
}

ProfileConfig ProfileConfig::Parse(const std::string& toml_text, const std::string& source_name,
                                   const std::string& profile,
                                   const std::vector<std::string>& overrides,
                                   const ModelOptionKeys& models) {
  auto impl = std::make_unique<Impl>();
  impl->file = source_name;
  impl->profile = profile;
  impl->models = models;
  try {
    impl->root = toml::parse(toml_text, source_name);
  } catch (const toml::parse_error& e) {
    const auto& pos = e.source().begin;
    throw ParseError(source_name,
                     "line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column),
                     std::string(e.description()));
  }
  if (profile == kSmokeProfile) impl->root.insert_or_assign(kSmokeProfile, SmokeProfile(impl->root, source_name));
  const toml::node* prof = impl->root.get(profile);
  if (prof == nullptr || !prof->is_table()) {
    std::vector<std::string> profiles;
    for (const auto& [k, v] : impl->root) {
      if (v.is_table()) profiles.push_back(std::string(k.str()));
    }
    throw ParseError(source_name, "",
                     prof == nullptr ? "no profile [" + profile + "]; profiles: " + Join(profiles)
                                     : "[" + profile + "] is not a table");
  }
  for (const auto& o : overrides) impl->ApplyOverride(o);
  return ProfileConfig(std::move(impl));
}

const std::string& ProfileConfig::file() const { return impl_->file; }
const std::string& ProfileConfig::profile() const { return impl_->profile; }

bool ProfileConfig::Has(const std::string& key) const { return impl_->Find(key) != nullptr; }

double ProfileConfig::Double(const std::string& key) const {
  return impl_->ToDouble(key, impl_->Get(key));
}

std::int64_t ProfileConfig::Int(const std::string& key) const {
  return impl_->ToInt(key, impl_->Get(key));
}

bool ProfileConfig::Bool(const std::string& key) const {
  const toml::node& node = impl_->Get(key);
  if (auto b = node.value_exact<bool>()) return *b;
  impl_->TypeError(key, node, "a boolean");
}

std::string ProfileConfig::String(const std::string& key) const {
  return impl_->ToString(key, impl_->Get(key));
}

std::vector<double> ProfileConfig::Doubles(const std::string& key) const {
  return impl_->List<double>(key, [this](const std::string& k, const toml::node& n) {
    return impl_->ToDouble(k, n);
  });
}

std::vector<std::int64_t> ProfileConfig::Ints(const std::string& key) const {
  return impl_->List<std::int64_t>(key, [this](const std::string& k, const toml::node& n) {
    return impl_->ToInt(k, n);
  });
}

std::vector<std::string> ProfileConfig::Strings(const std::string& key) const {
  return impl_->List<std::string>(key, [this](const std::string& k, const toml::node& n) {
    return impl_->ToString(k, n);
  });
}

double ProfileConfig::Double(const std::string& key, const NumberRange& range) const {
  const toml::node& node = impl_->Get(key);
  const double x = impl_->ToDouble(key, node);
  impl_->CheckNumber(key, node, x, range, "");
  return x;
}

std::int64_t ProfileConfig::Int(const std::string& key, std::int64_t min, std::int64_t max) const {
  return impl_->ToIntInRange(key, impl_->Get(key), min, max);
}

std::vector<double> ProfileConfig::Doubles(const std::string& key, const NumberRange& range) const {
  const toml::node& node = impl_->Get(key);
  const std::vector<double> values = Doubles(key);
  for (size_t i = 0; i < values.size(); ++i) {
    const std::string entry = values.size() > 1 || node.is_array() ? "entry " + std::to_string(i + 1) + ", " : "";
    impl_->CheckNumber(key, node, values[i], range, entry);
  }
  return values;
}

std::vector<double> ProfileConfig::SweepDoubles(const std::string& key, const NumberRange& range) const {
  const std::vector<double> values = Doubles(key, range);
  const toml::node& node = impl_->Get(key);
  if (values.empty()) {
    impl_->ValueError(key, node, "the list is empty, so the sweep would have no cases", "give at least one value");
  }
  for (size_t i = 0; i < values.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (values[i] == values[j]) {
        impl_->ValueError(key, node, NumberText(values[i]) + " is listed twice", "list each value once");
      }
    }
  }
  return values;
}

std::vector<std::string> ProfileConfig::SweepStrings(const std::string& key) const {
  const std::vector<std::string> values = Strings(key);
  const toml::node& node = impl_->Get(key);
  if (values.empty()) {
    impl_->ValueError(key, node, "the list is empty, so the sweep would have no cases", "give at least one value");
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (std::find(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(i), values[i]) !=
        values.begin() + static_cast<std::ptrdiff_t>(i)) {
      impl_->ValueError(key, node, "'" + values[i] + "' is listed twice", "list each value once");
    }
  }
  return values;
}

std::int64_t ProfileConfig::max_cases() const { return impl_->max_cases; }
void ProfileConfig::set_max_cases(std::int64_t max_cases) { impl_->max_cases = max_cases; }

OptionMap ProfileConfig::ModelOptions(const std::string& model) const {
  OptionMap out;
  if (const toml::table* t = impl_->ModelTable("options", model)) {
    for (const auto& [k, v] : *t) {
      const std::string key = "options." + model + "." + std::string(k.str());
      auto text = ScalarText(v);
      if (!text) impl_->TypeError(key, v, "a single option value (string, number or boolean)");
      out[std::string(k.str())] = *text;
      impl_->read.insert(key);
    }
  }
  std::string swept;  // an override of the swept key belongs to ModelSweep
  if (const toml::table* sweep = impl_->ModelTable("sweep", model); sweep && sweep->size() == 1) {
    swept = std::string(sweep->begin()->first.str());
  }
  if (auto it = impl_->model_overrides.find(model); it != impl_->model_overrides.end()) {
    for (const auto& [k, v] : it->second) {
      if (k != swept) out[k] = v;
    }
  }
  return out;
}

std::pair<std::string, std::vector<std::string>> ProfileConfig::ModelSweep(
    const std::string& model) const {
  const toml::table* t = impl_->ModelTable("sweep", model);
  if (t == nullptr || t->empty()) return {};
  if (t->size() != 1) {
    std::vector<std::string> keys;
    for (const auto& [k, v] : *t) keys.push_back(std::string(k.str()));
    throw ParseError(impl_->file, "[" + impl_->profile + ".sweep." + model + "]",
                     "a model sweeps one option, found " + std::to_string(t->size()) + ": " +
                         Join(keys));
  }
  const auto first = t->begin();
  const toml::node& v = first->second;
  const std::string option(first->first.str());
  const std::string key = "sweep." + model + "." + option;
  impl_->read.insert(key);
  if (auto it = impl_->model_overrides.find(model); it != impl_->model_overrides.end()) {
    if (auto o = it->second.find(option); o != it->second.end()) return {option, {o->second}};
  }
  std::vector<std::string> values;
  auto add = [&](const toml::node& n) {
    auto text = ScalarText(n);
    if (!text) impl_->TypeError(key, n, "a list of option values");
    values.push_back(*text);
  };
  if (const toml::array* arr = v.as_array()) {
    for (const toml::node& el : *arr) add(el);
  } else {
    add(v);
  }
  const std::string table = "[" + impl_->profile + ".sweep." + model + "] " + option;
  if (values.empty()) {
    throw ParseError(impl_->file, table, "the list is empty, so " + model +
                     " would run no case; give at least one value or remove the table");
  }
  for (size_t i = 0; i < values.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (values[i] == values[j]) {
        throw ParseError(impl_->file, table, values[i] + " is listed twice; list each value once");
      }
    }
  }
  return {option, values};
}

std::vector<std::string> ProfileConfig::UnreadKeys(const std::vector<std::string>& models_run) const {
  std::vector<std::string> out;
  for (const auto& key : Keys()) {
    if (impl_->read.count(key)) continue;
    const auto parts = SplitDots(key);
    if (parts.size() >= 3 && (parts[0] == "options" || parts[0] == "sweep" || parts[0] == "by_model") &&
        impl_->IsModel(parts[1]) &&
        std::find(models_run.begin(), models_run.end(), parts[1]) == models_run.end()) {
      continue;  // a registered model that this run does not include
    }
    out.push_back(key);
  }
  return out;
}

std::vector<std::string> ProfileConfig::Keys() const {
  std::vector<std::string> out;
  CollectLeaves(impl_->Profile(), "", &out);
  return out;
}

}  // namespace arena
