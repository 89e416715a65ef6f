// Runs the `arena` executable ($ARENA_BIN, else <build>/bin/arena next to this test's folder)
// and checks exit codes and messages.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "core/scene/loader.h"
#include "harness/compare.h"
#include "experiments/registry.h"
#include "experiments/tpush/tpush_pushes.h"
#include "models/registry.h"
#include "scenes/scene_registry.h"
#include "tests/harness/toy_experiment.h"
#include "tests/test_paths.h"

namespace arena {
namespace cli_test {

namespace fs = std::filesystem;
using testing::Contains;

struct Result {
  int status = -1;
  std::string out;
  std::string err;
};

std::string ArenaBin() {
  if (const char* bin = std::getenv("ARENA_BIN")) return bin;
  // <build>/tests/harness_tests -> <build>/bin/arena.
  return (fs::read_symlink("/proc/self/exe").parent_path().parent_path() / "bin/arena").string();
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(ArenaBin())) GTEST_SKIP() << "no arena executable at " << ArenaBin();
  }
  Result Arena(const std::string& args) {
    const std::string out = dir_ / "stdout", err = dir_ / "stderr";
    const std::string cmd = "'" + ArenaBin() + "' " + args + " >'" + out + "' 2>'" + err + "'";
    const int raw = std::system(cmd.c_str());
    Result r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.out = testing::ReadFile(out);
    r.err = testing::ReadFile(err);
    return r;
  }
  testing::ScratchDir dir_;
};

TEST_F(CliTest, ListNamesMatchesRegistry) {
  const Result r = Arena("list --names");
  EXPECT_EQ(r.status, 0) << r.err;
  std::string expected;
  for (const auto& e : Experiments()) expected += e->name() + "\n";
  EXPECT_EQ(r.out, expected);
  EXPECT_EQ(Arena("list").status, 0);
  EXPECT_EQ(Arena("models").status, 0);
}

// gradcheck's exit status: 0 within the tolerance, 1 above it, 2 for a model without
// derivatives.
TEST_F(CliTest, GradcheckExitStatus) {
  const Result pass = Arena("gradcheck --model penalty --scene half_cheetah --states 2");
  EXPECT_EQ(pass.status, 0) << pass.err;
  EXPECT_TRUE(Contains(pass.out, "PASS"));
  EXPECT_TRUE(Contains(pass.out, "dv+/dq"));
  const Result fail = Arena("gradcheck --model silico --scene polygon --states 1 --set rho=1e-3");
  EXPECT_EQ(fail.status, 1) << fail.err;
  EXPECT_TRUE(Contains(fail.out, "FAIL"));
  const Result bad = Arena("gradcheck --model bilevel --scene polygon");
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(Contains(bad.err, "offers no derivatives"));
}

TEST_F(CliTest, ListPlots) {
  if (Experiments().empty()) GTEST_SKIP();
  const Experiment& e = *Experiments().front();
  const Result r = Arena("list --plots " + e.name());
  EXPECT_EQ(r.status, 0) << r.err;
  std::string expected;
  for (const auto& p : e.plots()) expected += p + "\n";
  EXPECT_EQ(r.out, expected);
}

TEST_F(CliTest, UnknownExperimentIsBadInput) {
  const Result r = Arena("run no_such_experiment --out '" + dir_.path() + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Contains(r.err, "arena: error: unknown experiment 'no_such_experiment'; "
                              "registered experiments: "));
  for (const auto& e : Experiments()) EXPECT_TRUE(Contains(r.err, e->name()));
  EXPECT_EQ(Arena("list --plots no_such_experiment").status, 2);
}

TEST_F(CliTest, UnknownModelIsBadInput) {
  const Result r = Arena("models --options no_such_model");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Contains(r.err, "arena: error: unknown model 'no_such_model'; registered models: "));
  for (const auto& m : Models()) EXPECT_TRUE(Contains(r.err, m.name));
  if (!Models().empty()) {
    const Result o = Arena("models --options " + Models().front().name);
    EXPECT_EQ(o.status, 0) << o.err;
    EXPECT_TRUE(Contains(o.out, "timestep"));
  }
}

TEST_F(CliTest, BadCommandLineIsBadInput) {
  Result r = Arena("frobnicate");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Contains(r.err, "arena: error: "));
  r = Arena("run");
  EXPECT_EQ(r.status, 2);
  r = Arena("run x --threads -3");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(Arena("--help").status, 0);
  EXPECT_EQ(Arena("run --help").status, 0);
}

// `arena scenes` prints one line per registered scene (name, paper, description) under a
// header; --names only the names.
TEST_F(CliTest, ScenesListsTheRegistry) {
  const Result r = Arena("scenes");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "\natlas "));
  EXPECT_TRUE(Contains(r.out, "\nbox "));
  for (const SceneInfo& s : Scenes()) {
    EXPECT_TRUE(Contains(r.out, "\n" + s.name + " ")) << s.name;
    EXPECT_TRUE(Contains(r.out, s.description + "\n")) << s.name;
  }
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), static_cast<long>(Scenes().size()) + 1);
  const Result names = Arena("scenes --names");
  ASSERT_EQ(names.status, 0) << names.err;
  std::string expected;
  for (const SceneInfo& s : Scenes()) expected += s.name + "\n";
  EXPECT_EQ(names.out, expected);
}

// A registered name works where a scene file does, and an unknown one lists the registry.
// The commands experiments offer (Experiment::commands) are subcommands the CLI builds from the
// registry: tpush's planner writes five sequences the experiment can read back, and refuses a
// population below 2 as bad input (the command checks its own values).
TEST_F(CliTest, ExperimentCommandsAreSubcommands) {
  for (const auto& e : Experiments()) {
    for (const ExperimentCommand& c : e->commands()) {
      const Result help = Arena(c.name + " --help");
      EXPECT_EQ(help.status, 0) << c.name << ": " << help.err;
      for (const ExperimentCommand::Option& o : c.options) EXPECT_TRUE(Contains(help.out, "--" + o.key)) << c.name;
    }
  }
  const std::string csv = dir_.path() + "/pushes.csv";
  const Result r = Arena("plan-pushes --out '" + csv + "' --population 2 --iterations 1 --seed 3");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "wrote 5 sequences")) << r.out;
  EXPECT_EQ(ParsePushSequences(testing::ReadFile(csv), csv).size(), 5u);
  const Result bad = Arena("plan-pushes --out '" + csv + "' --population 1");
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(Contains(bad.err, "--population 1")) << bad.err;
}

TEST_F(CliTest, InspectTakesARegisteredScene) {
  const Result r = Arena("inspect catapult");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "scene catapult (builtin:catapult)"));
  EXPECT_TRUE(Contains(r.out, "nq 5, nv 5, nu 3"));
  const Result bad = Arena("inspect no_such_scene");
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(Contains(bad.err, "arena: error: scene 'no_such_scene' is neither a registered scene ("));
  EXPECT_TRUE(Contains(bad.err, "polygon"));
  const Result gradcheck = Arena("gradcheck --model penalty --scene no_such_scene");
  EXPECT_EQ(gradcheck.status, 2);
  EXPECT_TRUE(Contains(gradcheck.err, "'no_such_scene' is neither a registered scene"));
}

TEST_F(CliTest, InspectMissingFileIsBadInput) {
  const Result r = Arena("inspect '" + (dir_ / "missing.urdf") + "'");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(Contains(r.err, "arena: error: "));
  EXPECT_TRUE(Contains(r.err, "missing.urdf"));
}

TEST_F(CliTest, InspectUrdf) {
  testing::WriteFile(dir_ / "two.urdf", R"(<?xml version="1.0"?>
<robot name="two">
  <link name="base">
    <inertial><mass value="2"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="1 1 1"/></geometry></collision>
  </link>
  <link name="arm">
    <inertial><mass value="0.5"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><sphere radius="0.1"/></geometry></collision>
  </link>
  <joint name="hinge" type="revolute">
    <parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="10" velocity="1"/>
  </joint>
</robot>
)");
  const Result r = Arena("inspect '" + (dir_ / "two.urdf") + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "nq "));
  EXPECT_TRUE(Contains(r.out, "arm"));
  EXPECT_TRUE(Contains(r.out, "revolute"));
  EXPECT_TRUE(Contains(r.out, "sphere"));
  EXPECT_TRUE(Contains(r.out, "colliders (2)"));
}

// Physically invalid robot files: exit 2 naming the file, the element and the problem (the
// rules are Scene::Check's, tested in tests/core/scene/).
TEST_F(CliTest, InspectRejectsInvalidRobotFiles) {
  const auto urdf = [](const std::string& inertia, const std::string& geometry) {
    return "<robot name='r'><link name='base'><inertial><mass value='1'/><inertia " + inertia +
           "/></inertial><collision><geometry>" + geometry + "</geometry></collision></link></robot>";
  };
  const std::string unit = "ixx='0.1' iyy='0.1' izz='0.1' ixy='0' ixz='0' iyz='0'";
  const std::string box = "<box size='0.1 0.1 0.1'/>";
  const std::string flat = ::arena::testing::TestDataDir() + "/scene/invalid/flat_plate.stl";
  struct Case {
    std::string file, text, expected;
  };
  const std::vector<Case> cases = {
      {"negative.urdf", urdf("ixx='-1' iyy='0.1' izz='0.1' ixy='0' ixz='0' iyz='0'", box),
       "link 'base' / inertial: principal moments of inertia (-1, 0.1, 0.1) include a negative one"},
      {"nan.urdf", urdf("ixx='nan' iyy='0.1' izz='0.1' ixy='0' ixz='0' iyz='0'", box),
       "urdfdom rejected the robot description: Inertial: inertia element ixx is not a valid double"},
      {"triangle.urdf", urdf("ixx='0.1' iyy='0.1' izz='0.5' ixy='0' ixz='0' iyz='0'", box),
       "link 'base' / inertial: principal moments of inertia (0.1, 0.1, 0.5) break the triangle inequality"},
      {"point.urdf", urdf("ixx='0' iyy='0' izz='0' ixy='0' ixz='0' iyz='0'", box),
       "link 'base': the mass matrix is singular at the default configuration"},
      {"box0.urdf", urdf(unit, "<box size='0 0.1 0.1'/>"),
       "link 'base' / collision 0 / box: box half extents (0, 0.05, 0.05) must be finite and > 0"},
      {"sphere.urdf", urdf(unit, "<sphere radius='-0.1'/>"),
       "link 'base' / collision 0 / sphere: sphere radius -0.1 must be finite and > 0"},
      {"flat.urdf", urdf(unit, "<mesh filename='" + flat + "'/>"), "link 'base' / collision 0 / mesh: mesh is flat"},
      {"sphere.xml", "<mujoco><worldbody><body><freejoint/><geom size='-0.1'/></body></worldbody></mujoco>",
       "<geom> (line 1) / size: sizes must be > 0"},
  };
  for (const Case& c : cases) {
    testing::WriteFile(dir_ / c.file, c.text);
    const Result r = Arena("inspect '" + (dir_ / c.file) + "'");
    EXPECT_EQ(r.status, 2) << c.file << ": " << r.out;
    EXPECT_TRUE(Contains(r.err, "arena: error: " + (dir_ / c.file) + ": " + c.expected)) << r.err;
  }
  // A directory with a robot file's name.
  fs::create_directories(dir_ / "robot.urdf");
  const Result r = Arena("inspect '" + (dir_ / "robot.urdf") + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Contains(r.err, "robot.urdf: is a directory, not a URDF file")) << r.err;
}

// Warnings (legal but suspicious) are counted by inspect and listed by inspect --strict, which
// then exits 2.
TEST_F(CliTest, InspectStrictListsWarnings) {
  testing::WriteFile(dir_ / "hollow.urdf", R"(<robot name="hollow">
  <link name="base"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="hub"/>
  <link name="rim"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="a" type="continuous"><parent link="base"/><child link="hub"/><axis xyz="0 0 1"/></joint>
  <joint name="b" type="continuous"><parent link="hub"/><child link="rim"/><axis xyz="1 0 0"/></joint>
</robot>
)");
  const std::string file = dir_ / "hollow.urdf";
  const Result plain = Arena("inspect '" + file + "'");
  EXPECT_EQ(plain.status, 0) << plain.err;
  EXPECT_TRUE(Contains(plain.err, "1 warning(s); 'arena inspect --strict' lists them")) << plain.err;
  const Result strict = Arena("inspect --strict '" + file + "'");
  EXPECT_EQ(strict.status, 2);
  EXPECT_TRUE(Contains(strict.out, "bodies (3)"));
  EXPECT_TRUE(Contains(strict.err, "arena: warning: " + file + ": body 'hub': moves but has no mass of its own"))
      << strict.err;
  EXPECT_EQ(Arena("inspect --strict atlas").status, 0);
}

// inspect lists the collider pairs every model tests, after the parent-child, self-collision
// and named rules, under a count per rule; the scene options change them.
TEST_F(CliTest, InspectListsCollisionPairsAndTakesSceneOptions) {
  testing::WriteFile(dir_ / "chain.urdf", R"(<robot name="chain">
  <link name="base"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><sphere radius="0.1"/></geometry></collision></link>
  <link name="upper"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><sphere radius="0.1"/></geometry></collision></link>
  <link name="fore"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><sphere radius="0.1"/></geometry></collision></link>
  <joint name="a" type="continuous"><parent link="base"/><child link="upper"/><origin xyz="0.5 0 0"/><axis xyz="0 0 1"/></joint>
  <joint name="b" type="continuous"><parent link="upper"/><child link="fore"/><origin xyz="0.5 0 0"/><axis xyz="0 0 1"/></joint>
</robot>
)");
  const std::string file = "'" + (dir_ / "chain.urdf") + "'";
  Result r = Arena("inspect " + file);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "collision pairs (1 of 3 collider pairs; excluded: 2 parent-child, 0 same tree "
                              "(self_collision=true), 0 named (file, --exclude, --srdf), 0 overlapping at the default pose, "
                              "0 same body, 0 group/mask)\n"
                              "COLLIDER_A  BODY_A  COLLIDER_B  BODY_B\nbase        base    fore        fore\n"))
      << r.out;
  r = Arena("inspect " + file + " --set self_collision=false");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "collision pairs (0 of 3 collider pairs; excluded: 2 parent-child, 1 same tree "
                              "(self_collision=false), 0 named"))
      << r.out;
  r = Arena("inspect " + file + " --exclude base:fore");
  EXPECT_TRUE(Contains(r.out, "collision pairs (0 of 3 collider pairs; excluded: 2 parent-child, 0 same tree "
                              "(self_collision=true), 1 named"))
      << r.out << r.err;
  testing::WriteFile(dir_ / "chain.srdf", "<robot name='chain'><disable_collisions link1='fore' link2='base' reason='Never'/></robot>");
  r = Arena("inspect " + file + " --srdf '" + (dir_ / "chain.srdf") + "'");
  EXPECT_TRUE(Contains(r.out, "1 named (file, --exclude, --srdf)")) << r.out << r.err;

  r = Arena("inspect " + file + " --exclude base:elbow");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Contains(r.err, "arena: error: excluded pair base:elbow: scene 'chain' has no body named 'elbow'; its "
                              "bodies: world, base, upper, fore"))
      << r.err;
  r = Arena("inspect " + file + " --set stiffness=1");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Contains(r.err, "arena: error: inspect: --set stiffness=1: unknown scene key 'stiffness'; valid: "
                              "self_collision"))
      << r.err;
  r = Arena("inspect " + file + " --package pkg='" + (dir_ / "missing") + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Contains(r.err, "missing does not exist")) << r.err;
}

// gradcheck's --set: scene keys for the scene, the rest for the model.
TEST_F(CliTest, GradcheckTakesSceneOptions) {
  Result r = Arena("gradcheck --model penalty --scene half_cheetah --states 1 --set self_collision=false "
                   "--set stiffness=1e4 --exclude world:bthigh");
  EXPECT_EQ(r.status, 0) << r.err;
  r = Arena("gradcheck --model penalty --scene half_cheetah --states 1 --exclude world:wing");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Contains(r.err, "no body named 'wing'")) << r.err;
}

// dart-doc's WAM names its meshes package://herb_description/...: found through --package or
// ROS_PACKAGE_PATH, reported with every place searched otherwise.
TEST_F(CliTest, InspectFindsRosPackages) {
  const std::string wam = DartDataDir() + "/urdf/wam";
  if (!fs::exists(wam + "/wam.urdf")) GTEST_SKIP() << "no dart-doc WAM in " << wam;
  const char* saved = std::getenv("ROS_PACKAGE_PATH");
  const std::string saved_value = saved ? saved : "";
  unsetenv("ROS_PACKAGE_PATH");
  Result r = Arena("inspect " + wam + "/wam.urdf");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Contains(r.err, "package 'herb_description' not found; searched --package mappings: none given; "
                              "ROS_PACKAGE_PATH: not set; upward from the URDF, no folder named 'herb_description'"))
      << r.err;
  r = Arena("inspect " + wam + "/wam.urdf --package herb_description=" + wam);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "colliders (8)"));
  // Two pairs of links overlap at the default pose (MakeScene excludes them).
  EXPECT_TRUE(Contains(r.out, "collision pairs (19 of 28 collider pairs; excluded: 7 parent-child, 0 same tree "
                              "(self_collision=true), 0 named (file, --exclude, --srdf), 2 overlapping at the default pose"))
      << r.out;
  r = Arena("inspect " + wam + "/wam.urdf --package herb_description=" + wam + " --set skip_default_overlaps=false");
  EXPECT_TRUE(Contains(r.out, "collision pairs (21 of 28 collider pairs;")) << r.out << r.err;
  fs::create_directory_symlink(wam, dir_ / "herb_description");
  setenv("ROS_PACKAGE_PATH", (dir_ / "nothing:" + dir_.path()).c_str(), 1);
  r = Arena("inspect " + wam + "/wam.urdf --set self_collision=false");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "collision pairs (0 of 28 collider pairs; excluded: 7 parent-child, 21 same tree"))
      << r.out;
  if (saved) {
    setenv("ROS_PACKAGE_PATH", saved_value.c_str(), 1);
  } else {
    unsetenv("ROS_PACKAGE_PATH");
  }
}

TEST_F(CliTest, RunErrorsListValidChoices) {
  if (Experiments().empty()) GTEST_SKIP() << "no experiments registered yet";
  const std::string exp = Experiments().front()->name();
  const std::string out = " --out '" + dir_.path() + "' --no-progress";

  Result r = Arena("run " + exp + " --set no_such_key=1" + out);
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Contains(r.err, "arena: error: --set no_such_key=1: unknown key 'no_such_key'"));
  EXPECT_TRUE(Contains(r.err, "valid keys: "));

  r = Arena("run " + exp + " --models no_such_model" + out);
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Contains(r.err, "unknown model 'no_such_model'; registered models: "));

  if (!Models().empty()) {
    const std::string m = Models().front().name;
    r = Arena("run " + exp + " --set " + m + ".no_such_option=1" + out);
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(Contains(r.err, "unknown option 'no_such_option' for model " + m));
    EXPECT_TRUE(Contains(r.err, "valid options: "));
  }

  r = Arena("run " + exp + " --profile no_such_profile" + out);
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Contains(r.err, "no profile [no_such_profile]"));
  EXPECT_FALSE(fs::exists(dir_ / exp));  // nothing was written
}

// Issue 14, classes 6 and 7: an empty path is an error (not a fallback to <repo>/results), and
// each bad value is one line that names the key and says what to give.
TEST_F(CliTest, BadRunInputIsOneLineThatSaysWhatToDo) {
  const std::string out = " --out '" + dir_.path() + "' --no-progress";
  // initial_conditions=0 as well: should the empty --out ever be taken, the run still stops
  // before it writes anything into <repo>/results.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"run box_drop --out '' --set initial_conditions=0",
       "--out is empty (an unset shell variable?); give a path, or leave --out out for <repo>/results"},
      {"run box_drop --config-dir ' ' --set initial_conditions=0" + out, "--config-dir is empty"},
      {"report --results ''", "--results is empty"},
      {"run box_drop --threads -3" + out, "--threads -3 is out of range; give 0 (every core) to 1024"},
      {"run box_drop --case-timeout 0" + out, "--case-timeout 0 is out of range"},
      {"run box_drop --set 'frequencies_hz=[10,20'" + out,
       "--set frequencies_hz=[10,20: not a valid TOML value (Error while parsing array: encountered end-of-file)"},
      {"run box_drop --set duration_s=1e999" + out, "--set duration_s=1e999: not a valid TOML value"},
      {"run box_drop --set 'variants=[\"planar\"'" + out, "--set variants=[\"planar\": not a valid TOML value"},
      {"run box_drop --set 'frequencies_hz=[]'" + out,
       "key 'frequencies_hz' (set by --set): the list is empty, so the sweep would have no cases; give at least "
       "one value"},
      {"run box_drop --models penalty --set duration_s=inf" + out,
       "key 'duration_s' (set by --set): inf is out of range; give a finite number > 0"},
  };
  for (const auto& [args, message] : cases) {
    const Result r = Arena(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_TRUE(Contains(r.err, "arena: error: ")) << args;
    EXPECT_TRUE(Contains(r.err, message)) << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
    EXPECT_EQ(r.out, "") << args;
  }
  EXPECT_FALSE(fs::exists(dir_ / "box_drop"));
}

TEST_F(CliTest, Report) {
  testing::WriteFile(dir_ / "claims.toml",
                     "[[claim]]\nid = \"nowhere.claim\"\nexperiment = \"nowhere\"\n"
                     "description = \"d\"\npaper = \"1\"\ncriterion = \"ours == 1\"\n");
  const Result r = Arena("report --results '" + (dir_ / "results") + "' --claims '" +
                         (dir_ / "claims.toml") + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "results/report.json"));
  EXPECT_TRUE(fs::exists(dir_ / "results/REPORT.md"));
  const std::string json = testing::ReadFile(dir_ / "results/report.json");
  EXPECT_TRUE(Contains(json, "\"verdict\": \"not_run\""));
  EXPECT_EQ(Arena("report --results '" + (dir_ / "results") + "' --claims '" +
                  (dir_ / "missing.toml") + "'").status, 2);
}

// `mpirun -np 2 arena run E --mpi`: each rank a shard, rank 0 merges; the merged table equals
// an unsharded run's (every non-timing cell, harness/compare.h). Skipped without mpirun.
TEST_F(CliTest, MpiRanksAreShardsAndRankZeroMerges) {
  if (std::system("command -v mpirun >/dev/null 2>&1") != 0) GTEST_SKIP() << "no mpirun";
  const std::string sweep =
      "run lcp_warmstart --no-progress --set 'rollouts=[\"stacking\",\"box_drop\"]' --set duration_s=0.05 "
      "--set box_drop_runs=3 --out '";
  ASSERT_EQ(Arena(sweep + (dir_ / "whole") + "'").status, 0);
  const std::string cmd = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -np 2 --oversubscribe '" +
                          ArenaBin() + "' " + sweep + (dir_ / "mpi") + "' --mpi >'" +
                          (dir_ / "mpi.log") + "' 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << testing::ReadFile(dir_ / "mpi.log");
  EXPECT_TRUE(fs::exists(dir_ / "mpi/shards/2-of-2/lcp_warmstart/lcp_warmstart.csv"));
  const Comparison c = CompareResults(dir_ / "whole", dir_ / "mpi", ::arena::testing::SourceDir() + "/experiments");
  EXPECT_FALSE(c.regressed()) << FormatComparison(c, "whole", "mpi");
  EXPECT_EQ(c.differing_cells, 0);
  EXPECT_TRUE(c.missing.empty());
}

}  // namespace cli_test
}  // namespace arena
