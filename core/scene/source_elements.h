// How a loader names the file elements behind a scene's bodies, joints, colliders and
// actuators, so that Scene::Check's findings point into the file. Not part of the public API.
#pragma once

#include <string>
#include <vector>

#include "core/scene/scene.h"

namespace arena {

/// Element names indexed like the scene's bodies, colliders and actuators ("link 'arm' /
/// inertial", "<geom> 'foot' (line 12)"); an empty or missing entry falls back to
/// Scene::Describe.
struct SourceElements {
  std::vector<std::string> body;
  std::vector<std::string> inertia;
  std::vector<std::string> joint;
  std::vector<std::string> collider;
  std::vector<std::string> actuator;
};

/// Throws ParseError(path, element, problem) for the first error of scene.Check().
void ValidateLoadedScene(const Scene& scene, const std::string& path,
                         const SourceElements& elements);

}  // namespace arena
