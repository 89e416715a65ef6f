#include "experiments/common/settings/settings.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/common/error.h"

namespace arena {
namespace settings_test {

// A toy experiment's settings: one field of every supported kind and role.
struct ToySettings {
  std::vector<double> heights_m;
  std::vector<std::string> shapes;
  std::vector<double> weights;
  double height_m = 0.0;
  std::string shape;
  double duration_s = 0.0;
  int steps = 0;
  std::int64_t budget = 0;
  bool record = false;
  std::string label;
  std::optional<double> damping;

  template <class V>
  void VisitFields(V&& v) {
    v("heights_m", heights_m, "drop heights (the axis)", "m", LeftOpen(0.0, 10.0), SettingRole::kConfig);
    v("shapes", shapes, "shapes (the axis)", "", std::nullopt, SettingRole::kConfig);
    v("weights", weights, "one weight per shape", "", Closed(0.0, 1.0), SettingRole::kConfigList);
    v("height_m", height_m, "this case's drop height", "m", LeftOpen(0.0, 10.0), SettingRole::kCase);
    v("shape", shape, "this case's shape", "", std::nullopt, SettingRole::kCase);
    v("duration_s", duration_s, "simulated time", "s", Positive());
    v("steps", steps, "steps per case", "", Closed(1, 100));
    v("budget", budget, "a budget", "", LeftOpen(0, 1e9));
    v("record", record, "whether to record");
    v("label", label, "a label");
    v("damping", damping, "optional damping", "", Closed(0.0, 1.0));
  }
};

// A model's own key under by_model.<model>, which a profile may omit.
struct Damping {
  std::optional<double> damping;
  template <class V>
  void VisitFields(V&& v) {
    v("damping", damping, "optional damping", "", Closed(0.0, 1.0), SettingRole::kConfig);
  }
};

// A method's setting: every profile has it, only that method's cases carry it.
struct Cem {
  std::optional<std::int64_t> population;
  template <class V>
  void VisitFields(V&& v) {
    v("population", population, "samples (cem cases only)", "", Closed(2, 100), SettingRole::kConfigAndSomeCases);
  }
};

// A count of the sweep's instances.
struct Counted {
  std::int64_t seeds = 0;
  template <class V>
  void VisitFields(V&& v) {
    v("seeds", seeds, "instances", "", std::nullopt, SettingRole::kConfigCount);
  }
};

// A list declared as a case parameter: a mistake the machinery reports.
struct Misdeclared {
  std::vector<double> heights_m;
  template <class V>
  void VisitFields(V&& v) {
    v("heights_m", heights_m, "a list declared as a case parameter", "", std::nullopt, SettingRole::kCase);
  }
};

constexpr const char* kToyConfig = R"(
[quick]
heights_m = [0.5, 1.0]
shapes = ["box", "ball"]
weights = [0.5, 0.5]
duration_s = 2.0
steps = 10
budget = 1000000
record = true
label = "x"
)";

ProfileConfig ToyConfig(const std::vector<std::string>& overrides = {}, const std::string& extra = "") {
  return ProfileConfig::Parse(kToyConfig + extra, "toy.toml", "quick", overrides, {});
}

// The message of what `f` throws (any arena Error), or "no error".
template <class F>
std::string ErrorOf(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(SettingsTest, ReadsEveryConfigFieldAndLeavesNoKeyUnread) {
  const ProfileConfig config = ToyConfig();
  const ToySettings s = ReadSettings<ToySettings>(config);
  EXPECT_EQ(s.heights_m, (std::vector<double>{0.5, 1.0}));
  EXPECT_EQ(s.shapes, (std::vector<std::string>{"box", "ball"}));
  EXPECT_EQ(s.weights, (std::vector<double>{0.5, 0.5}));  // a list may repeat a value
  EXPECT_EQ(s.duration_s, 2.0);
  EXPECT_EQ(s.steps, 10);
  EXPECT_EQ(s.budget, 1'000'000);
  EXPECT_TRUE(s.record);
  EXPECT_EQ(s.label, "x");
  EXPECT_FALSE(s.damping.has_value());
  EXPECT_TRUE(config.UnreadKeys({}).empty());
}

TEST(SettingsTest, RoundTripsThroughCaseParams) {
  ToySettings s = ReadSettings<ToySettings>(ToyConfig({}, "damping = 0.25\n"));
  s.height_m = s.heights_m[1];
  s.shape = s.shapes[0];
  Case c;
  c.id = "toy/1";
  c.params = CaseParams(s);
  std::vector<std::string> keys;
  for (const auto& [key, value] : c.params) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"height_m", "shape", "duration_s", "steps", "budget", "record", "label",
                                            "damping"}));
  // Integers are int64 cells, doubles double cells: their CSV text differs (1000000 vs 1e+06).
  EXPECT_EQ(ToText(c.params[4].second), "1000000");
  EXPECT_TRUE(std::holds_alternative<double>(c.params[2].second));
  EXPECT_TRUE(std::holds_alternative<bool>(c.params[5].second));

  const ToySettings d = DecodeSettings<ToySettings>(c);
  EXPECT_EQ(d.height_m, 1.0);
  EXPECT_EQ(d.shape, "box");
  EXPECT_EQ(d.duration_s, 2.0);
  EXPECT_EQ(d.steps, 10);
  EXPECT_EQ(d.budget, 1'000'000);
  EXPECT_TRUE(d.record);
  EXPECT_EQ(d.label, "x");
  EXPECT_EQ(d.damping, 0.25);
  EXPECT_TRUE(d.heights_m.empty());  // config-only fields are not case parameters
}

TEST(SettingsTest, AnEmptyOptionalIsNoParameter) {
  ToySettings s = ReadSettings<ToySettings>(ToyConfig());
  Case c;
  c.params = CaseParams(s);
  EXPECT_EQ(settings_detail::FindParam(c, "damping"), nullptr);
  EXPECT_FALSE(DecodeSettings<ToySettings>(c).damping.has_value());
}

TEST(SettingsTest, BadConfigValuesNameTheKey) {
  auto read = [](const std::vector<std::string>& overrides) {
    return ErrorOf([&] { ReadSettings<ToySettings>(ToyConfig(overrides)); });
  };
  EXPECT_NE(read({"steps=0"}).find("steps"), std::string::npos);
  EXPECT_NE(read({"steps=1.5"}).find("steps"), std::string::npos);
  EXPECT_NE(read({"duration_s=-1"}).find("duration_s"), std::string::npos);
  EXPECT_NE(read({"heights_m=[1,1]"}).find("heights_m"), std::string::npos);  // an axis lists a value once
  EXPECT_NE(read({"heights_m=[]"}).find("heights_m"), std::string::npos);
  EXPECT_NE(read({"weights=[2]"}).find("weights"), std::string::npos);
  EXPECT_NE(read({"record=3"}).find("record"), std::string::npos);
  EXPECT_NE(read({"budget=0"}).find("budget"), std::string::npos);  // (0, 1e9]: the open end
  EXPECT_EQ(read({"budget=1"}), "no error");
  const std::string damping = ErrorOf([] { ReadSettings<ToySettings>(ToyConfig({"damping=2"}, "damping = 0.5\n")); });
  EXPECT_NE(damping.find("damping"), std::string::npos);
  EXPECT_NE(damping.find("between 0 and 1"), std::string::npos) << damping;  // the range, not an unknown key
}

TEST(SettingsTest, AMissingKeyNamesIt) {
  const std::string toml = "[quick]\nheights_m = [1]\nshapes = [\"box\"]\nweights = []\nduration_s = 1\n";
  const ProfileConfig config = ProfileConfig::Parse(toml, "toy.toml", "quick", {}, {});
  EXPECT_NE(ErrorOf([&] { ReadSettings<ToySettings>(config); }).find("steps"), std::string::npos);
}

TEST(SettingsTest, AnUnknownKeyIsLeftUnread) {
  const ProfileConfig config = ToyConfig({}, "stpes = 3\n");
  ReadSettings<ToySettings>(config);
  EXPECT_EQ(config.UnreadKeys({}), std::vector<std::string>{"stpes"});
}

TEST(SettingsTest, ReadsUnderAPrefix) {
  const std::string toml = std::string(kToyConfig) + "[quick.by_model.toy]\ndamping = 0.5\n";
  const ProfileConfig config = ProfileConfig::Parse(toml, "toy.toml", "quick", {}, {});
  EXPECT_EQ(ReadSettings<Damping>(config, "by_model.toy.").damping, 0.5);
  EXPECT_FALSE(ReadSettings<Damping>(config, "by_model.other.").damping.has_value());
}

TEST(SettingsTest, AKeyOfSomeCasesIsRequiredInTheConfig) {
  const ProfileConfig with = ProfileConfig::Parse("[quick]\npopulation = 8\n", "toy.toml", "quick", {}, {});
  Cem s = ReadSettings<Cem>(with);
  EXPECT_EQ(s.population, 8);
  Case c;
  c.params = CaseParams(s);
  EXPECT_EQ(DecodeSettings<Cem>(c).population, 8);
  s.population.reset();  // a case of another method
  EXPECT_TRUE(CaseParams(s).empty());
  const ProfileConfig without = ProfileConfig::Parse("[quick]\n", "toy.toml", "quick", {}, {});
  EXPECT_NE(ErrorOf([&] { ReadSettings<Cem>(without); }).find("population"), std::string::npos);
}

TEST(SettingsTest, ACountIsAtMostTheRunsMaxCases) {
  ProfileConfig config = ProfileConfig::Parse("[quick]\nseeds = 5\n", "toy.toml", "quick", {}, {});
  EXPECT_EQ(ReadSettings<Counted>(config).seeds, 5);
  config.set_max_cases(4);
  EXPECT_NE(ErrorOf([&] { ReadSettings<Counted>(config); }).find("seeds"), std::string::npos);
  EXPECT_TRUE(CaseParams(Counted{}).empty());  // config only
}

TEST(SettingsTest, BadCaseParamsNameTheCaseAndKey) {
  Case c;
  c.id = "toy/2";
  c.params = CaseParams(ReadSettings<ToySettings>(ToyConfig()));
  auto decode_with = [&](const std::string& key, Value value) {
    Case bad = c;
    for (auto& [k, v] : bad.params) {
      if (k == key) v = std::move(value);
    }
    return ErrorOf([&] { DecodeSettings<ToySettings>(bad); });
  };
  EXPECT_EQ(decode_with("steps", std::int64_t{5}), "no error");
  // Not range-checked again: Run meets a degenerate case (no step) with a failed row.
  EXPECT_EQ(decode_with("steps", std::int64_t{0}), "no error");
  EXPECT_EQ(decode_with("steps", 5.0), "case 'toy/2': parameter 'steps' must be an integer, got '5'");
  EXPECT_EQ(decode_with("duration_s", std::string("long")),
            "case 'toy/2': parameter 'duration_s' must be a number, got 'long'");
  EXPECT_EQ(decode_with("record", std::int64_t{1}), "case 'toy/2': parameter 'record' must be true or false, got '1'");
  Case missing = c;
  missing.params.erase(missing.params.begin());
  EXPECT_EQ(ErrorOf([&] { DecodeSettings<ToySettings>(missing); }), "case 'toy/2' has no parameter 'height_m'");
}

TEST(SettingsTest, ParamColumnsAreTheCaseFields) {
  const std::vector<Column> columns = ParamColumns<ToySettings>();
  ASSERT_EQ(columns.size(), 8u);
  EXPECT_EQ(columns[0].name, "height_m");
  EXPECT_EQ(columns[0].doc, "this case's drop height");
  EXPECT_EQ(columns[1].type, ColumnType::kText);
  EXPECT_EQ(columns[5].type, ColumnType::kBool);
  EXPECT_EQ(columns[7].name, "damping");
  EXPECT_EQ(columns[7].type, ColumnType::kNumber);
}

TEST(SettingsTest, AListIsNoCaseParameter) {
  EXPECT_NE(ErrorOf([] { CaseParams(Misdeclared{}); }).find("heights_m"), std::string::npos);
  EXPECT_NE(ErrorOf([] { DecodeSettings<Misdeclared>(Case{}); }).find("heights_m"), std::string::npos);
}

TEST(SettingsTest, DescribesEveryField) {
  const std::vector<SettingInfo> info = DescribeSettings<ToySettings>();
  ASSERT_EQ(info.size(), 11u);
  EXPECT_EQ(info[0].key, "heights_m");
  EXPECT_EQ(info[0].type, "list of double");
  EXPECT_EQ(info[0].valid, "(0, 10]");
  EXPECT_EQ(info[0].role, SettingRole::kConfig);
  EXPECT_EQ(info[6].type, "int");
  EXPECT_EQ(info[10].type, "optional double");
  EXPECT_EQ(info[10].role, SettingRole::kConfigAndCase);
}

}  // namespace settings_test
}  // namespace arena
