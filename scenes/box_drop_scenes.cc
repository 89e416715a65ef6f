#include "scenes/box_drop_scenes.h"

#include <cmath>
#include <numbers>

#include "core/common/error.h"
#include "core/common/random.h"
#include "core/scene/scene_builder.h"

namespace arena {

namespace {

constexpr double kFriction = 0.2;   // paper: mu = 0.2
constexpr double kDropCubeHalf = 0.25;  // spatial variant: 0.5 m cube (our choice, see docs/deviations.md)

}  // namespace

std::shared_ptr<const Scene> BoxDropScene(const std::string& variant) {
  if (variant == "planar") {
    SceneBuilder b("box_drop_planar");
    b.SetGravity(Vec3(0.0, -9.81, 0.0));
    Eigen::Matrix<double, 5, 2> A;
    A << 1.0, 0.2, 0.0, 1.0, -1.0, -0.3, 0.0, -1.0, 0.8, -0.8;
    const int body = b.AddPlanarBody("polygon", 1.0, 0.2, Vec3(0.0, 1.0, 0.0));
    b.AddCollider(body, MakePolygon2(A, VecX::Constant(5, 0.4)), SE3(), "polygon").friction = kFriction;
    b.AddGroundPlane2(kFriction);
    return b.Build();
  }
  if (variant == "spatial") {
    SceneBuilder b("box_drop_spatial");
    b.SetGravity(Vec3(0.0, 0.0, -9.81));
    const Vec3 h = Vec3::Constant(kDropCubeHalf);
    const int body = b.AddFreeBody("cube", SpatialInertia::SolidBox(1.0, h), SE3::FromTranslation(Vec3(0, 0, 1)));
    b.AddCollider(body, Box{h}, SE3(), "cube").friction = kFriction;
    b.AddGround(kFriction);
    return b.Build();
  }
  throw InvalidArgument("box_drop: unknown variant '" + variant + "'; valid: planar, spatial");
}

State BoxDropInitialState(const std::string& variant, std::uint64_t seed) {
  Rng rng(seed);
  std::shared_ptr<const Scene> scene = BoxDropScene(variant);
  State s = DefaultState(*scene);
  if (variant == "planar") {
    const double y = Uniform(rng, std::sqrt(2.0) / 2.0, 1.5);
    const double theta = Uniform(rng, 0.0, 2.0 * std::numbers::pi);
    const Vec2 v_W(Uniform(rng, -1.0, 1.0), Uniform(rng, -2.0, 0.0));
    const double omega = Uniform(rng, -1.0, 1.0);
    s.q << 0.0, y, theta;
    // The planar joint's velocity is (omega, v) in the body frame: v_B = R(theta)^T v_W.
    const Vec2 v_B = Eigen::Rotation2Dd(-theta) * v_W;
    s.v << omega, v_B.x(), v_B.y();
  } else {
    const double z = Uniform(rng, std::sqrt(3.0) * kDropCubeHalf + 0.05, 1.5);
    // Uniform rotation (Shoemake): three uniforms to a unit quaternion.
    const double u1 = Uniform01(rng), u2 = Uniform01(rng), u3 = Uniform01(rng);
    const double a = std::sqrt(1.0 - u1), b = std::sqrt(u1);
    const Quat quat(a * std::sin(2 * std::numbers::pi * u2), a * std::cos(2 * std::numbers::pi * u2),
                    b * std::sin(2 * std::numbers::pi * u3), b * std::cos(2 * std::numbers::pi * u3));
    const Vec3 v_W(Uniform(rng, -1.0, 1.0), Uniform(rng, -1.0, 1.0), Uniform(rng, -2.0, 0.0));
    const Vec3 w_W(Uniform(rng, -1.0, 1.0), Uniform(rng, -1.0, 1.0), Uniform(rng, -1.0, 1.0));
    const Mat3 R = quat.normalized().toRotationMatrix();
    s.q << 0.0, 0.0, z, quat.w(), quat.x(), quat.y(), quat.z();
    // Free joint velocity is the body twist in the body frame.
    s.v << R.transpose() * w_W, R.transpose() * v_W;
  }
  return s;
}

}  // namespace arena
