#include "experiments/convex_bundles.h"

#include "core/scene/scene_builder.h"
#include "experiments/table_stats.h"
#include "harness/result_table.h"

namespace arena {

namespace {
constexpr double kFriction = 0.6;
}

std::shared_ptr<const Scene> ConvexBundlesExperiment::MakeScene() const {
  SceneBuilder b("convex_bundles");
  b.SetGravity(Vec3(0.0, -9.81, 0.0));
  const int bundle = b.AddPlanarBody("bundle", 1.0, 0.2, Vec3(0.0, 1.5, -0.2));
  Eigen::Matrix<double, 3, 2> T;
  T << 0, 1, 2.5, -1, -2.5, -1;
  T.rowwise().normalize();
  b.AddCollider(bundle, MakePolygon2(T, VecX::Constant(3, 0.3)), SE3(), "triangle").friction = kFriction;
  b.AddCollider(bundle, Capsule2{0.15, 2.0}, SE3(), "bar").friction = kFriction;
  b.AddCollider(bundle, Disk2{0.15}, SE3::FromTranslation(Vec3(-2.0, 0.0, 0.0)), "left_ball").friction = kFriction;
  b.AddCollider(bundle, Disk2{0.15}, SE3::FromTranslation(Vec3(2.0, 0.0, 0.0)), "right_ball").friction = kFriction;
  const int rounded = b.AddPlanarBody("rounded_rhombus", 1.0, 0.2, Vec3(-1.8, 3.5, 0.75));
  Eigen::Matrix<double, 4, 2> R;
  R << 5, 1, -5, 1, 1, 5, 1, -5;
  R.rowwise().normalize();
  b.AddCollider(rounded, MakePaddedPolygon2(R, VecX::Constant(4, 0.3), 0.3), SE3(), "rhombus_plus_disk").friction =
      kFriction;
  b.AddGroundPlane2(kFriction);
  return b.Build();
}

State ConvexBundlesExperiment::InitialState() const {
  State s = DefaultState(*MakeScene());
  s.v[0] = -1.0;  // body 1 turns at -1 rad/s (its previous velocity in the paper's script)
  return s;
}

std::vector<ClaimResult> ConvexBundlesExperiment::Summarize(const ResultTable& table) const {
  std::vector<ClaimResult> out;
  const ResultTable silico = table.Filter("model", "silico");
  if (silico.num_rows() == 0) return out;
  ClaimResult r{"convex_bundles.penetration_free"};
  double worst = 0.0, failed = 0.0;
  for (int i = 0; i < silico.num_rows(); ++i) {
    worst = std::max(worst, silico.Number(i, "max_penetration_m"));
    failed = std::max(failed, silico.Number(i, "failed_steps"));
  }
  r.ours = worst;
  r.ours_text = "max penetration " + FormatValue(worst) + " m, " + FormatValue(failed) + " failed steps";
  out.push_back(r);
  return out;
}

}  // namespace arena
