#include "scenes/gripper_scenes.h"

#include <string>

#include "core/common/error.h"
#include "core/geometry/convex_hull.h"
#include "core/scene/scene_builder.h"
#include "scenes/robot_parts.h"

namespace arena {

namespace gripper_scenes {

// The wall's rows (z, jaw frame) and columns (x): the middle row is the hole's height, 1 cm
// taller than the X's arm on each side; the middle column 2 cm wider than the arm on each side.
constexpr double kRowEdges[kGripperRows + 1] = {-0.09, -0.04, 0.04, 0.09};
constexpr double kColumnEdges[kGripperColumns + 1] = {-0.15, -0.05, 0.05, 0.15};

// The X (ours; the paper's dimensions are stripped): two crossed bars in one horizontal plane,
// lying on a table (1 mm above it: the barrier models cannot start touching), its +y arm
// overhanging the table's edge by 12 cm. The X's frame: the crossing. With the X on the ground
// (a bar under the other, to make room for the wall's bottom row under the arm) the X tilting
// about its far edge when the jaw lifted its arm drew the arm about 3 cm out of the hole; on a
// pedestal narrower than the X the pushed X fell off it. On the table the arm is level with the
// X's centre and a pushed X slides.
const Vec3 kBarHalf(0.2, 0.03, 0.03);    // the bar along x; the other is the same along y
const Vec3 kTableHalf(0.3, 0.25, 0.05);  // its top 0.1 m up
constexpr double kTableEdge = 0.08;      // y of the table's edge towards the jaw
constexpr double kClearance = 1e-3;
double ArmHeight() { return 2.0 * kTableHalf.z() + kClearance + kBarHalf.z(); }

// A box hull from its corners (x0..x1, y0..y1, z0..z1) in its body's frame: the 8 corners are
// the hull's vertices, so sdrs designs each of them.
ConvexHull BoxHull(const Vec3& lo, const Vec3& hi) {
  PointsX3 corners(8, 3);
  for (int k = 0; k < 8; ++k) {
    corners.row(k) << ((k & 1) ? hi.x() : lo.x()), ((k & 2) ? hi.y() : lo.y()), ((k & 4) ? hi.z() : lo.z());
  }
  return MakeConvexHull(corners);
}

void CheckOptions(const GripperOptions& o) {
  if (!(o.kp > 0.0) || !(o.kd >= 0.0) || !(o.friction >= 0.0) || !(o.jaw_density > 0.0) || !(o.object_density > 0.0)) {
    throw InvalidArgument("gripper: kp > 0, kd >= 0, friction >= 0 and positive densities needed");
  }
}

}  // namespace gripper_scenes

GripperWaypoints GripperScript() {
  using namespace gripper_scenes;
  const double arm = ArmHeight();
  const double tip = kBarHalf.x();
  GripperWaypoints w;
  // The grasp: the wall's front face 8 cm short of the arm's tip (the arm 8 cm deep in the hole,
  // 2 cm short of the wall's back face), the hole at the arm's height.
  w.grasp = Vec3(0.0, tip - kGripperArmDepth, arm);
  // The start: farther than the design's reach plus 1 cm (no designed vertex can reach the arm's
  // tip) and 9 cm higher (stage 1 lowers it).
  w.start = Vec3(0.0, tip + kGripperDesignReach + 0.01, arm + 0.09);
  w.lowered = Vec3(w.start.x(), w.start.y(), arm);
  w.lifted = w.grasp + Vec3(0.0, 0.0, 0.15);
  return w;
}

std::shared_ptr<const Scene> GripperScene(const GripperOptions& o) {
  using namespace gripper_scenes;
  CheckOptions(o);
  SceneBuilder b("gripper");
  b.SetGravity(Vec3(0.0, 0.0, -9.81));
  const GripperWaypoints w = GripperScript();
  // The jaw: one rigid body on three slides (root_x, root_y, root_z), the slides at the start.
  const int z = AddTranslatingRoot(b, "gripper", 0.0);
  JointModel weld;
  weld.type = JointType::kFixed;
  weld.name = "jaw_weld";
  const Vec3 wall_lo(kColumnEdges[0], 0.0, kRowEdges[0]), wall_hi(kColumnEdges[kGripperColumns], kGripperThickness, kRowEdges[kGripperRows]);
  const Vec3 wall_half = 0.5 * (wall_hi - wall_lo);
  const double jaw_mass = o.jaw_density * 8.0 * wall_half.prod();
  const int jaw = b.AddBody(kGripperBody, z, weld,
                            SpatialInertia::SolidBox(jaw_mass, wall_half).Transformed(SE3::FromTranslation(0.5 * (wall_lo + wall_hi))));
  for (int r = 0; r < kGripperRows; ++r) {
    for (int c = 0; c < kGripperColumns; ++c) {
      const Vec3 lo(kColumnEdges[c], 0.0, kRowEdges[r]), hi(kColumnEdges[c + 1], kGripperThickness, kRowEdges[r + 1]);
      b.AddCollider(jaw, BoxHull(lo, hi), SE3(), std::string(kGripperBlockPrefix) + std::to_string(r) + std::to_string(c))
          .friction = o.friction;
    }
  }
  const char* axes[3] = {"x", "y", "z"};
  for (int k = 0; k < 3; ++k) {
    const int slide = b.scene().model.FindBody(std::string("gripper/") + axes[k]);
    AddPdDrive(b, slide, std::string("gripper_") + axes[k], o.kp, o.kd);
  }
  // The X: its frame at the crossing. Its mass: the bar along x and the two arms of the other.
  const Vec3 bar_y(kBarHalf.y(), kBarHalf.x(), kBarHalf.z());
  const Vec3 arm_half(kBarHalf.y(), 0.5 * (kBarHalf.x() - kBarHalf.y()), kBarHalf.z());
  const double density = o.object_density;
  SpatialInertia inertia = SpatialInertia::SolidBox(density * 8.0 * kBarHalf.prod(), kBarHalf);
  for (double side : {-1.0, 1.0}) {
    inertia = inertia + SpatialInertia::SolidBox(density * 8.0 * arm_half.prod(), arm_half)
                            .Transformed(SE3::FromTranslation(Vec3(0.0, side * (kBarHalf.y() + arm_half.y()), 0.0)));
  }
  const int x = b.AddFreeBody(kGripperObject, inertia, SE3::FromTranslation(Vec3(0.0, 0.0, ArmHeight())));
  b.AddCollider(x, BoxHull(-kBarHalf, kBarHalf), SE3(), "x_bar_x").friction = o.friction;
  b.AddCollider(x, BoxHull(-bar_y, bar_y), SE3(), "x_bar_y").friction = o.friction;
  b.AddCollider(kWorldBody, BoxHull(-kTableHalf, kTableHalf),
                SE3::FromTranslation(Vec3(0.0, kTableEdge - kTableHalf.y(), kTableHalf.z())), "table")
      .friction = o.friction;
  b.AddGround(o.friction);
  // The slides start at the script's start.
  for (int k = 0; k < 3; ++k) {
    const int slide = b.scene().model.FindBody(std::string("gripper/") + axes[k]);
    b.SetDefaultJointPosition(slide, VecX::Constant(1, w.start[k]));
  }
  return b.Build();
}

}  // namespace arena
