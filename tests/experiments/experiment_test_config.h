// The [quick] profile of an experiment's config written inline by a test, with every registered
// model known (as `arena run` parses experiments/<experiment>/config.toml).
#pragma once

#include <cmath>
#include <functional>
#include <map>
#include <string>

#include "config/profile_config.h"
#include "core/common/error.h"
#include "experiments/experiment.h"
#include "harness/sweep_plan.h"
#include "models/registry.h"

namespace arena::testing_config {

/// Every registered model with its option keys, as `arena run` hands them to the config.
inline ModelOptionKeys RegisteredModels() { return ModelRegistry(Models()).option_keys(); }

inline ProfileConfig QuickConfig(const std::string& experiment, const std::string& body) {
  return ProfileConfig::Parse("[quick]\n" + body, experiment + ".toml", "quick", {}, RegisteredModels());
}

/// The cases of a sweep by id.
inline std::map<std::string, const Case*> CasesById(const Sweep& sweep) {
  std::map<std::string, const Case*> out;
  for (const Case& c : sweep.cases) out[c.id] = &c;
  return out;
}

/// A numeric parameter of a case (NaN when it has none by that name or it is not a number).
inline double NumberParam(const Case& c, const std::string& name) {
  for (const auto& [k, v] : c.params) {
    if (k != name) continue;
    if (const auto* d = std::get_if<double>(&v)) return *d;
    if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  }
  return NAN;
}

/// A numeric cell of a row (an integer or a double).
inline double RowNumber(const Row& row, const std::string& key) {
  const Value& v = row.at(key);
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  return std::get<double>(v);
}

/// The message of the InvalidArgument `f` throws, or "no error".
inline std::string InvalidArgumentMessage(const std::function<void()>& f) {
  try {
    f();
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace arena::testing_config
