// What a user may say about a scene when loading it, whether from a file or from the registry:
// where ROS packages are (URDF files only), whether a robot's links collide with each other,
// and which body pairs never collide (by name, or from an SRDF). `arena inspect` and
// `arena gradcheck` take them as --package, --set self_collision=..., --exclude and --srdf.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/scene/package_paths.h"
#include "core/scene/scene.h"

namespace arena {

struct SceneLoadOptions {
  PackagePaths packages;   // package:// in URDF mesh filenames (package_paths.h)
  /// Scene::self_collision (false: a tree never collides with itself); nullopt keeps the scene's
  /// own value (true for every file and registered scene).
  std::optional<bool> self_collision;
  /// Scene files only: leave out a robot's link pairs that overlap at its default pose
  /// (Scene::default_pose_overlaps); false checks them too.
  bool skip_default_overlaps = true;
  /// Body (URDF link, MJCF body) name pairs that never collide; "world" is the world's colliders.
  std::vector<std::pair<std::string, std::string>> excluded_pairs;
  std::string srdf;        // an SRDF whose <disable_collisions> pairs are excluded too; "" none

  /// True when nothing is asked of the scene (a registered scene is then used as built).
  bool IsDefault() const;
};

/// The keys `--set key=value` takes for a scene, in help order: {"self_collision",
/// "skip_default_overlaps"}.
const std::vector<std::string>& SceneOptionKeys();
bool IsSceneOptionKey(const std::string& key);
/// Sets one scene key from text; throws InvalidArgument for an unknown key (listing
/// SceneOptionKeys()) or a value of the wrong type.
void SetSceneOption(SceneLoadOptions* options, const std::string& key, const std::string& value);

/// "A:B" -> {A, B}; throws InvalidArgument when there is not exactly one ':' between two names.
std::pair<std::string, std::string> ParseExcludedPair(const std::string& text);

/// Applies self_collision, excluded_pairs and the SRDF's pairs to `scene` (packages are the
/// loader's business). Throws InvalidArgument naming an unknown body and listing the scene's
/// bodies; ParseError naming the SRDF and its element for a bad SRDF or an unknown link.
void ApplySceneOptions(const SceneLoadOptions& options, Scene* scene);

}  // namespace arena
