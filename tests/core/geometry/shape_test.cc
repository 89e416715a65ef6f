#include "core/geometry/shape.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/common/error.h"

namespace arena {
namespace shape_test {

Eigen::Matrix<double, Eigen::Dynamic, 2> SquareNormals() {
  Eigen::Matrix<double, Eigen::Dynamic, 2> A(4, 2);
  A << 1, 0, -1, 0, 0, 1, 0, -1;
  return A;
}

TEST(MakePaddedPolygon2, KeepsTheCoreAndStoresTheRadius) {
  const VecX b = VecX::Constant(4, 0.5);
  const Polygon2 plain = MakePolygon2(SquareNormals(), b);
  EXPECT_EQ(plain.radius, 0.0);
  const Polygon2 padded = MakePaddedPolygon2(SquareNormals(), b, 0.2);
  EXPECT_EQ(padded.radius, 0.2);
  // The cached vertices are the core polygon's, not the padded outline's.
  EXPECT_EQ(padded.vertices, plain.vertices);
  EXPECT_EQ(padded.A, plain.A);
  EXPECT_EQ(padded.b, plain.b);
  EXPECT_EQ(MakePaddedPolygon2(SquareNormals(), b, 0.0).radius, 0.0);
}

TEST(MakePaddedPolygon2, RejectsNegativeOrNonFiniteRadiusAndBadCores) {
  const VecX b = VecX::Constant(4, 0.5);
  EXPECT_THROW(MakePaddedPolygon2(SquareNormals(), b, -1e-9), InvalidArgument);
  EXPECT_THROW(MakePaddedPolygon2(SquareNormals(), b, std::nan("")), InvalidArgument);
  EXPECT_THROW(
      MakePaddedPolygon2(SquareNormals(), b, std::numeric_limits<double>::infinity()),
      InvalidArgument);
  // The core's own checks still apply (origin outside).
  VecX bad = b;
  bad[1] = -0.1;
  EXPECT_THROW(MakePaddedPolygon2(SquareNormals(), bad, 0.1), InvalidArgument);
}

}  // namespace shape_test
}  // namespace arena
