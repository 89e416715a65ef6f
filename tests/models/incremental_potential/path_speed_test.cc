// The path speed bounds (models/incremental_potential/path_speed.h) hold along the true path q (+) alpha d: on a
// free box and a chain of every joint type (revolute, prismatic, ball, planar, a free joint
// below a link), for random steps with rotations beyond pi, no vertex moves farther between two
// samples of alpha than the bound allows; and on a two-link arm going from elbow-up to
// elbow-down, whose tip stays where it was while it moves far, the bound still covers its path.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/common/error.h"
#include "core/common/options.h"
#include "core/common/random.h"
#include "core/math/so3.h"
#include "core/multibody/configuration.h"
#include "core/multibody/data.h"
#include "core/multibody/kinematics.h"
#include "core/scene/scene_builder.h"
#include "models/incremental_potential/path_speed.h"

namespace arena {
namespace path_speed_test {

std::vector<PointsX3> WorldVertices(const Scene& scene, const std::vector<ColliderMesh>& meshes, const VecX& q) {
  MultibodyData data(scene.model);
  ForwardKinematics(scene.model, data, q);
  std::vector<PointsX3> out;
  for (const ColliderMesh& m : meshes) {
    PointsX3 w = m.vertices;
    if (m.body != kWorldBody) {
      for (Eigen::Index r = 0; r < w.rows(); ++r) w.row(r) = data.X_WB[m.body].Act(m.vertices.row(r).transpose()).transpose();
    }
    out.push_back(w);
  }
  return out;
}

// The largest ratio |x(a_k) - x(a_{k-1})| / ((a_k - a_{k-1}) bound) over samples and vertices.
double WorstRatio(const Scene& scene, const VecX& q, const VecX& d, int samples) {
  const std::vector<ColliderMesh> meshes = BuildColliderMeshes(scene, {});
  std::vector<VecX> bound;
  PathSpeedBounds(scene.model, meshes, q, d, &bound);
  double worst = 0.0;
  std::vector<PointsX3> prev = WorldVertices(scene, meshes, q);
  for (int k = 1; k <= samples; ++k) {
    const double h = 1.0 / samples;
    const std::vector<PointsX3> now = WorldVertices(scene, meshes, Integrate(scene.model, q, (k * h) * d));
    for (size_t m = 0; m < meshes.size(); ++m) {
      for (Eigen::Index r = 0; r < now[m].rows(); ++r) {
        const double moved = (now[m].row(r) - prev[m].row(r)).norm();
        if (moved > 1e-12) worst = std::max(worst, moved / (h * bound[m][r]));
      }
    }
    prev = now;
  }
  return worst;
}

std::shared_ptr<const Scene> EveryJoint() {
  SceneBuilder b("path_speed_every_joint");
  const int box = b.AddFreeBody("box", SpatialInertia::SolidBox(1.0, Vec3(0.2, 0.15, 0.1)), SE3::FromTranslation(Vec3(0.3, -0.2, 0.5)));
  b.AddCollider(box, Box{Vec3(0.2, 0.15, 0.1)}, SE3::FromTranslation(Vec3(0.1, 0.0, 0.05)));
  auto link = [&b](const std::string& name, int parent, JointType type, const Vec3& offset) {
    JointModel j;
    j.type = type;
    j.axis = Vec3(1.0, 2.0, -1.0).normalized();
    j.placement = SE3(ExpSO3(Vec3(0.1, -0.2, 0.3)), offset);
    const int body = b.AddBody(name, parent, j, SpatialInertia::SolidBox(0.3, Vec3(0.05, 0.05, 0.2)));
    b.AddCollider(body, Box{Vec3(0.05, 0.05, 0.2)}, SE3::FromTranslation(Vec3(0.0, 0.0, -0.2)));
    return body;
  };
  const int l1 = link("revolute", kWorldBody, JointType::kRevolute, Vec3(1.0, 0.0, 1.5));
  const int l2 = link("prismatic", l1, JointType::kPrismatic, Vec3(0.0, 0.1, -0.4));
  const int l3 = link("ball", l2, JointType::kBall, Vec3(0.05, 0.0, -0.3));
  const int l4 = link("planar", l3, JointType::kPlanar, Vec3(0.0, 0.0, -0.4));
  link("free", l4, JointType::kFree, Vec3(0.1, 0.1, -0.3));
  return b.Build();
}

TEST(PathSpeedBounds, HoldAlongRandomStepsOnEveryJointType) {
  const auto scene = EveryJoint();
  Rng rng(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  double worst = 0.0;
  for (int trial = 0; trial < 20; ++trial) {
    VecX dq(scene->nv()), d(scene->nv());
    for (int i = 0; i < scene->nv(); ++i) {
      dq[i] = 0.5 * normal(rng);
      d[i] = (trial < 10 ? 0.3 : 2.0) * normal(rng);  // the later ones turn by more than pi
    }
    const VecX q = Integrate(scene->model, DefaultState(*scene).q, dq);
    worst = std::max(worst, WorstRatio(*scene, q, d, 400));
  }
  EXPECT_LE(worst, 1.0 + 1e-9);
  RecordProperty("worst_ratio", options_detail::FormatDouble(worst));  // how tight the bound is somewhere
}

// Relative to an ancestor's frame: on every body below each ancestor of the every-joint chain,
// no vertex moves in that ancestor's frame farther between two samples than the relative bound
// allows; the bound in a body's own frame is zero; it is far below the world bound where the
// ancestor swings the chain; a frame off the body's path is rejected.
TEST(PathSpeedBounds, RelativeBoundsHoldInEveryAncestorsFrame) {
  const auto scene = EveryJoint();
  const std::vector<ColliderMesh> meshes = BuildColliderMeshes(*scene, {});
  Rng rng(8);
  std::normal_distribution<double> normal(0.0, 1.0);
  double worst = 0.0;
  for (int trial = 0; trial < 10; ++trial) {
    VecX dq(scene->nv()), d(scene->nv());
    for (int i = 0; i < scene->nv(); ++i) {
      dq[i] = 0.5 * normal(rng);
      d[i] = (trial < 5 ? 0.3 : 2.0) * normal(rng);
    }
    const VecX q = Integrate(scene->model, DefaultState(*scene).q, dq);
    for (const ColliderMesh& mesh : meshes) {
      for (int frame = mesh.body; frame != kWorldBody; frame = scene->model.body(frame).parent) {
        VecX bound;
        RelativePathSpeedBound(scene->model, mesh, frame, q, d, &bound);
        if (frame == mesh.body) {
          EXPECT_EQ(bound.cwiseAbs().maxCoeff(), 0.0);
          continue;
        }
        auto in_frame = [&](double alpha) {
          MultibodyData data(scene->model);
          ForwardKinematics(scene->model, data, Integrate(scene->model, q, alpha * d));
          const SE3 to_frame = data.X_WB[frame].Inverse() * data.X_WB[mesh.body];
          PointsX3 p = mesh.vertices;
          for (Eigen::Index r = 0; r < p.rows(); ++r) p.row(r) = to_frame.Act(mesh.vertices.row(r).transpose()).transpose();
          return p;
        };
        const int samples = 200;
        PointsX3 prev = in_frame(0.0);
        for (int k = 1; k <= samples; ++k) {
          const PointsX3 now = in_frame(static_cast<double>(k) / samples);
          for (Eigen::Index r = 0; r < now.rows(); ++r) {
            const double moved = (now.row(r) - prev.row(r)).norm();
            if (moved > 1e-12) worst = std::max(worst, moved * samples / bound[r]);
          }
          prev = now;
        }
      }
    }
  }
  EXPECT_LE(worst, 1.0 + 1e-9);
  // The last link relative to the one above it against the world: the chain's swing drops out.
  VecX d = VecX::Zero(scene->nv());
  const int revolute = scene->model.FindBody("revolute"), free = scene->model.FindBody("free");
  d[scene->model.body(revolute).idx_v] = 1.0;  // only the top joint turns
  const VecX q = DefaultState(*scene).q;
  std::vector<VecX> world;
  PathSpeedBounds(scene->model, meshes, q, d, &world);
  const ColliderMesh* last = nullptr;
  int index = 0;
  for (size_t m = 0; m < meshes.size(); ++m) {
    if (meshes[m].body == free) {
      last = &meshes[m];
      index = static_cast<int>(m);
    }
  }
  ASSERT_NE(last, nullptr);
  VecX relative;
  RelativePathSpeedBound(scene->model, *last, revolute, q, d, &relative);
  EXPECT_GT(world[index].minCoeff(), 0.1);
  EXPECT_EQ(relative.cwiseAbs().maxCoeff(), 0.0);
  EXPECT_THROW(RelativePathSpeedBound(scene->model, *last, scene->model.FindBody("box"), q, d, &relative), InvalidArgument);
}

TEST(PathSpeedBounds, CoverATipThatReturnsToItsStart) {
  // Two links of length 1 from the world; elbow-up (theta1 = phi, theta2 = -2 phi) to
  // elbow-down (theta1 = -phi, theta2 = 2 phi) puts the tip at the same point.
  SceneBuilder b("two_link_arm");
  JointModel j;
  j.type = JointType::kRevolute;
  j.axis = Vec3::UnitY();
  const int l1 = b.AddBody("l1", kWorldBody, j, SpatialInertia::SolidBox(1.0, Vec3(0.5, 0.05, 0.05)));
  j.placement = SE3::FromTranslation(Vec3(1.0, 0.0, 0.0));
  const int l2 = b.AddBody("l2", l1, j, SpatialInertia::SolidBox(1.0, Vec3(0.5, 0.05, 0.05)));
  b.AddCollider(l2, Box{Vec3(0.01, 0.01, 0.01)}, SE3::FromTranslation(Vec3(1.0, 0.0, 0.0)));  // the tip
  const auto scene = b.Build();
  const double phi = 0.6;
  VecX q(2), d(2);
  q << phi, -2 * phi;
  d << -2 * phi, 4 * phi;
  const std::vector<ColliderMesh> meshes = BuildColliderMeshes(*scene, {});
  const auto x0 = WorldVertices(*scene, meshes, q), x1 = WorldVertices(*scene, meshes, Integrate(scene->model, q, d));
  // The tip box's vertices (1 cm from the tip) barely move from end to end, but far between.
  const auto mid = WorldVertices(*scene, meshes, Integrate(scene->model, q, 0.5 * d));
  const double chord = (x1[0] - x0[0]).rowwise().norm().maxCoeff();
  const double midway = (mid[0] - x0[0]).rowwise().norm().minCoeff();
  EXPECT_LT(chord, 0.03);
  EXPECT_GT(midway, 0.3);
  EXPECT_GT(midway, std::numbers::pi / 2 * chord);  // beyond any chord inflation
  EXPECT_LE(WorstRatio(*scene, q, d, 400), 1.0 + 1e-9);
}

}  // namespace path_speed_test
}  // namespace arena
