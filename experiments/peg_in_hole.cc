#include "experiments/peg_in_hole.h"

#include "core/scene/scene_builder.h"
#include "experiments/table_stats.h"
#include "harness/result_table.h"

namespace arena {

std::shared_ptr<const Scene> PegInHoleExperiment::MakeScene() const {
  SceneBuilder b("peg_in_hole");
  b.SetGravity(Vec3(0.0, -9.81, 0.0));
  Eigen::Matrix<double, 6, 2> A;
  A << 1, 0, 0, 1, -1, 0, 0, -1, 1, -0.2, -1, -0.2;
  A.rowwise().normalize();
  VecX bb(6);
  bb << 1, 3, 1, 1, 0.9, 0.9;
  bb *= 0.249;
  const int peg = b.AddPlanarBody("peg", 1.0, 0.2, Vec3(0.0, 1.5, 0.3));
  b.AddCollider(peg, MakePolygon2(A, bb), SE3(), "peg").friction = 0.03;
  Eigen::Matrix<double, 4, 2> W;
  W << 1, 0, 0, 1, -1, 0, 0, -1;
  VecX wb(4);
  wb << 0.25, 0.5, 0.25, 0.5;
  const Polygon2 wall = MakePolygon2(W, wb);
  b.AddCollider(kWorldBody, wall, SE3::FromTranslation(Vec3(-0.5, 0.5, 0.0)), "left_wall").friction = 0.03;
  b.AddCollider(kWorldBody, wall, SE3::FromTranslation(Vec3(0.5, 0.5, 0.0)), "right_wall").friction = 0.03;
  b.AddGroundPlane2(0.03);
  return b.Build();
}

State PegInHoleExperiment::InitialState() const { return DefaultState(*MakeScene()); }

std::vector<ClaimResult> PegInHoleExperiment::Summarize(const ResultTable& table) const {
  std::vector<ClaimResult> out;
  const ResultTable silico = table.Filter("model", "silico");
  if (silico.num_rows() == 0) return out;
  // The final snapshot of the (first) silico rollout.
  int last = 0;
  for (int i = 0; i < silico.num_rows(); ++i) {
    if (silico.Number(i, "frame") >= silico.Number(last, "frame")) last = i;
  }
  ClaimResult r{"peg_in_hole.contact_points"};
  r.ours = silico.Number(last, "contacts_geometric");
  const double reported = silico.Number(last, "contacts_reported");
  const double penetration = silico.Number(last, "max_penetration_m");
  r.note = "final frame: " + FormatValue(r.ours) + " pairs within 1 mm, " + FormatValue(reported) +
           " reported active by silico; max penetration " + FormatValue(penetration) + " m; failed steps " +
           silico.Text(last, "failed_steps");
  r.values["max_penetration_m"] = penetration;
  out.push_back(r);
  return out;
}

}  // namespace arena
