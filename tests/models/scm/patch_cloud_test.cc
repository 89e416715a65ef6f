// The oriented point clouds of `scm` (seed 001 Sec. III-B): patches tile each face (so their
// boundaries fall on the real edges), are at most `spacing` across, sit on the surface with unit
// outward normals; a half-space is one plane patch; unsupported shapes and spacings are errors.
#include "models/scm/patch_cloud.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/common/error.h"
#include "core/geometry/convex_hull.h"
#include "core/geometry/mesh.h"

namespace arena::scm {
namespace {

TEST(PatchCloud, BoxFacesAreGridsOfAtMostTheSpacing) {
  const Vec3 h(0.1, 0.2, 0.3);
  const PatchCloud c = MakePatchCloud(Box{h}, 0.1);
  // x faces 4 x 6, y faces 6 x 2, z faces 2 x 4, each twice.
  EXPECT_EQ(c.patches.points.rows(), 2 * (24 + 12 + 8));
  EXPECT_FALSE(c.plane);
  for (int i = 0; i < c.patches.points.rows(); ++i) {
    const Vec3 p = c.patches.points.row(i).transpose(), n = c.patches.normals.row(i).transpose();
    EXPECT_NEAR(n.norm(), 1.0, 1e-15);
    Eigen::Index axis = 0;
    n.cwiseAbs().maxCoeff(&axis);
    EXPECT_EQ(n.cwiseAbs().sum(), 1.0) << "a face normal";
    EXPECT_NEAR(p[axis] * n[axis], h[axis], 1e-15) << "on its face, normal outward";
    // Centres of a regular grid: half a cell from the face's edges at the border.
    for (int k = 0; k < 3; ++k) {
      if (k != axis) {
        EXPECT_LE(std::abs(p[k]), h[k] - 0.5 * 2 * h[k] / std::ceil(2 * h[k] / 0.1) + 1e-12);
      }
    }
  }
}

TEST(PatchCloud, SpherePatchesAreOnTheSphereWithRadialNormals) {
  const PatchCloud c = MakePatchCloud(Sphere{0.5}, 0.1);
  const int n = static_cast<int>(std::ceil(0.5 * M_PI * 0.5 / 0.1));
  EXPECT_EQ(c.patches.points.rows(), 6 * n * n);
  double nearest = 1e9;
  for (int i = 0; i < c.patches.points.rows(); ++i) {
    const Vec3 p = c.patches.points.row(i).transpose();
    EXPECT_NEAR(p.norm(), 0.5, 1e-14);
    EXPECT_LT((c.patches.normals.row(i).transpose() - p / 0.5).norm(), 1e-14);
    for (int j = 0; j < i; ++j) nearest = std::min(nearest, (p - c.patches.points.row(j).transpose()).norm());
  }
  // Equal-angle warping: neighbours no closer than 0.6 of the spacing (near-isotropic patches).
  EXPECT_GT(nearest, 0.6 * 0.5 * M_PI / 2 / n);
}

TEST(PatchCloud, HullAndMeshPatchesLieOnTheirFacets) {
  PointsX3 v(8, 3);
  for (int i = 0; i < 8; ++i) v.row(i) << (i & 1 ? 0.2 : -0.2), (i & 2 ? 0.1 : -0.1), (i & 4 ? 0.3 : -0.3);
  const ConvexHull hull = MakeConvexHull(v);
  const PatchCloud c = MakePatchCloud(hull, 0.05);
  EXPECT_GT(c.patches.points.rows(), 12);
  for (int i = 0; i < c.patches.points.rows(); ++i) {
    const Vec3 p = c.patches.points.row(i).transpose(), n = c.patches.normals.row(i).transpose();
    // On the box's surface: the largest scaled coordinate is 1, along the normal's axis.
    const Vec3 s = p.cwiseQuotient(Vec3(0.2, 0.1, 0.3));
    EXPECT_NEAR(s.cwiseAbs().maxCoeff(), 1.0, 1e-12);
    EXPECT_NEAR(n.dot(p.cwiseProduct(n.cwiseAbs())), n.cwiseAbs().dot(Vec3(0.2, 0.1, 0.3)), 1e-12);
  }
  const PatchCloud m = MakePatchCloud(MakeBoxMesh(Vec3(0.2, 0.1, 0.3)), 0.05);
  EXPECT_EQ(m.patches.points.rows(), c.patches.points.rows()) << "the same 12 triangles, split alike";
}

TEST(PatchCloud, HalfSpaceIsOnePlanePatch) {
  const PatchCloud c = MakePatchCloud(HalfSpace{}, 0.1);
  EXPECT_TRUE(c.plane);
  ASSERT_EQ(c.patches.points.rows(), 1);
  EXPECT_EQ(c.patches.normals.row(0).transpose(), Vec3::UnitZ());
}

TEST(PatchCloud, BadSpacingAndUnsupportedShapesAreClearErrors) {
  EXPECT_THROW(MakePatchCloud(Sphere{0.1}, 0.0), InvalidArgument);
  EXPECT_THROW(MakePatchCloud(Sphere{0.1}, std::nan("")), InvalidArgument);
  try {
    MakePatchCloud(Capsule{0.1, 0.2}, 0.1);
    FAIL() << "a capsule has no patch cloud";
  } catch (const Unsupported& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("capsule"));
  }
}

}  // namespace
}  // namespace arena::scm
