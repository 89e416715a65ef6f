// The random hull pair of potential_cost (seed 003 Figs. 7-8): every point a hull vertex, the
// hulls exactly `gap` apart, the same pair for the same seed, and clear errors for bad options.
#include "scenes/hull_pair_scenes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/common/error.h"

namespace arena {
namespace hull_pair_scenes_test {

const ConvexHullData& HullOf(const Scene& scene, int collider) {
  return *std::get<ConvexHull>(scene.colliders.at(collider).shape).data;
}

TEST(HullPairScene, EveryPointIsAVertexAndTheGapIsExact) {
  for (int v : {4, 10, 57, 200}) {
    for (double gap : {1e-3, 0.02}) {
      const auto scene = RandomHullPairScene({.vertices = v, .seed = 7, .radius = 0.2, .gap = gap});
      ASSERT_EQ(scene->colliders.size(), 2u);
      EXPECT_EQ(HullOf(*scene, 0).vertices.rows(), v);
      EXPECT_EQ(HullOf(*scene, 1).vertices.rows(), v);
      EXPECT_EQ(HullOf(*scene, 0).triangles.size(), static_cast<size_t>(2 * v - 4));
      EXPECT_NEAR(HullPairDistance(*scene), gap, 1e-12) << "V = " << v;
      EXPECT_EQ(scene->model.gravity().norm(), 0.0);
    }
  }
}

TEST(HullPairScene, SameSeedSamePairOtherSeedAnother) {
  const auto a = RandomHullPairScene({.vertices = 20, .seed = 3});
  const auto b = RandomHullPairScene({.vertices = 20, .seed = 3});
  const auto c = RandomHullPairScene({.vertices = 20, .seed = 4});
  EXPECT_EQ(HullOf(*a, 1).vertices, HullOf(*b, 1).vertices);
  EXPECT_NE(HullOf(*a, 1).vertices, HullOf(*c, 1).vertices);
}

TEST(HullPairScene, RejectsBadOptions) {
  using ::testing::HasSubstr;
  auto message = [](const HullPairSceneOptions& o) {
    try {
      RandomHullPairScene(o);
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_THAT(message({.vertices = 3}), HasSubstr("vertices"));
  EXPECT_THAT(message({.radius = 0.0}), HasSubstr("radius"));
  EXPECT_THAT(message({.gap = -1.0}), HasSubstr("gap"));
  EXPECT_THAT(message({.gap = std::nan("")}), HasSubstr("gap"));
}

}  // namespace hull_pair_scenes_test
}  // namespace arena
