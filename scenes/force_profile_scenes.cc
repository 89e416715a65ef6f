#include "scenes/force_profile_scenes.h"

#include "core/scene/scene_builder.h"

namespace arena {

std::shared_ptr<const Scene> ForceProbeScene() {
  SceneBuilder b("sphere_probe");
  b.SetGravity(Vec3::Zero());
  b.AddCollider(kWorldBody, Sphere{kForceProbeFixedRadius}, SE3(), "fixed").friction = 0.0;
  const int probe = b.AddFreeBody("probe", SpatialInertia::SolidSphere(kForceProbeMass, kForceProbeMovingRadius),
                                  SE3::FromTranslation(Vec3(0.0, 0.3, 0.0)));
  b.AddCollider(probe, Sphere{kForceProbeMovingRadius}, SE3(), "probe").friction = 0.0;
  return b.Build();
}

}  // namespace arena
