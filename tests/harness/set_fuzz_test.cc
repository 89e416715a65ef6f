// Issue 14: random --set values of every type (numbers of every magnitude, infinities, NaN,
// strings, booleans, empty, repeated and malformed lists, TOML garbage) for every registered
// experiment's quick-profile keys and its models' options, run in-process through RunExperiment
// on a sweep shrunk to one small case and a short wall-clock budget. Asserts:
//   - no crash, and every error is an arena error (bad input) on one line;
//   - no hang: a run ends within its cases' budgets and a little more;
//   - every row written reads back as its column types (the resume rules);
//   - no row is a success unless it stepped every step: a row without an error, with
//     failed=false (or no failure, where the experiment has no failed column), has steps >= 1
//     and steps_done == steps, no failed step, and finite numbers.
// Seeded: the unit tier draws 300 times from seed 1, the soak tier 2000 times from each of
// ARENA_SOAK seeds; ARENA_FUZZ_SEEDS=<n> runs n seeds, ARENA_FUZZ_DRAWS=<n> draws per seed,
// ARENA_FUZZ_VERBOSE=1 prints each draw before it runs (to find the one that crashed).
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "core/common/error.h"
#include "core/common/random.h"
#include "experiments/registry.h"
#include "harness/csv_writer.h"
#include "harness/runner.h"
#include "tests/experiments/experiment_test_config.h"
#include "models/registry.h"
#include "tests/harness/toy_experiment.h"
#include "tests/soak.h"
#include "tests/test_paths.h"

namespace arena {
namespace set_fuzz_test {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr double kCaseBudget = 0.25;  // s per case
constexpr std::int64_t kMaxCases = 4;  // a draw that asks for more is rejected before it runs

int EnvInt(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && std::atoi(v) > 0 ? std::atoi(v) : fallback;
}

std::string Pick(Rng& rng, const std::vector<std::string>& items) { return items[rng() % items.size()]; }

std::string Number(Rng& rng) {
  switch (rng() % 12) {
    case 0: return "0";
    case 1: return std::to_string(static_cast<int>(rng() % 21) - 10);
    case 2: return Pick(rng, {"inf", "-inf", "nan", "+inf", "-0.0", "1e999", "-1e999", "0x10", "1_000"});
    case 3: return std::to_string(static_cast<long long>(rng() % 2000000001) - 1000000000);
    case 4: return Pick(rng, {"2147483647", "2147483648", "-2147483649", "9223372036854775807",
                              "9223372036854775808", "4294967296"});
    default: {
      // A float of any magnitude, either sign.
      const int exponent = static_cast<int>(rng() % 640) - 320;
      const double mantissa = Uniform(rng, 1.0, 10.0) * (rng() % 4 == 0 ? -1.0 : 1.0);
      char buf[40];
      std::snprintf(buf, sizeof(buf), "%.3ge%d", mantissa, exponent);
      return buf;
    }
  }
}

std::string Word(Rng& rng, const std::vector<std::string>& known) {
  switch (rng() % 6) {
    case 0: return "\"" + Pick(rng, known) + "\"";
    case 1: return Pick(rng, known);  // a bare word
    case 2: return Pick(rng, {"\"\"", "\"two words\"", "\"ünïcode\"", "\"a,b\"", "'literal'", "\"\\t\""});
    case 3: return Pick(rng, {"true", "false", "True", "yes"});
    default: return "\"" + Pick(rng, {"x", "planar", "spatial", "paper", "matched", "cartpole", "cem", "atlas"}) + "\"";
  }
}

std::string Scalar(Rng& rng, const std::vector<std::string>& known) {
  return rng() % 3 == 0 ? Word(rng, known) : Number(rng);
}

// Near a plausible value: `base` (the key's value in the profile, or the option's default)
// scaled by 10^[-2, 2), or a small integer near it.
std::string Plausible(Rng& rng, const std::string& base) {
  char* end = nullptr;
  const double x = std::strtod(base.c_str(), &end);
  if (base.empty() || *end != '\0' || !std::isfinite(x)) return base.empty() ? Number(rng) : base;
  char buf[40];
  if (x == std::floor(x) && std::abs(x) < 1e6 && rng() % 2 == 0) {
    std::snprintf(buf, sizeof(buf), "%lld", static_cast<long long>(x) + static_cast<long long>(rng() % 5) - 2);
  } else {
    std::snprintf(buf, sizeof(buf), "%.4g", x * std::pow(10.0, Uniform(rng, -2.0, 2.0)));
  }
  return buf;
}

std::string Value(Rng& rng, const std::vector<std::string>& known, const std::string& base) {
  switch (rng() % 14) {
    case 0: case 1: case 2: return Number(rng);
    case 10: case 11: case 12: case 13: {
      // The plausible value, as the key takes it (a list stays a list).
      const bool list = !base.empty() && base.front() == '[';
      if (!list) return Plausible(rng, base);
      const std::string inner = base.substr(1, base.find_first_of(",]") - 1);
      return "[" + Plausible(rng, inner) + "]";
    }
    case 3: return Word(rng, known);
    case 4: return "[]";
    case 5: {
      std::string v = Scalar(rng, known);
      return rng() % 2 == 0 ? "[" + v + "]" : "[" + v + ", " + v + "]";
    }
    case 6: return "[" + Scalar(rng, known) + ", " + Scalar(rng, known) + "]";
    case 7: return Pick(rng, {"[1, 2", "[", "]", "[[1]]", "[1, \"a\"]", "{a = 1}", "1979-05-27", "=", "\"", "'",
                              "[[]]", "\\", "#", "1 2", "-", ".", "e5", "1e", "+", "[,]", "[1,,2]"});
    case 8: return "";
    default: {
      std::string garbage;
      const int n = 1 + static_cast<int>(rng() % 8);
      for (int i = 0; i < n; ++i) garbage += static_cast<char>(33 + rng() % 94);
      return garbage;
    }
  }
}

struct Target {
  const Experiment* experiment = nullptr;
  std::vector<std::string> keys;                                // the quick profile's keys
  std::map<std::string, std::string> values;                    // key -> its value in the shrunk profile
  std::vector<std::string> models;                              // its models
  std::map<std::string, std::vector<std::string>> option_keys;  // model -> option keys
  std::map<std::string, std::string> pin_sweep;                 // model -> "<model>.<swept>=<first value>"
  std::map<std::string, std::string> defaults;                  // "<model>.<option>" -> its default
};

std::string KeyOf(const std::string& override_text) { return override_text.substr(0, override_text.find('=')); }

std::vector<Target> Targets() {
  const ModelOptionKeys models = testing_config::RegisteredModels();
  std::vector<Target> targets;
  for (const auto& e : Experiments()) {
    Target t;
    t.experiment = e.get();
    // The smoke profile: the quick one shrunk to small cases by the config's [smoke] table (the
    // model's swept option is pinned separately).
    const ProfileConfig config = ProfileConfig::Load(
        ::arena::testing::SourceDir() + "/experiments/" + e->name() + "/config.toml", kSmokeProfile, {}, models);
    for (const std::string& k : config.Keys()) {
      if (k != "models" && k.rfind("options.", 0) != 0 && k.rfind("sweep.", 0) != 0) t.keys.push_back(k);
    }
    t.models = config.Strings("models");
    for (const std::string& k : t.keys) {
      if (config.Has(k)) {
        try {
          t.values[k] = options_detail::FormatDouble(config.Double(k));
        } catch (const ParseError&) {
          t.values[k] = "";
        }
      }
    }
    for (const std::string& m : t.models) {
      for (const OptionInfo& o : FindModel(m).options()) {
        t.option_keys[m].push_back(o.key);
        t.defaults[m + "." + o.key] = o.default_value;
      }
      const auto [key, values] = config.ModelSweep(m);
      if (!key.empty()) t.pin_sweep[m] = m + "." + key + "=" + values.front();
    }
    targets.push_back(std::move(t));
  }
  return targets;
}

// Whether a row claims success: no error, and failed=false (or, without a failed column, no
// failure text).
bool ClaimsSuccess(const ResultTable& t, int r) {
  if (!t.Text(r, kErrorColumn).empty()) return false;
  if (t.ColumnIndex("failed") >= 0) return t.Text(r, "failed") == "false";
  if (t.ColumnIndex("failure") >= 0) return t.Text(r, "failure").empty();
  return true;
}

// What a success row must satisfy (the harness's part of the outcome checks); "" when it does.
std::string SuccessViolation(const ResultTable& t, int r, bool has_failed_column, bool frequency_grid,
                             const OutcomeLimits& limits) {
  auto has = [&](const char* c) { return t.ColumnIndex(c) >= 0 && !t.Text(r, c).empty(); };
  if (has("steps") && !(t.Number(r, "steps") >= 1)) return "steps " + t.Text(r, "steps") + " < 1";
  if (has("steps") && has("steps_done") && t.Number(r, "steps_done") != t.Number(r, "steps")) {
    return "steps_done " + t.Text(r, "steps_done") + " != steps " + t.Text(r, "steps");
  }
  if (has_failed_column && has("failed_steps") && t.Number(r, "failed_steps") != 0) {
    return "failed_steps " + t.Text(r, "failed_steps");
  }
  if (frequency_grid) {
    for (const std::string& c : t.columns()) {
      const std::string& text = t.Text(r, c);
      const double x = t.Number(r, c);
      if (!text.empty() && std::isnan(x) == false && !std::isfinite(x)) return c + " is " + text;
      if (text == "nan" || text == "-nan") return c + " is nan";
    }
  }
  // The experiment's declared outcome limits, against what the row itself reports: a success row
  // whose body went deeper than the experiment allows has slipped past its outcome checks.
  if (has("max_penetration_m") && !(t.Number(r, "max_penetration_m") <= limits.max_penetration_m)) {
    return "max_penetration_m " + t.Text(r, "max_penetration_m") + " beyond the experiment's limit of " +
           options_detail::FormatDouble(limits.max_penetration_m) + " m";
  }
  return "";
}

// `seeds` seeds of `draws` draws each (ARENA_FUZZ_SEEDS and ARENA_FUZZ_DRAWS override them).
void FuzzSetValues(int default_seeds, int default_draws) {
  const int seeds = EnvInt("ARENA_FUZZ_SEEDS", default_seeds);
  const int draws = EnvInt("ARENA_FUZZ_DRAWS", default_draws);
  const bool verbose = EnvInt("ARENA_FUZZ_VERBOSE", 0) > 0;  // each draw on stderr before it runs
  const std::vector<Target> targets = Targets();
  testing::ScratchDir dir;
  const auto log_level = spdlog::get_level();
  spdlog::set_level(spdlog::level::off);  // thousands of runs: their info and warnings are expected
  int rejected = 0, ran = 0, rows_checked = 0, successes = 0;
  for (int seed = 1; seed <= seeds; ++seed) {
    Rng rng(static_cast<std::uint64_t>(seed));
    for (int draw = 0; draw < draws; ++draw) {
      const Target& t = targets[static_cast<size_t>(draw) % targets.size()];
      const std::string model = Pick(rng, t.models);
      // 1 to 3 random values: an experiment key or an option of the model.
      std::vector<std::string> fuzzed;
      const int n = std::vector<int>{1, 1, 1, 1, 1, 1, 2, 2, 2, 3}[rng() % 10];
      for (int i = 0; i < n; ++i) {
        const bool option = rng() % 2 == 0;
        const std::string key = option ? model + "." + Pick(rng, t.option_keys.at(model)) : Pick(rng, t.keys);
        const std::string base = option ? t.defaults.at(key) : t.values.count(key) ? t.values.at(key) : "";
        std::vector<std::string> known = {base.empty() ? key : base, model, "planar", "spatial", "newton"};
        fuzzed.push_back(key + "=" + Value(rng, known, base));
      }
      std::set<std::string> fuzzed_keys;
      for (const std::string& f : fuzzed) fuzzed_keys.insert(KeyOf(f));
      std::vector<std::string> overrides;
      std::vector<std::string> shrink;
      if (t.pin_sweep.count(model)) shrink.push_back(t.pin_sweep.at(model));
      // One variant of the frequency grids: the planar one, or the spatial one for the engines.
      if (std::find(t.keys.begin(), t.keys.end(), "variants") != t.keys.end()) {
        shrink.push_back(FindModel(model).capabilities.planar ? "variants=[\"planar\"]" : "variants=[\"spatial\"]");
      }
      for (const std::string& s : shrink) {
        if (!fuzzed_keys.count(KeyOf(s))) overrides.push_back(s);
      }
      overrides.insert(overrides.end(), fuzzed.begin(), fuzzed.end());

      RunOptions options;
      options.out_dir = dir.path();
      options.progress = false;
      options.fresh = true;
      options.threads = 1;
      options.models = {model};
      options.profile = kSmokeProfile;
      options.overrides = overrides;
      options.case_timeout_s = kCaseBudget;
      options.max_cases = kMaxCases;
      const std::string what = t.experiment->name() + " --models " + model + " --set " + Join(fuzzed, " --set ");
      if (verbose) std::fprintf(stderr, "set fuzz: seed %d draw %d: %s\n", seed, draw, what.c_str());
      const auto start = Clock::now();
      RunSummary summary;
      try {
        summary = RunExperiment(*t.experiment, options);
      } catch (const Error& e) {
        const bool bad_input = dynamic_cast<const InvalidArgument*>(&e) != nullptr ||
                               dynamic_cast<const ParseError*>(&e) != nullptr ||
                               dynamic_cast<const Unsupported*>(&e) != nullptr;
        EXPECT_TRUE(bad_input) << what << ": not a bad-input error: " << e.what();
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << what << ": " << e.what();
        // The message names a key it was given (the option without its model prefix will do).
        bool names_a_key = false;
        for (const std::string& o : overrides) {
          const std::string key = KeyOf(o);
          names_a_key = names_a_key || std::string(e.what()).find(key.substr(key.find('.') + 1)) != std::string::npos;
        }
        // Or, for a sweep left with no case, why each model was skipped.
        names_a_key = names_a_key || std::string(e.what()).find("the sweep has no cases (") != std::string::npos;
        EXPECT_TRUE(names_a_key) << what << ": the message names no key: " << e.what();
        ++rejected;
        continue;
      } catch (const std::exception& e) {
        ADD_FAILURE() << what << ": " << typeid(e).name() << ": " << e.what();
        continue;
      }
      ++ran;
      const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
      EXPECT_LE(summary.cases_total, kMaxCases) << what;
      EXPECT_LT(elapsed, summary.cases_total * kCaseBudget + 3.0) << what << ": past its budget";
      const ResultTable table = ResultTable::ReadCsv(summary.csv_path);
      const RowFormatter formatter(*t.experiment);
      const bool has_failed = table.ColumnIndex("failed") >= 0;
      const bool grid = table.ColumnIndex("frequency_hz") >= 0;
      for (int r = 0; r < table.num_rows(); ++r) {
        ++rows_checked;
        for (size_t c = 0; c < formatter.columns().size(); ++c) {
          EXPECT_TRUE(CellFits(table.cells()[r][c], formatter.types()[c]))
              << what << ": column " << formatter.columns()[c] << " = '" << table.cells()[r][c] << "'";
        }
        if (!ClaimsSuccess(table, r)) continue;
        ++successes;
        const std::string violation = SuccessViolation(table, r, has_failed, grid, t.experiment->outcome_limits());
        EXPECT_EQ(violation, "") << what << ": row " << table.Text(r, kCaseIdColumn) << " claims success";
      }
    }
  }
  spdlog::set_level(log_level);
  std::printf("set fuzz: %d seeds x %d draws: %d rejected, %d ran (%d rows, %d successes)\n", seeds, draws, rejected,
              ran, rows_checked, successes);
  EXPECT_GT(ran, 0);
  EXPECT_GT(rejected, 0);
}

// The unit tier: every experiment about ten times (a few seconds).
TEST(SetFuzz, RandomSetValuesNeverCrashHangOrWriteAFalseSuccess) { FuzzSetValues(1, 300); }

// The soak tier: 2000 draws for each of ARENA_SOAK seeds (`make soak`: 10).
TEST(SetFuzz, SoakRandomSetValuesNeverCrashHangOrWriteAFalseSuccess) { FuzzSetValues(testing::SoakFactor(), 2000); }

}  // namespace set_fuzz_test
}  // namespace arena
