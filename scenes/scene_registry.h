// The one list of named scenes, keyed by the snake_case name that `arena gradcheck --scene`,
// `arena inspect`, the experiments' configs, the benchmarks and the tests use; `arena scenes`
// prints it. Adding a scene = a builder in one of the scenes/*_scenes.h files + one entry in
// scene_registry.cc (no static self-registration: linkers drop it from static libraries).
//
// The registry holds fixed scenes. Builders with parameters (box_drop's variant, stacking's
// configuration, the drone's options) are functions in their own header; each fixed instance
// the experiments use is registered under its own name.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/scene/scene.h"
#include "core/scene/scene_options.h"

namespace arena {

struct SceneInfo {
  std::string name;
  std::string description;  // one line: what the scene is
  std::string paper;        // seed and figure or table it comes from, or the issue for scenes of no paper
  /// Builds the scene (a new one on every call; the Atlas and Half Cheetah builders read the
  /// dart-doc data and throw ParseError when it is missing).
  std::function<std::shared_ptr<const Scene>()> build;
};

/// Every registered scene, in a fixed order (the papers' order, then the issues' scenes).
const std::vector<SceneInfo>& Scenes();
/// Throws InvalidArgument listing the registered names when `name` is unknown.
const SceneInfo& FindScene(std::string_view name);
/// A registered name, or else the path of a URDF, MJCF or mesh file (core/scene/loader.h
/// LoadScene), with `options` applied (core/scene/scene_options.h: self-collision and excluded
/// pairs for any scene, package paths for URDF files); a file scene then also excludes the body
/// pairs of one tree that overlap at its default pose (core/scene/initial_overlaps.h). Throws
/// InvalidArgument naming `name_or_path` and listing the registered names when it is neither,
/// or naming an unknown body of an excluded pair; ParseError when the file or the SRDF is
/// malformed.
std::shared_ptr<const Scene> MakeScene(const std::string& name_or_path,
                                       const SceneLoadOptions& options = {});

}  // namespace arena
