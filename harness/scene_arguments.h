// The command-line arguments every scene-taking `arena` command shares (inspect, gradcheck):
//   --package NAME=DIR   (repeatable) where package://NAME/ is, before ROS_PACKAGE_PATH
//   --exclude A:B        (repeatable) bodies / links A and B never collide
//   --srdf FILE          an SRDF whose <disable_collisions> pairs never collide
//   --set self_collision=false   a robot's links skip each other (scene key; see below)
// Kept apart from arena_main.cc (which only registers them with CLI11) so they can be tested.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/scene/scene_options.h"

namespace arena {

struct SceneArguments {
  std::vector<std::string> packages;  // NAME=DIR
  std::vector<std::string> excludes;  // A:B
  std::string srdf;
  std::vector<std::string> sets;      // key=value
};

/// The SceneLoadOptions the arguments ask for. `--set` keys that are scene keys
/// (SceneOptionKeys()) are taken; the others go to *rest when `rest` is given (gradcheck: the
/// model's options), else are an InvalidArgument listing the scene keys (inspect). `command`
/// prefixes every message ("inspect: --set expects key=value, got 'x'").
SceneLoadOptions ParseSceneArguments(const std::string& command, const SceneArguments& args,
                                     std::map<std::string, std::string>* rest = nullptr);

}  // namespace arena
