#include "scenes/longrange_scenes.h"

#include <numbers>

#include "core/common/error.h"
#include "core/scene/scene_builder.h"

namespace arena {

std::shared_ptr<const Scene> BookStackScene(const BookStackOptions& o) {
  if (o.planks < 1 || o.planks > 1000) throw InvalidArgument("book stack: planks must be in [1, 1000]");
  if (!(o.shift >= 0.0 && o.shift < 0.5)) throw InvalidArgument("book stack: shift must be in [0, 0.5)");
  if (!(o.gap >= 0.0 && o.gap < 1.0)) throw InvalidArgument("book stack: gap must be in [0, 1) m");
  const Vec3 h(1.0, 0.2, 0.1);  // half extents: 2.0 x 0.4 x 0.2 m
  const double L = 2.0 * h.x(), mass = 0.16;
  SceneBuilder b("book_stack");
  b.SetGravity(Vec3(0.0, 0.0, -9.81));
  double x = 0.0, z = h.z() + o.gap;
  for (int i = 0; i < o.planks; ++i) {
    if (i > 0) {
      const int from_top = o.planks - i;  // the overhang of plank i over plank i - 1: L / (2 k)
      x += L / (2.0 * from_top) - o.shift * L;
      z += 2.0 * h.z() + o.gap;
    }
    const int plank = b.AddFreeBody("plank" + std::to_string(i), SpatialInertia::SolidBox(mass, h),
                                    SE3::FromTranslation(Vec3(x, 0.0, z)));
    b.AddCollider(plank, Box{h}, SE3(), "plank" + std::to_string(i)).friction = 0.5;
  }
  b.AddGround(0.5);
  return b.Build();
}

std::shared_ptr<const Scene> BilliardsScene(double gap) {
  const double r = 0.5, rho = 0.55;  // ball radius; the layout parameter (1.1 rho = 0.605 = r + 0.105)
  const double mass = 4.0 / 3.0 * std::numbers::pi * r * r * r;  // density 1
  SceneBuilder b("billiards");
  b.SetGravity(Vec3(0.0, 0.0, -9.81));
  auto ball = [&](const std::string& name, double x, double y) {
    const int body = b.AddFreeBody(name, SpatialInertia::SolidSphere(mass, r), SE3::FromTranslation(Vec3(x, y, r + gap)));
    b.AddCollider(body, Sphere{r}, SE3(), name).friction = 0.2;
  };
  int n = 0;
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j <= i; ++j) ball("ball" + std::to_string(n++), 1.1 * rho * (4 - i) + 2.2 * rho * j, -1.6 * rho * i);
  }
  ball("cue", 4.4 * rho, 4.4 * rho);
  b.AddGround(0.2);
  return b.Build();
}

std::shared_ptr<const Scene> BallPairScene(double gap) {
  const double r = 0.5, mass = 4.0 / 3.0 * std::numbers::pi * r * r * r;  // billiards' balls
  SceneBuilder b("ball_pair");
  b.SetGravity(Vec3(0.0, 0.0, -9.81));
  for (int k = 0; k < 2; ++k) {
    const std::string name = k == 0 ? "left" : "right";
    const double x = (k == 0 ? -1.0 : 1.0) * (r + 0.5 * gap);
    const int body = b.AddFreeBody(name, SpatialInertia::SolidSphere(mass, r), SE3::FromTranslation(Vec3(x, 0.0, r + gap)));
    b.AddCollider(body, Sphere{r}, SE3(), name).friction = 0.2;
  }
  b.AddGround(0.2);
  return b.Build();
}

}  // namespace arena
