// The scene arguments of `arena inspect` and `arena gradcheck` (harness/scene_arguments.h).
#include "harness/scene_arguments.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/common/error.h"

namespace arena {
namespace scene_arguments_test {

using ::testing::HasSubstr;

std::string ErrorOf(const SceneArguments& args, std::map<std::string, std::string>* rest = nullptr) {
  try {
    ParseSceneArguments("inspect", args, rest);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected InvalidArgument";
  return "";
}

TEST(SceneArgumentsTest, EveryArgumentReachesTheOptions) {
  SceneArguments args;
  args.packages = {"herb=/opt/herb", "robot=/opt/robot"};
  args.excludes = {"a:b", "world:c"};
  args.srdf = "arm.srdf";
  args.sets = {"self_collision=false"};
  const SceneLoadOptions o = ParseSceneArguments("inspect", args);
  EXPECT_EQ(o.packages.folders.at("herb"), "/opt/herb");
  EXPECT_EQ(o.packages.folders.size(), 2u);
  EXPECT_FALSE(o.packages.ros_package_path.has_value());  // the environment's
  ASSERT_EQ(o.excluded_pairs.size(), 2u);
  EXPECT_EQ(o.excluded_pairs[1].first, "world");
  EXPECT_EQ(o.srdf, "arm.srdf");
  EXPECT_EQ(o.self_collision, false);
  EXPECT_TRUE(ParseSceneArguments("inspect", {}).IsDefault());
}

// gradcheck: scene keys are taken, the rest are the model's options.
TEST(SceneArgumentsTest, OtherSetKeysGoToTheModel) {
  SceneArguments args;
  args.sets = {"rho=1e-3", "self_collision=0", "timestep=0.01"};
  std::map<std::string, std::string> model;
  const SceneLoadOptions o = ParseSceneArguments("gradcheck", args, &model);
  EXPECT_EQ(o.self_collision, false);
  EXPECT_EQ(model, (std::map<std::string, std::string>{{"rho", "1e-3"}, {"timestep", "0.01"}}));
}

TEST(SceneArgumentsTest, BadArgumentsSayWhatToGive) {
  SceneArguments args;
  args.sets = {"rho=1e-3"};
  EXPECT_EQ(ErrorOf(args), "inspect: --set rho=1e-3: unknown scene key 'rho'; valid: self_collision, skip_default_overlaps");
  args.sets = {"self_collision"};
  EXPECT_EQ(ErrorOf(args), "inspect: --set expects key=value, got 'self_collision'");
  args.sets = {"self_collision=perhaps"};
  EXPECT_THAT(ErrorOf(args), HasSubstr("inspect: --set self_collision=perhaps: option 'self_collision': "
                                       "'perhaps' is not true/false"));
  args.sets = {};
  args.excludes = {"a-b"};
  EXPECT_THAT(ErrorOf(args), HasSubstr("inspect: excluded pair 'a-b': expected BODY_A:BODY_B"));
  args.excludes = {};
  args.packages = {"herb"};
  EXPECT_THAT(ErrorOf(args), HasSubstr("inspect: package mapping 'herb': expected NAME=DIR"));
  args.packages = {"herb=/a", "herb=/b"};
  EXPECT_THAT(ErrorOf(args), HasSubstr("package 'herb' is mapped twice: to /a and to /b"));
}

}  // namespace scene_arguments_test
}  // namespace arena
