// Scenes and a factory shared by the nimble tests: Y-up like Nimble's own.
#pragma once

#include <memory>

#include "core/common/options.h"
#include "core/scene/scene_builder.h"
#include "models/registry.h"

namespace arena::nimble_test {

inline constexpr double kG = 9.81;
inline constexpr double kSink = 1e-4;

// A 0.4 x 0.2 x 0.4 m, 2 kg box 0.1 mm into a fixed ground box (top at y = 0), Y up, friction
// mu. (Touching at exactly zero depth is no contact; Nimble drops contacts of depth <= 0 too.)
inline std::shared_ptr<const Scene> BoxOnGround(double mu) {
  SceneBuilder b("box_on_ground");
  b.SetGravity(Vec3(0.0, -kG, 0.0));
  const Vec3 h(0.2, 0.1, 0.2);
  const int box = b.AddFreeBody("box", SpatialInertia::SolidBox(2.0, h), SE3::FromTranslation(Vec3(0, h.y() - kSink, 0)));
  b.AddCollider(box, Box{h}, SE3(), "box").friction = mu;
  b.AddCollider(kWorldBody, Box{Vec3(10.0, 0.05, 10.0)}, SE3::FromTranslation(Vec3(0, -0.05, 0)), "ground")
      .friction = mu;
  return b.Build();
}

inline std::unique_ptr<Simulator> MakeNimble(std::shared_ptr<const Scene> scene, OptionMap options = {}) {
  if (options.count("timestep") == 0) options["timestep"] = "0.001";
  return MakeSimulator("nimble", std::move(scene), options);
}

}  // namespace arena::nimble_test
