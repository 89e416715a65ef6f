// box_on_arm (issue 16, robot files): a free box dropped onto a robot arm held still, so that
// a moving body meets a robot's collision meshes. With the box a triangle mesh, the pair that
// matters (box on link) is mesh-mesh in every engine; box_on_arm_primitive uses a Box shape
// instead (box-mesh, which more models support).
//
//   - The arm: the KUKA KR5 sixx R650 of the dart-doc data (urdf/KR5, six revolute joints, one
//     STL collision mesh per link), loaded with LoadUrdf(floating_base = false). Its URDF
//     bolts the base to the world in DART's Y-up convention (rotated -1.57 about x, base at
//     y = -0.5), so the scene is Y-up with gravity (0, -9.81, 0), as the Atlas scene.
//   - The pose: all joints at zero, welded there (WeldJoints). That is the KR5's home pose:
//     the upper arm vertical and the elbow housing and forearm horizontal, pointing along +x;
//     the elbow housing's top is a flat face about 11 x 9 cm at y = 0.246 (measured from the
//     mesh: the upward triangles of the link), the largest horizontal face of the arm above
//     the base. A forearm-horizontal pose is the arm's own zero, so nothing has to be chosen.
//   - The ground: a half-space under the arm's lowest point (the base's bottom, y = -0.5),
//     where the data's ground.urdf puts the top of its floor box.
//   - The box: a 6 cm cube of 0.5 kg, friction 0.5 (the loader's default, as the arm's),
//     its centre above the centre of the elbow link's world bounding box (x, z), its bottom
//     15 cm above the highest arm link under its footprint.
#pragma once

#include <memory>
#include <string>

#include "core/geometry/primitives.h"
#include "core/scene/scene.h"

namespace arena {

enum class FallingBoxShape { kMesh, kBox };

/// Where the box lands, as the builder computes it from the welded arm's link meshes.
struct BoxOnArmLayout {
  std::string landing_link;  // "elbow"
  Aabb landing_bounds;       // that link's world bounding box (its x-z extent is the footprint)
  double surface_height = 0.0;  // y of the highest arm point under the box's footprint
  double box_half_extent = 0.0;
  Vec3 drop_position = Vec3::Zero();  // the box's centre at t = 0
};

/// The layout of BoxOnArmScene (loads the URDF: throws ParseError without the dart-doc data).
BoxOnArmLayout ComputeBoxOnArmLayout();

/// The scene: welded KR5, ground, and the free box (body "box") at the layout's drop position.
/// Throws ParseError without the dart-doc data.
std::shared_ptr<const Scene> BoxOnArmScene(FallingBoxShape shape);

/// The path of the KR5 URDF in the dart-doc data.
std::string Kr5UrdfPath();

}  // namespace arena
