#include "config/profile_config.h"

#include <gtest/gtest.h>

#include "core/common/error.h"
#include "models/registry.h"
#include "tests/harness/toy_experiment.h"

namespace arena {
namespace {

using testing::Contains;

const char* kText = R"([quick]
models = ["alpha"]
frequencies_hz = [10, 30.5, 100]
steps = 1e3
count = 7
name = "box"
enabled = true
[quick.nested]
depth = 2
[quick.options.alpha]
damping = 0.5
method = "newton"
[quick.sweep.alpha]
stiffness = [1e3, 1e4]
[quick.options.beta]
damping = 0.2
[paper]
models = ["alpha"]
)";

ProfileConfig Parse(const std::vector<std::string>& overrides = {}) {
  return ProfileConfig::Parse(kText, "toy.toml", "quick", overrides, {"alpha", "beta"});
}

TEST(ProfileConfigTest, TypedGetters) {
  const ProfileConfig c = Parse();
  EXPECT_EQ(c.file(), "toy.toml");
  EXPECT_EQ(c.profile(), "quick");
  EXPECT_EQ(c.Doubles("frequencies_hz"), (std::vector<double>{10, 30.5, 100}));
  EXPECT_EQ(c.Int("steps"), 1000);  // an integral float is an integer
  EXPECT_EQ(c.Double("count"), 7.0);  // an integer is a double
  EXPECT_EQ(c.String("name"), "box");
  EXPECT_TRUE(c.Bool("enabled"));
  EXPECT_EQ(c.Int("nested.depth"), 2);
  EXPECT_EQ(c.Strings("models"), (std::vector<std::string>{"alpha"}));
  EXPECT_EQ(c.Ints("count"), (std::vector<std::int64_t>{7}));  // a scalar is a one-element list
  EXPECT_TRUE(c.Has("nested.depth"));
  EXPECT_FALSE(c.Has("nested.width"));
}

TEST(ProfileConfigTest, TypeErrorNamesFileProfileKeyAndType) {
  const ProfileConfig c = Parse();
  try {
    c.Double("name");
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), "toy.toml");
    EXPECT_TRUE(Contains(e.what(), "[quick] key 'name' (line 6)"));
    EXPECT_TRUE(Contains(e.what(), "expected a number, got string"));
  }
  try {
    c.Ints("frequencies_hz");  // 30.5 is not an integer
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_TRUE(Contains(e.what(), "expected an integer, got float"));
  }
  EXPECT_THROW(c.Bool("count"), ParseError);
  EXPECT_THROW(c.String("enabled"), ParseError);
  try {
    c.Double("missing_key");
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_TRUE(Contains(e.what(), "missing key 'missing_key'"));
    EXPECT_TRUE(Contains(e.what(), "frequencies_hz"));  // lists the keys
  }
}

TEST(ProfileConfigTest, MalformedTomlNamesFileAndLine) {
  try {
    ProfileConfig::Parse("[quick]\nmodels = [\"a\"]\nsteps = = 3\n", "bad.toml", "quick", {}, {});
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), "bad.toml");
    EXPECT_TRUE(Contains(e.where(), "line 3"));
  }
}

TEST(ProfileConfigTest, MissingProfileListsProfiles) {
  try {
    ProfileConfig::Parse(kText, "toy.toml", "huge", {}, {});
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_TRUE(Contains(e.what(), "no profile [huge]; profiles: paper, quick"));
  }
}

TEST(ProfileConfigTest, LoadMissingFile) {
  EXPECT_THROW(ProfileConfig::Load("/nonexistent/x.toml", "quick", {}, {}), ParseError);
}

TEST(ProfileConfigTest, ExperimentKeyOverride) {
  const ProfileConfig c = Parse({"frequencies_hz=[20, 40]", "name = sphere", "nested.depth=5"});
  EXPECT_EQ(c.Doubles("frequencies_hz"), (std::vector<double>{20, 40}));
  EXPECT_EQ(c.String("name"), "sphere");  // a bare word is a string
  EXPECT_EQ(c.Int("nested.depth"), 5);
  try {
    c.Bool("name");
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_TRUE(Contains(e.what(), "(set by --set)"));
  }
}

TEST(ProfileConfigTest, UnknownOverrideKeyListsValidKeys) {
  try {
    Parse({"frequency=[1]"});
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_TRUE(Contains(e.what(), "unknown key 'frequency'"));
    EXPECT_TRUE(Contains(e.what(), "valid keys: count, enabled, frequencies_hz, models, name, nested.depth, steps;"));
    EXPECT_TRUE(Contains(e.what(), "models: alpha, beta"));
  }
  EXPECT_THROW(Parse({"no_equals_sign"}), InvalidArgument);
  EXPECT_THROW(Parse({"options.alpha.damping=1"}), InvalidArgument);
  EXPECT_THROW(Parse({"alpha.a.b=1"}), InvalidArgument);
  EXPECT_THROW(Parse({"alpha.damping=[1, 2]"}), InvalidArgument);
}

TEST(ProfileConfigTest, ModelOptionsAndSweep) {
  const ProfileConfig c = Parse();
  EXPECT_EQ(c.ModelOptions("alpha"), (OptionMap{{"damping", "0.5"}, {"method", "newton"}}));
  EXPECT_EQ(c.ModelSweep("alpha"),
            (std::pair<std::string, std::vector<std::string>>{"stiffness", {"1000", "10000"}}));
  EXPECT_EQ(c.ModelSweep("beta").first, "");
  EXPECT_TRUE(c.ModelOptions("gamma").empty());
}

TEST(ProfileConfigTest, ModelOverrides) {
  const ProfileConfig c = Parse({"alpha.damping=0.9", "alpha.timestep=1e-3", "alpha.stiffness=2e4"});
  EXPECT_EQ(c.ModelOptions("alpha"),
            (OptionMap{{"damping", "0.9"}, {"method", "newton"}, {"timestep", "0.001"}}));
  // Overriding the swept key collapses the sweep to that value.
  EXPECT_EQ(c.ModelSweep("alpha"),
            (std::pair<std::string, std::vector<std::string>>{"stiffness", {"20000"}}));
}

TEST(ProfileConfigTest, RegisteredModelOverrideKeyIsChecked) {
  if (Models().empty()) GTEST_SKIP() << "no models registered yet";
  const ModelInfo& m = Models().front();
  try {
    ProfileConfig::Parse("[quick]\nx = 1\n", "t.toml", "quick", {m.name + ".no_such_option=1"},
                         {m.name});
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_TRUE(Contains(e.what(), "unknown option 'no_such_option' for model " + m.name));
    EXPECT_TRUE(Contains(e.what(), "valid options: "));
    EXPECT_TRUE(Contains(e.what(), "timestep"));
  }
}

TEST(ProfileConfigTest, UnreadKeys) {
  const ProfileConfig c = Parse();
  c.Strings("models");
  c.Doubles("frequencies_hz");
  c.ModelOptions("alpha");
  c.ModelSweep("alpha");
  // beta is not run: its options are exempt.
  EXPECT_EQ(c.UnreadKeys({"alpha"}),
            (std::vector<std::string>{"count", "enabled", "name", "nested.depth", "steps"}));
  // beta is run but its options were never read.
  const auto unread = c.UnreadKeys({"alpha", "beta"});
  EXPECT_NE(std::find(unread.begin(), unread.end(), "options.beta.damping"), unread.end());

  // A misspelled model table is not exempt.
  const ProfileConfig typo = ProfileConfig::Parse(
      "[quick]\n[quick.options.alpah]\ndamping = 1\n", "t.toml", "quick", {}, {"alpha"});
  EXPECT_EQ(typo.UnreadKeys({"alpha"}), (std::vector<std::string>{"options.alpah.damping"}));
}

TEST(ProfileConfigTest, TwoSweptKeysIsAnError) {
  const ProfileConfig c = ProfileConfig::Parse(
      "[quick]\n[quick.sweep.alpha]\na = [1]\nb = [2]\n", "t.toml", "quick", {}, {"alpha"});
  EXPECT_THROW(c.ModelSweep("alpha"), ParseError);
}

TEST(ProfileConfigTest, Keys) {
  const ProfileConfig c = Parse();
  const auto keys = c.Keys();
  EXPECT_EQ(keys.size(), 11u);
  EXPECT_EQ(keys.front(), "count");  // toml++ keeps keys sorted
}

}  // namespace
}  // namespace arena
