#include "config/profile_config.h"

#include <gtest/gtest.h>

#include <functional>
#include <limits>

#include "core/common/error.h"
#include "models/registry.h"
#include "tests/experiments/experiment_test_config.h"
#include "tests/harness/toy_experiment.h"

namespace arena {
namespace profile_config_test {

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
  return ProfileConfig::Parse(kText, "toy.toml", "quick", overrides,
                              {{"alpha", {"damping", "method", "stiffness", "timestep"}},
                               {"beta", {"damping"}}});
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

// by_model.<model>.<key> sets a profile key for one registered model; other by_model keys are
// unknown.
TEST(ProfileConfigTest, ByModelOverrideOfAProfileKey) {
  const ProfileConfig c = Parse({"by_model.beta.count=3"});
  EXPECT_TRUE(c.Has("by_model.beta.count"));
  EXPECT_EQ(c.Int("by_model.beta.count"), 3);
  EXPECT_EQ(c.Int("count"), 7);
  for (const std::string bad : {"by_model.gamma.count=3", "by_model.beta.counts=3", "by_model.beta=3"}) {
    EXPECT_THROW(Parse({bad}), InvalidArgument) << bad;
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
                         testing_config::RegisteredModels());
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
      "[quick]\n[quick.options.alpah]\ndamping = 1\n", "t.toml", "quick", {}, {{"alpha", {}}});
  EXPECT_EQ(typo.UnreadKeys({"alpha"}), (std::vector<std::string>{"options.alpah.damping"}));

  // An experiment's by_model setting of a model not run is exempt too; of one run, it is read
  // or reported.
  const ProfileConfig by_model = ProfileConfig::Parse("[quick]\n[quick.by_model.alpha]\nsubsteps = 2\n", "t.toml",
                                                      "quick", {}, {{"alpha", {}}, {"beta", {}}});
  EXPECT_TRUE(by_model.UnreadKeys({"beta"}).empty());
  EXPECT_EQ(by_model.UnreadKeys({"alpha"}), (std::vector<std::string>{"by_model.alpha.substeps"}));
}

TEST(ProfileConfigTest, TwoSweptKeysIsAnError) {
  const ProfileConfig c = ProfileConfig::Parse(
      "[quick]\n[quick.sweep.alpha]\na = [1]\nb = [2]\n", "t.toml", "quick", {}, {{"alpha", {}}});
  EXPECT_THROW(c.ModelSweep("alpha"), ParseError);
}

// Issue 14, class 1: the range-checked getters. A value out of range is an InvalidArgument (of
// the wrong type, a ParseError) naming the file, profile and key, the value, and what the key
// accepts.
TEST(ProfileConfigTest, RangeCheckedGettersNameKeyValueAndRange) {
  struct Bad {
    std::string set;                          // --set override
    std::function<void(const ProfileConfig&)> read;
    std::string message;
  };
  const std::vector<Bad> table = {
      {"steps=inf", [](const ProfileConfig& c) { c.PositiveFiniteDouble("steps"); },
       "[quick] key 'steps' (set by --set): inf is out of range; give a finite number > 0"},
      {"steps=nan", [](const ProfileConfig& c) { c.PositiveFiniteDouble("steps"); }, "nan is out of range"},
      {"steps=0", [](const ProfileConfig& c) { c.PositiveFiniteDouble("steps"); }, "0 is out of range"},
      {"steps=-1e-300", [](const ProfileConfig& c) { c.Double("steps", NumberRange::Between(0, 1)); },
       "-1e-300 is out of range; give a number between 0 and 1"},
      {"count=0", [](const ProfileConfig& c) { c.Int("count", 1, 100); },
       "key 'count' (set by --set): 0 is out of range; give an integer between 1 and 100"},
      {"count=101", [](const ProfileConfig& c) { c.Int("count", 1, 100); }, "101 is out of range"},
      {"count=1e300", [](const ProfileConfig& c) { c.Int("count", 1, 100); }, "1e+300 is out of range"},
      {"count=2.5", [](const ProfileConfig& c) { c.Int("count", 1, 100); },
       "expected an integer between 1 and 100, got float 2.5"},
      {"count=inf", [](const ProfileConfig& c) { c.Int("count", 1, 100); }, "got float inf"},
      {"count=\"7\"", [](const ProfileConfig& c) { c.Int("count", 1, 100); }, "got string '7'"},
      {"frequencies_hz=[10, -1]", [](const ProfileConfig& c) { c.Doubles("frequencies_hz", NumberRange::Positive()); },
       "key 'frequencies_hz' (set by --set): entry 2, -1 is out of range; give a finite number > 0"},
      {"frequencies_hz=[]", [](const ProfileConfig& c) { c.SweepDoubles("frequencies_hz", NumberRange::Positive()); },
       "the list is empty, so the sweep would have no cases; give at least one value"},
      {"frequencies_hz=[5, 5]", [](const ProfileConfig& c) { c.SweepDoubles("frequencies_hz", NumberRange::Positive()); },
       "5 is listed twice; list each value once"},
      {"models=[]", [](const ProfileConfig& c) { c.SweepStrings("models"); }, "the list is empty"},
      {"models=[\"a\", \"a\"]", [](const ProfileConfig& c) { c.SweepStrings("models"); }, "'a' is listed twice"},
  };
  for (const Bad& bad : table) {
    const ProfileConfig c = Parse({bad.set});
    try {
      bad.read(c);
      ADD_FAILURE() << bad.set << ": no error";
    } catch (const Error& e) {
      EXPECT_TRUE(Contains(e.what(), "toy.toml: [quick] key ")) << bad.set;
      EXPECT_TRUE(Contains(e.what(), bad.message)) << bad.set;
    }
  }
  // In range: the value.
  const ProfileConfig c = Parse();
  EXPECT_EQ(c.Int("count", 1, 7), 7);
  EXPECT_EQ(c.Int("steps", 1, 1000), 1000);  // 1e3: an integral float
  EXPECT_EQ(c.SweepDoubles("frequencies_hz", NumberRange::Positive(100)), (std::vector<double>{10, 30.5, 100}));
  EXPECT_EQ(c.SweepStrings("models"), (std::vector<std::string>{"alpha"}));
  EXPECT_EQ(c.PositiveFiniteDouble("count"), 7.0);
  EXPECT_EQ(NumberRange::Finite().ToString(), "a finite number");
  EXPECT_EQ(NumberRange::Positive(1).ToString(), "a number > 0 and <= 1");
  EXPECT_FALSE(NumberRange::Finite().Contains(std::numeric_limits<double>::infinity()));
}

// Issue 14, class 7: a --set value that is not valid TOML is the parser's error with the key,
// never a string that a getter then calls "expected a number, got string". A bare word still is
// a string.
TEST(ProfileConfigTest, OverrideThatIsNotTomlIsTheParsersError) {
  const std::vector<std::pair<std::string, std::string>> table = {
      {"frequencies_hz=[10,20", "--set frequencies_hz=[10,20: not a valid TOML value (Error while parsing array"},
      {"steps=1e999", "--set steps=1e999: not a valid TOML value (Error while parsing floating-point: '1e999'"},
      {"name=[\"box\"", "--set name=[\"box\": not a valid TOML value"},
      {"name=two words", "--set name=two words: not a valid TOML value"},
      {"name=\"unclosed", "--set name=\"unclosed: not a valid TOML value"},
      {"count=9223372036854775808", "not representable in 64 bits"},
      {"name=", "--set 'name=': no value after '='"},
  };
  for (const auto& [set, message] : table) {
    try {
      Parse({set});
      ADD_FAILURE() << set << ": no error";
    } catch (const InvalidArgument& e) {
      EXPECT_TRUE(Contains(e.what(), message)) << set;
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(Parse({"name=sphere_2.v1/a:b-c"}).String("name"), "sphere_2.v1/a:b-c");
  EXPECT_EQ(Parse({"name=\"two words\""}).String("name"), "two words");
}

TEST(ProfileConfigTest, Keys) {
  const ProfileConfig c = Parse();
  const auto keys = c.Keys();
  EXPECT_EQ(keys.size(), 11u);
  EXPECT_EQ(keys.front(), "count");  // toml++ keeps keys sorted
}

}  // namespace profile_config_test
}  // namespace arena
