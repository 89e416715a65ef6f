// A joint's attachment point as convex weights of its parent hull's vertices (seed 003 Sec.
// III-B): non-negative, summing to one, reproducing the point, for points inside a box's mesh;
// none for a point outside.
#include "models/incremental_potential/attachment_weights.h"

#include <gtest/gtest.h>

#include "core/geometry/mesh.h"

namespace arena {
namespace attachment_weights_test {

ColliderMesh Box() {
  const TriangleMesh box = MakeBoxMesh(Vec3(0.5, 0.2, 0.1));
  ColliderMesh m;
  m.vertices = box.data->vertices;
  m.triangles = box.data->triangles;
  return m;
}

TEST(AttachmentWeights, ReproduceInsidePointsWithConvexWeights) {
  const ColliderMesh box = Box();
  for (const Vec3& a : {Vec3(0.5, 0.0, 0.0), Vec3(0.3, -0.1, 0.05), Vec3(0.0, 0.0, 0.0), Vec3(-0.5, 0.2, 0.1)}) {
    SCOPED_TRACE(a.transpose());
    const auto w = AttachmentWeights(box, a);
    ASSERT_FALSE(w.empty());
    double sum = 0.0;
    Vec3 p = Vec3::Zero();
    for (const auto& [row, weight] : w) {
      EXPECT_GE(weight, 0.0);
      sum += weight;
      p += weight * box.vertices.row(row).transpose();
    }
    EXPECT_NEAR(sum, 1.0, 1e-12);
    EXPECT_LT((p - a).norm(), 1e-12);
  }
}

TEST(AttachmentWeights, NoneOutside) { EXPECT_TRUE(AttachmentWeights(Box(), Vec3(0.6, 0.0, 0.0)).empty()); }

}  // namespace attachment_weights_test
}  // namespace arena
