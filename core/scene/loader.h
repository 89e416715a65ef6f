// Loading scenes from files. Every loader rejects malformed or unsupported input with a
// ParseError naming the file, the element and the reason.
#pragma once

#include <string>

#include "core/scene/package_paths.h"
#include "core/scene/scene.h"
#include "core/scene/scene_options.h"

namespace arena {

struct UrdfOptions {
  bool floating_base = true;   // root link on a free joint (false: welded to the world)
  double friction = 0.5;       // collider friction (URDF has none)
  bool load_meshes = true;     // false: skip mesh colliders (faster, for kinematics only)
  PackagePaths packages;       // where package://NAME/ meshes are (package_paths.h)

  /// Empty when valid, else the problem.
  std::string Validate() const;
};

/// URDF through urdfdom. Links -> bodies in topological order (children in the file's joint
/// order), joints (revolute, continuous, prismatic, fixed, floating, planar) -> joints with
/// limits, effort, velocity and damping, collision geometry (box, cylinder, sphere, mesh) ->
/// colliders. Mesh paths are relative to the URDF's folder; package://NAME/rel is resolved by
/// PackageResolver (package_paths.h): the user's mapping NAME=DIR (options.packages), then
/// $ROS_PACKAGE_PATH, then upward from the URDF's folder; an unresolved URI is a ParseError
/// naming every place searched. A massless root link named
/// "world" stands for the world itself (floating_base then does not apply). A planar joint's
/// body frame is rotated so that the plane normal is its z axis. Not supported (ParseError):
/// mimic joints. Ignored: joint dynamics friction, safety controllers, calibration, visuals.
Scene LoadUrdf(const std::string& path, const UrdfOptions& options = {});

/// MJCF subset through tinyxml2 (.xml, or .xml.gz through zlib): compiler (angle, coordinate
/// local|global, eulerseq, inertiafromgeom, settotalmass, boundmass, boundinertia, autolimits),
/// option (gravity, timestep -> timestep_hint), default classes (joint, geom, motor, position;
/// class and childclass), worldbody, frame, body, joint (hinge, slide, ball, free), freejoint,
/// inertial, geom (plane on the world, sphere, capsule, cylinder, box, ellipsoid; fromto),
/// actuator/motor|position on hinge and slide joints, contact/exclude. A body with several
/// joints becomes a chain of massless bodies named "<body>/<joint>". Visual-only and
/// solver-only content (light, camera, site, asset, sensor, keyframe, custom, size, visual,
/// statistic; MuJoCo's solver and contact-softness attributes) is ignored; anything else,
/// including physics we cannot represent (tendons, equality constraints, joint frictionloss,
/// fluid forces, force-limited actuators, damping on ball or free joints), is a ParseError
/// naming the element, its line and the attribute.
Scene LoadMjcf(const std::string& path);

/// A mesh file (.stl, .obj) as one free body carrying the mesh collider (density 1000 kg/m^3).
Scene LoadMeshScene(const std::string& path);

/// Dispatch on the extension: .urdf, .xml/.xml.gz/.mjcf, .stl/.obj; then ApplySceneOptions
/// (scene_options.h: self-collision, excluded pairs, SRDF). options.packages reach the URDF
/// loader; a mapping to a missing folder is an InvalidArgument whatever the file type.
Scene LoadScene(const std::string& path, const SceneLoadOptions& options = {});

/// The dart-doc data folder (compile-time default, overridable by $ARENA_DART_DATA_DIR).
std::string DartDataDir();

}  // namespace arena
