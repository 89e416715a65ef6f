#include "scenes/hull_pair_scenes.h"

#include <cmath>
#include <string>

#include "core/common/error.h"
#include "core/common/random.h"
#include "core/geometry/convex_hull.h"
#include "core/geometry/gjk.h"
#include "core/multibody/data.h"
#include "core/multibody/kinematics.h"
#include "core/scene/scene_builder.h"

namespace arena {

namespace {

// `n` points uniform on the sphere of `radius`: normalized standard normal triples.
PointsX3 SpherePoints(int n, double radius, Rng& rng) {
  PointsX3 p(n, 3);
  for (int i = 0; i < n; ++i) {
    Vec3 x;
    do {
      x = Vec3(StandardNormal(rng), StandardNormal(rng), StandardNormal(rng));
    } while (x.norm() < 1e-6);
    p.row(i) = radius * x.normalized().transpose();
  }
  return p;
}

// The offset s along +x of b from a at which the hulls are `gap` apart. dist(a, b + s e) is
// convex in s and at most 0 for s = 0 (both hulls contain the origin, or nearly), and at least
// s - 2 radius: bisection finds the crossing to round-off.
double OffsetForGap(const Shape& a, const Shape& b, double radius, double gap) {
  auto distance = [&](double s) { return GjkDistance(a, SE3(), b, SE3::FromTranslation(Vec3(s, 0.0, 0.0))).distance; };
  double lo = 0.0, hi = 2.0 * radius + gap;
  for (int k = 0; k < 200 && hi - lo > 1e-15 * hi; ++k) {
    const double mid = 0.5 * (lo + hi);
    (distance(mid) < gap ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace

std::shared_ptr<const Scene> RandomHullPairScene(const HullPairSceneOptions& o) {
  if (o.vertices < 4) throw InvalidArgument("hull pair scene: vertices must be >= 4, got " + std::to_string(o.vertices));
  if (!(o.radius > 0.0 && std::isfinite(o.radius))) throw InvalidArgument("hull pair scene: radius must be finite and > 0");
  if (!(o.gap > 0.0 && std::isfinite(o.gap))) throw InvalidArgument("hull pair scene: gap must be finite and > 0");
  Rng rng(o.seed);
  const ConvexHull a = MakeConvexHull(SpherePoints(o.vertices, o.radius, rng));
  const ConvexHull b = MakeConvexHull(SpherePoints(o.vertices, o.radius, rng));
  const double offset = OffsetForGap(a, b, o.radius, o.gap);
  SceneBuilder builder("hull_pair");
  builder.SetGravity(Vec3::Zero());
  const SpatialInertia inertia = SpatialInertia::SolidSphere(1.0, o.radius);
  const int body_a = builder.AddFreeBody("a", inertia, SE3());
  const int body_b = builder.AddFreeBody("b", inertia, SE3::FromTranslation(Vec3(offset, 0.0, 0.0)));
  builder.AddCollider(body_a, a, SE3(), "a").friction = 0.0;
  builder.AddCollider(body_b, b, SE3(), "b").friction = 0.0;
  return builder.Build();
}

double HullPairDistance(const Scene& scene) {
  if (scene.colliders.size() != 2) throw InvalidArgument("hull pair distance: the scene must have two colliders");
  MultibodyData data(scene.model);
  ForwardKinematics(scene.model, data, DefaultState(scene).q);
  auto pose = [&](const Collider& c) { return data.X_WB[c.body] * c.placement; };
  const Collider &a = scene.colliders[0], &b = scene.colliders[1];
  return GjkDistance(a.shape, pose(a), b.shape, pose(b)).distance;
}

}  // namespace arena
