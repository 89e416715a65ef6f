// Scenes shared by the ipc model's tests: two boxes over the ground, posed so that every kind
// of IPC pair is active at once (a corner of box A 0.4 mm above the ground: point-triangle;
// box B lying edge-down 0.6 mm above A's top face: B's two lowest vertices against A's
// triangles, the other direction, and B's lowest edge crossing A's top-face diagonal:
// edge-edge), each closest feature well inside its region.
#pragma once

#include <memory>

#include <Eigen/Geometry>

#include "core/multibody/data.h"
#include "core/multibody/kinematics.h"
#include "core/scene/scene_builder.h"

namespace arena::ipc_testing {

inline constexpr double kHalfA = 0.2;    // m
inline constexpr double kHalfB = 0.1;    // m
inline constexpr double kGapA = 4e-4;    // m: A's lowest corner above the ground
inline constexpr double kGapB = 6e-4;    // m: B's lowest edge above A's top face

inline Mat3 TiltA() {
  return (Eigen::AngleAxisd(0.3, Vec3::UnitX()) * Eigen::AngleAxisd(0.2, Vec3::UnitY())).toRotationMatrix();
}

/// A's pose (its lowest corner kGapA above z = 0) and B's (edge-down on A's top face).
inline SE3 PoseA() {
  const Mat3 R = TiltA();
  double lowest = 0.0;
  for (int i = 0; i < 8; ++i) {
    const Vec3 c(i & 1 ? kHalfA : -kHalfA, i & 2 ? kHalfA : -kHalfA, i & 4 ? kHalfA : -kHalfA);
    lowest = std::min(lowest, (R * c).z());
  }
  return SE3(R, Vec3(0.0, 0.0, -lowest + kGapA));
}
inline SE3 PoseB() {
  // In A's frame: yawed 0.3 rad and turned 45 degrees about x, so its edge y = z = -h (along
  // x, vertices 0 and 1) is lowest, sqrt(2) h below its centre.
  const Mat3 R = (Eigen::AngleAxisd(0.3, Vec3::UnitZ()) * Eigen::AngleAxisd(M_PI / 4, Vec3::UnitX())).toRotationMatrix();
  const Vec3 c(0.02, 0.03, kHalfA + std::sqrt(2.0) * kHalfB + kGapB);
  return PoseA() * SE3(R, c);
}

/// Ground, box A (1 kg, mu 0.5) and box B (0.5 kg, mu 0.3) on free joints at PoseA / PoseB
/// (without B: A alone on its corner).
inline std::shared_ptr<const Scene> TwoBoxesScene(bool with_b = true) {
  SceneBuilder b(with_b ? "ipc_two_boxes" : "ipc_box_on_corner");
  b.SetGravity(Vec3(0.0, 0.0, -9.81));
  const int a = b.AddFreeBody("a", SpatialInertia::SolidBox(1.0, Vec3::Constant(kHalfA)), PoseA());
  b.AddCollider(a, Box{Vec3::Constant(kHalfA)}, SE3(), "a").friction = 0.5;
  if (with_b) {
    const int c = b.AddFreeBody("b", SpatialInertia::SolidBox(0.5, Vec3::Constant(kHalfB)), PoseB());
    b.AddCollider(c, Box{Vec3::Constant(kHalfB)}, SE3(), "b").friction = 0.3;
  }
  b.AddGround(0.8);
  return b.Build();
}

/// The bodies' world poses at q.
inline std::vector<SE3> BodyPoses(const Scene& scene, const VecX& q) {
  MultibodyData data(scene.model);
  ForwardKinematics(scene.model, data, q);
  return data.X_WB;
}

}  // namespace arena::ipc_testing
