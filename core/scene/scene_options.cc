// Scene-load options (scene_options.h): the scene keys of --set, A:B pairs, and applying them.
#include "core/scene/scene_options.h"

#include <algorithm>

#include "core/common/error.h"
#include "core/common/options.h"
#include "core/common/strings.h"
#include "core/scene/srdf.h"

namespace arena {

namespace {

constexpr const char* kWorldName = "world";

std::string BodyList(const Scene& scene) {
  std::vector<std::string> names = {kWorldName};
  for (const BodyModel& b : scene.model.bodies()) names.push_back(b.name);
  return Join(names);
}

// The body called `name` ("world": kWorldBody), or kNoBody.
constexpr int kNoBody = -2;
int FindBodyOrWorld(const Scene& scene, const std::string& name) {
  if (name == kWorldName) return kWorldBody;
  const int b = scene.model.FindBody(name);
  return b >= 0 ? b : kNoBody;
}

void AddExcluded(Scene* scene, int a, int b) {
  for (const auto& [x, y] : scene->excluded_body_pairs) {
    if ((x == a && y == b) || (x == b && y == a)) return;  // a file's own <exclude> already
  }
  scene->excluded_body_pairs.emplace_back(a, b);
}

}  // namespace

bool SceneLoadOptions::IsDefault() const {
  return packages.folders.empty() && !self_collision && skip_default_overlaps && excluded_pairs.empty() &&
         srdf.empty();
}

const std::vector<std::string>& SceneOptionKeys() {
  static const std::vector<std::string> keys = {"self_collision", "skip_default_overlaps"};
  return keys;
}

bool IsSceneOptionKey(const std::string& key) {
  const auto& keys = SceneOptionKeys();
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

void SetSceneOption(SceneLoadOptions* options, const std::string& key, const std::string& value) {
  if (key == "self_collision") {
    options->self_collision = options_detail::ParseBool(value, key);
    return;
  }
  if (key == "skip_default_overlaps") {
    options->skip_default_overlaps = options_detail::ParseBool(value, key);
    return;
  }
  throw InvalidArgument("unknown scene key '" + key + "'; valid: " + Join(SceneOptionKeys()));
}

std::pair<std::string, std::string> ParseExcludedPair(const std::string& text) {
  const size_t colon = text.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size() ||
      text.find(':', colon + 1) != std::string::npos) {
    throw InvalidArgument("excluded pair '" + text +
                          "': expected BODY_A:BODY_B (two body or link names, one ':')");
  }
  return {text.substr(0, colon), text.substr(colon + 1)};
}

void ApplySceneOptions(const SceneLoadOptions& options, Scene* scene) {
  if (options.self_collision) scene->self_collision = *options.self_collision;
  for (const auto& [a, b] : options.excluded_pairs) {
    int ids[2];
    for (int k = 0; k < 2; ++k) {
      const std::string& name = k == 0 ? a : b;
      ids[k] = FindBodyOrWorld(*scene, name);
      if (ids[k] == kNoBody) {
        throw InvalidArgument("excluded pair " + a + ":" + b + ": scene '" + scene->name +
                              "' has no body named '" + name + "'; its bodies: " + BodyList(*scene));
      }
    }
    AddExcluded(scene, ids[0], ids[1]);
  }
  if (options.srdf.empty()) return;
  for (const SrdfDisabledPair& p : ReadSrdfDisabledCollisions(options.srdf)) {
    int ids[2];
    for (int k = 0; k < 2; ++k) {
      const std::string& name = k == 0 ? p.link1 : p.link2;
      ids[k] = FindBodyOrWorld(*scene, name);
      if (ids[k] == kNoBody) {
        throw ParseError(options.srdf,
                         "<disable_collisions> (line " + std::to_string(p.line) + ") / " +
                             (k == 0 ? "link1" : "link2"),
                         "scene '" + scene->name + "' has no link named '" + name +
                             "' (is this the SRDF of another robot?); its links: " + BodyList(*scene));
      }
    }
    AddExcluded(scene, ids[0], ids[1]);
  }
}

}  // namespace arena
