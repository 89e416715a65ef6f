// Builds scenes in code. Validates on Build().
//
//   SceneBuilder b("box_drop_spatial");
//   b.SetGravity({0, 0, -9.81});
//   int box = b.AddFreeBody("box", SpatialInertia::SolidBox(1.0, h), SE3::FromTranslation({0, 0, 1}));
//   b.AddCollider(box, Box{h}).friction = 0.2;
//   b.AddGround(0.2);
//   std::shared_ptr<const Scene> scene = b.Build();
#pragma once

#include <memory>
#include <string>

#include "core/scene/scene.h"

namespace arena {

class SceneBuilder {
 public:
  explicit SceneBuilder(std::string name);

  SceneBuilder& SetGravity(const Vec3& g);
  /// Any joint; returns the body index.
  int AddBody(const std::string& name, int parent, const JointModel& joint,
              const SpatialInertia& inertia);
  /// A body on a free joint to the world, initially at X_WB (stored in default_q).
  int AddFreeBody(const std::string& name, const SpatialInertia& inertia, const SE3& X_WB);
  /// A body on a planar joint to the world (moves in the world xy-plane, rotates about z),
  /// initially at (x, y, theta). Mass m and rotational inertia J about z, COM at the origin.
  int AddPlanarBody(const std::string& name, double mass, double inertia_z, const Vec3& xytheta);
  /// A collider on `body` (kWorldBody for fixed geometry) at X_BS; returns it for tweaks.
  Collider& AddCollider(int body, const Shape& shape, const SE3& X_BS = SE3(),
                        const std::string& name = "");
  /// The half-space z <= 0 (3D ground) and the half-plane y <= 0 (planar ground).
  Collider& AddGround(double friction = 0.5);
  Collider& AddGroundPlane2(double friction = 0.5);
  Actuator& AddActuator(const Actuator& actuator);
  DesignParameter& AddDesignParameter(const std::string& name, double value);
  void ExcludePair(int body_a, int body_b);
  /// Sets the default configuration of the joint of `body` (q block of that joint).
  void SetDefaultJointPosition(int body, const VecX& q_joint);

  /// Validates and returns the scene. Throws InvalidArgument naming the problem.
  std::shared_ptr<const Scene> Build();
  /// The scene under construction (for loaders that fill fields directly).
  Scene& scene() { return scene_; }

 private:
  Scene scene_;
};

}  // namespace arena
