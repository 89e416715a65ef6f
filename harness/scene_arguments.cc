// Scene arguments -> SceneLoadOptions (scene_arguments.h).
#include "harness/scene_arguments.h"

#include "core/common/error.h"
#include "core/common/strings.h"

namespace arena {

SceneLoadOptions ParseSceneArguments(const std::string& command, const SceneArguments& args,
                                     std::map<std::string, std::string>* rest) {
  const std::string prefix = command + ": ";
  SceneLoadOptions options;
  try {
    for (const std::string& mapping : args.packages) AddPackageMapping(&options.packages, mapping);
    for (const std::string& pair : args.excludes) options.excluded_pairs.push_back(ParseExcludedPair(pair));
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(prefix + e.what());
  }
  options.srdf = args.srdf;
  for (const std::string& kv : args.sets) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw InvalidArgument(prefix + "--set expects key=value, got '" + kv + "'");
    }
    const std::string key = kv.substr(0, eq), value = kv.substr(eq + 1);
    if (IsSceneOptionKey(key)) {
      try {
        SetSceneOption(&options, key, value);
      } catch (const InvalidArgument& e) {
        throw InvalidArgument(prefix + "--set " + kv + ": " + e.what());
      }
    } else if (rest != nullptr) {
      (*rest)[key] = value;
    } else {
      throw InvalidArgument(prefix + "--set " + kv + ": unknown scene key '" + key +
                            "'; valid: " + Join(SceneOptionKeys()));
    }
  }
  return options;
}

}  // namespace arena
