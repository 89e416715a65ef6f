// Loading scenes from files. Every loader rejects malformed or unsupported input with a
// ParseError naming the file, the element and the reason.
#pragma once

#include <string>

#include "core/scene/scene.h"

namespace arena {

struct UrdfOptions {
  bool floating_base = true;   // root link on a free joint (false: welded to the world)
  double friction = 0.5;       // collider friction (URDF has none)
  bool load_meshes = true;     // false: skip mesh colliders (faster, for kinematics only)
};

/// URDF through urdfdom. Links -> bodies, joints (revolute, continuous, prismatic, fixed,
/// floating, planar) -> joints, collision geometry (box, cylinder, sphere, mesh; mesh paths are
/// relative to the URDF's folder, or package:// is resolved against it) -> colliders.
Scene LoadUrdf(const std::string& path, const UrdfOptions& options = {});

/// MJCF subset through tinyxml2 (.xml, or .xml.gz through zlib): compiler, option, default,
/// worldbody, body, joint, geom, inertial, actuator/motor|position. Visual-only elements
/// (light, camera, site, texture, material) are ignored; anything else unsupported is an error.
Scene LoadMjcf(const std::string& path);

/// A mesh file (.stl, .obj) as one free body carrying the mesh collider (density 1000 kg/m^3).
Scene LoadMeshScene(const std::string& path);

/// Dispatch on the extension: .urdf, .xml/.xml.gz/.mjcf, .stl/.obj.
Scene LoadScene(const std::string& path);

/// The dart-doc data folder (compile-time default, overridable by $ARENA_DART_DATA_DIR).
std::string DartDataDir();

}  // namespace arena
