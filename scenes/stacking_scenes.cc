#include "scenes/stacking_scenes.h"

#include "core/common/error.h"
#include "core/common/options.h"
#include "core/scene/scene_builder.h"

namespace arena {

namespace {

constexpr double kHalf = 0.25;     // block half-size (side 0.5 m)
constexpr double kFriction = 0.5;  // paper: mu = 0.5
constexpr double kPlanarInertia = 0.2;

}  // namespace

std::shared_ptr<const Scene> StackingScene(const std::string& variant, int config, double gap) {
  if (!(gap >= 0.0 && gap < kHalf)) {
    throw InvalidArgument("stacking: the start gap must be in [0, 0.25) m, got " + options_detail::FormatDouble(gap));
  }
  const double shift = 0.02 * (config + 1);
  if (variant == "planar") {
    SceneBuilder b("stacking_planar");
    b.SetGravity(Vec3(0.0, -9.81, 0.0));
    Eigen::Matrix<double, 4, 2> A;
    A << 1, 0, 0, 1, -1, 0, 0, -1;
    const Polygon2 square = MakePolygon2(A, VecX::Constant(4, kHalf));
    const int lower = b.AddPlanarBody("lower", 1.0, kPlanarInertia, Vec3(shift, kHalf + gap, 0.0));
    const int upper = b.AddPlanarBody("upper", 1.0, kPlanarInertia, Vec3(0.0, 3 * kHalf + 2 * gap, 0.0));
    b.AddCollider(lower, square, SE3(), "lower").friction = kFriction;
    b.AddCollider(upper, square, SE3(), "upper").friction = kFriction;
    b.AddGroundPlane2(kFriction);
    return b.Build();
  }
  if (variant == "spatial") {
    SceneBuilder b("stacking_spatial");
    b.SetGravity(Vec3(0.0, 0.0, -9.81));
    const Vec3 h = Vec3::Constant(kHalf);
    const auto inertia = SpatialInertia::SolidBox(1.0, h);
    const int lower = b.AddFreeBody("lower", inertia, SE3::FromTranslation(Vec3(shift, 0.0, kHalf + gap)));
    const int upper = b.AddFreeBody("upper", inertia, SE3::FromTranslation(Vec3(0.0, 0.0, 3 * kHalf + 2 * gap)));
    b.AddCollider(lower, Box{h}, SE3(), "lower").friction = kFriction;
    b.AddCollider(upper, Box{h}, SE3(), "upper").friction = kFriction;
    b.AddGround(kFriction);
    return b.Build();
  }
  throw InvalidArgument("stacking: unknown variant '" + variant + "'; valid: planar, spatial");
}

}  // namespace arena
