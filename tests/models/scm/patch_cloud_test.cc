// The oriented point clouds of `scm` (seed 001 Sec. III-B): patches tile each face (so their
// boundaries fall on the real edges), are at most `spacing` across, sit on the surface with unit
// outward normals; a half-space is one plane patch; unsupported shapes and spacings are errors.
#include "models/scm/patch_cloud.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

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

// Every capsule patch is on the surface (at the radius from the axis segment) with the outward
// normal from the segment's nearest point; the caps and the side meet at the ends' equators.
TEST(PatchCloud, CapsulePatchesLieOnItsSurface) {
  const double r = 0.05, h = 0.2, spacing = 0.02;
  const PatchCloud c = MakePatchCloud(Capsule{r, h}, spacing);
  int caps = 0;
  for (int i = 0; i < c.patches.points.rows(); ++i) {
    const Vec3 p = c.patches.points.row(i).transpose(), n = c.patches.normals.row(i).transpose();
    const Vec3 axis(0.0, 0.0, std::clamp(p.z(), -h, h));
    EXPECT_NEAR((p - axis).norm(), r, 1e-14);
    EXPECT_LT((n - (p - axis) / r).norm(), 1e-12);
    if (std::abs(p.z()) > h) ++caps;
  }
  const int n = 2 * static_cast<int>(std::ceil(std::ceil(0.5 * M_PI * r / spacing) / 2));  // even
  EXPECT_EQ(caps, 6 * n * n);
  EXPECT_EQ(c.patches.points.rows() - caps, static_cast<int>(std::ceil(2 * M_PI * r / spacing) * std::ceil(2 * h / spacing)));
}

// A cylinder: the side at the radius with radial normals, the discs flat at +-h with axial
// normals and every patch centre inside the disc.
TEST(PatchCloud, CylinderPatchesLieOnItsSideAndDiscs) {
  const double r = 0.1, h = 0.05, spacing = 0.03;
  const PatchCloud c = MakePatchCloud(Cylinder{r, h}, spacing);
  int top = 0, bottom = 0;
  for (int i = 0; i < c.patches.points.rows(); ++i) {
    const Vec3 p = c.patches.points.row(i).transpose(), n = c.patches.normals.row(i).transpose();
    const double radial = std::hypot(p.x(), p.y());
    if (n.z() != 0.0) {
      EXPECT_EQ(std::abs(p.z()), h);
      EXPECT_EQ(n.z(), p.z() > 0 ? 1.0 : -1.0);
      EXPECT_LT(radial, r);
      (n.z() > 0 ? top : bottom)++;
    } else {
      EXPECT_NEAR(radial, r, 1e-14);
      EXPECT_LT((n - Vec3(p.x(), p.y(), 0.0) / r).norm(), 1e-12);
      EXPECT_LT(std::abs(p.z()), h);
    }
  }
  EXPECT_EQ(top, bottom);
  EXPECT_GT(top, 10);  // 4 rings of sectors at most 3 cm across over a 10 cm disc
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
    MakePatchCloud(Ellipsoid{Vec3(0.1, 0.2, 0.3)}, 0.1);
    FAIL() << "an ellipsoid has no patch cloud";
  } catch (const Unsupported& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("ellipsoid"));
  }
}

}  // namespace
}  // namespace arena::scm
