// How the CLI names a scene's bodies and colliders in its tables: the world body "world", an
// unnamed collider by its index ("#3").
#pragma once

#include <string>

#include "core/scene/scene.h"

namespace arena {

inline std::string BodyLabel(const Scene& scene, int body) {
  return body == kWorldBody ? std::string("world") : scene.model.body(body).name;
}

inline std::string ColliderLabel(const Scene& scene, int collider) {
  const std::string& name = scene.colliders[collider].name;
  return name.empty() ? "#" + std::to_string(collider) : name;
}

}  // namespace arena
