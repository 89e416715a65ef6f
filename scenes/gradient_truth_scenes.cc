#include "scenes/gradient_truth_scenes.h"

#include "core/scene/scene_builder.h"

namespace arena {

namespace {

// A frictionless ball with restitution e, its centre at `centre`.
int AddBall(SceneBuilder& b, const std::string& name, double mass, double radius, double restitution,
            const Vec3& centre) {
  const int body = b.AddFreeBody(name, SpatialInertia::SolidSphere(mass, radius), SE3::FromTranslation(centre));
  Collider& c = b.AddCollider(body, Sphere{radius}, SE3(), name);
  c.friction = 0.0;
  c.restitution = restitution;
  return body;
}

}  // namespace

std::shared_ptr<const Scene> BallsOnALineScene(const BallsOnALineSpec& spec) {
  SceneBuilder b("balls_on_a_line");
  b.SetGravity(Vec3::Zero());
  AddBall(b, "ball_1", spec.m1, spec.r1, spec.restitution, Vec3(spec.x1, 0.0, 0.0));
  AddBall(b, "ball_2", spec.m2, spec.r2, spec.restitution, Vec3(spec.x2, 0.0, 0.0));
  return b.Build();
}

std::shared_ptr<const Scene> DiscsInAPlaneScene(const DiscsInAPlaneSpec& spec) {
  SceneBuilder b("discs_in_a_plane");
  b.SetGravity(Vec3::Zero());
  AddBall(b, "ball_1", spec.m1, spec.r1, spec.restitution, Vec3(spec.p1x, spec.p1y, 0.0));
  AddBall(b, "ball_2", spec.m2, spec.r2, spec.restitution, Vec3(spec.p2x, spec.p2y, 0.0));
  return b.Build();
}

std::shared_ptr<const Scene> BallDropScene(const BallDropSpec& spec) {
  SceneBuilder b("ball_drop");
  b.SetGravity(Vec3(0.0, 0.0, -spec.gravity));
  AddBall(b, "ball", spec.mass, spec.radius, spec.restitution, Vec3(0.0, 0.0, spec.radius + spec.clearance));
  Collider& ground = b.AddGround(0.0);
  ground.restitution = spec.restitution;
  return b.Build();
}

std::shared_ptr<const Scene> SlidingBoxScene(const SlidingBoxSpec& spec) {
  SceneBuilder b("sliding_box");
  b.SetGravity(Vec3(0.0, 0.0, -spec.gravity));
  const double h = spec.half_size;
  const int body = b.AddFreeBody("box", SpatialInertia::SolidBox(spec.mass, Vec3::Constant(h)),
                                 SE3::FromTranslation(Vec3(0.0, 0.0, h + spec.clearance)));
  b.AddCollider(body, Box{Vec3::Constant(h)}, SE3(), "box").friction = spec.friction;
  b.AddGround(spec.friction);
  return b.Build();
}

}  // namespace arena
