#include "scenes/box_on_arm_scenes.h"

#include <algorithm>

#include "core/common/error.h"
#include "core/geometry/mesh.h"
#include "core/geometry/support.h"
#include "core/multibody/data.h"
#include "core/multibody/kinematics.h"
#include "core/scene/loader.h"
#include "scenes/ground_below.h"
#include "scenes/weld_joints.h"

namespace arena {

namespace {

constexpr double kBoxHalf = 0.03;    // a 6 cm cube: fits on the elbow's 11 x 9 cm top face
constexpr double kBoxMass = 0.5;     // kg
constexpr double kDropHeight = 0.15; // m from the arm's top to the box's bottom
const char* const kLandingLink = "elbow";
const Vec3 kGravity(0.0, -9.81, 0.0);  // the URDF's world is Y-up (DART's convention)

// The KR5 welded at its zero (home) pose, Y-up.
Scene WeldedKr5() {
  UrdfOptions urdf;
  urdf.floating_base = false;
  Scene arm = LoadUrdf(Kr5UrdfPath(), urdf);
  arm.model.set_gravity(kGravity);
  return WeldJoints(arm, arm.model.Neutral());
}

// World bounding box of every collider of `body` (the scene has no DOF: poses are fixed).
Aabb BodyBounds(const Scene& scene, const MultibodyData& data, int body) {
  Aabb box;
  for (const Collider& c : scene.colliders) {
    if (c.body == body) box.Extend(ComputeAabb(c.shape, data.X_WB[body] * c.placement));
  }
  return box;
}

BoxOnArmLayout LayoutOf(const Scene& arm) {
  MultibodyData data(arm.model);
  ForwardKinematics(arm.model, data, VecX());
  const int link = arm.model.FindBody(kLandingLink);
  if (link < 0) throw ParseError(Kr5UrdfPath(), "link '" + std::string(kLandingLink) + "'", "missing");
  BoxOnArmLayout layout;
  layout.landing_link = kLandingLink;
  layout.landing_bounds = BodyBounds(arm, data, link);
  layout.box_half_extent = kBoxHalf;
  // Up is +y; the box falls onto the x-z centre of the landing link's bounds. It must clear
  // whatever link rises highest under its footprint, not only the landing link.
  const Vec3 centre = layout.landing_bounds.Center();
  Aabb footprint;
  footprint.lower = Vec3(centre.x() - kBoxHalf, -1e9, centre.z() - kBoxHalf);
  footprint.upper = Vec3(centre.x() + kBoxHalf, 1e9, centre.z() + kBoxHalf);
  layout.surface_height = layout.landing_bounds.upper.y();
  for (int b = 0; b < arm.model.num_bodies(); ++b) {
    const Aabb bounds = BodyBounds(arm, data, b);
    if (!bounds.IsEmpty() && bounds.Overlaps(footprint)) {
      layout.surface_height = std::max(layout.surface_height, bounds.upper.y());
    }
  }
  layout.drop_position = Vec3(centre.x(), layout.surface_height + kDropHeight + kBoxHalf, centre.z());
  return layout;
}

// A cube of half extent h as 8 vertices and 12 outward counter-clockwise triangles.
TriangleMesh CubeMesh(double h) {
  PointsX3 v(8, 3);
  for (int i = 0; i < 8; ++i) {
    v.row(i) << ((i & 1) ? h : -h), ((i & 2) ? h : -h), ((i & 4) ? h : -h);
  }
  TrianglesX3 t(12, 3);
  t << 0, 2, 3, 0, 3, 1,  // z = -h
      4, 5, 7, 4, 7, 6,   // z = +h
      0, 1, 5, 0, 5, 4,   // y = -h
      2, 6, 7, 2, 7, 3,   // y = +h
      0, 4, 6, 0, 6, 2,   // x = -h
      1, 3, 7, 1, 7, 5;   // x = +h
  return MakeTriangleMesh(v, t);
}

}  // namespace

std::string Kr5UrdfPath() { return DartDataDir() + "/urdf/KR5/KR5 sixx R650.urdf"; }

BoxOnArmLayout ComputeBoxOnArmLayout() { return LayoutOf(WeldedKr5()); }

std::shared_ptr<const Scene> BoxOnArmScene(FallingBoxShape shape) {
  Scene scene = WeldedKr5();
  const BoxOnArmLayout layout = LayoutOf(scene);
  scene.name = shape == FallingBoxShape::kMesh ? "box_on_arm" : "box_on_arm_primitive";
  scene.source = "builtin:" + scene.name;
  AddGroundBelow(scene);

  JointModel free;
  free.type = JointType::kFree;
  free.name = "box";
  const int box = scene.model.AddBody("box", kWorldBody, free,
                                      SpatialInertia::SolidBox(kBoxMass, Vec3::Constant(kBoxHalf)));
  Collider c;
  c.name = "box";
  c.body = box;
  if (shape == FallingBoxShape::kMesh) {
    c.shape = CubeMesh(kBoxHalf);
  } else {
    c.shape = Box{Vec3::Constant(kBoxHalf)};
  }
  scene.colliders.push_back(c);
  scene.default_q = VecX(7);
  scene.default_q << layout.drop_position, 1.0, 0.0, 0.0, 0.0;
  scene.Validate();
  return std::make_shared<const Scene>(std::move(scene));
}

}  // namespace arena
