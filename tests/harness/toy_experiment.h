// A toy experiment and model registry for the harness tests: no simulation, a deterministic
// pseudo-random metric per case (from its seed), a wall-clock timing column, and hooks to make a
// case throw or kill the process.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "experiments/experiment.h"
#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "harness/runner.h"
#include "models/registry.h"
#include "tests/scratch_dir.h"

namespace arena::testing {

/// EXPECT_TRUE(Contains(text, part)) prints the whole text on failure.
inline ::testing::AssertionResult Contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << part << "' not found in: " << text;
}

/// Models "alpha" and "beta" with options timestep, stiffness, damping (defaults 0.01, 1e4, 0.1).
inline const std::vector<ModelInfo>& ToyModels() {
  static const std::vector<ModelInfo> models = [] {
    auto options = [] {
      return std::vector<OptionInfo>{{"timestep", "double", "0.01", "step length", "s", ""},
                                     {"stiffness", "double", "10000", "spring stiffness", "N/m", ""},
                                     {"damping", "double", "0.1", "damping ratio", "", ""}};
    };
    auto make = [](std::shared_ptr<const Scene>, const OptionMap&) -> std::unique_ptr<Simulator> {
      return nullptr;
    };
    std::vector<ModelInfo> list;
    for (const char* name : {"alpha", "beta"}) {
      ModelInfo m;
      m.name = name;
      m.description = std::string("toy model ") + name;
      m.capabilities.spatial = true;
      m.options = options;
      m.make = make;
      list.push_back(m);
    }
    return list;
  }();
  return models;
}

/// Sweep: model x xs x (the model's swept option) x repeats. Columns x, k, rep (params),
/// metric, metric_sq (deterministic from the seed), run_time_s (timing).
class ToyExperiment : public Experiment {
 public:
  std::string name() const override { return "toy"; }
  std::string paper() const override { return "toy paper, Fig. 1"; }
  std::string description() const override { return "a toy sweep for the harness tests"; }
  std::vector<Column> columns() const override {
    return {{"x", "sweep coordinate"},
            {"k", "swept model option", false, ColumnType::kText},
            {"rep", "repeat"},
            {"metric", "pseudo-random metric"},
            {"metric_sq", "metric squared, with a comma, in a note"},
            {"note", "free text", false, ColumnType::kText},
            {"run_time_s", "wall clock", true}};
  }
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override {
    Sweep sweep;
    const auto xs = config.Ints("xs");
    const auto repeats = config.Int("repeats");
    for (const std::string& m : models) {
      const OptionMap fixed = config.ModelOptions(m);
      auto [key, values] = config.ModelSweep(m);
      if (values.empty()) values.push_back("");
      for (std::int64_t x : xs) {
        for (const std::string& v : values) {
          for (std::int64_t r = 0; r < repeats; ++r) {
            Case c;
            c.model = m;
            c.id = m + "/x=" + std::to_string(x) + "/k=" + v + "/r=" + std::to_string(r);
            c.model_options = fixed;
            if (!key.empty()) c.model_options[key] = v;
            c.params = {{"x", x}, {"k", v}, {"rep", r}};
            sweep.cases.push_back(c);
          }
        }
      }
    }
    sweep.notes.push_back("toy: nothing skipped");
    return sweep;
  }
  std::vector<Row> Run(const Case& c) const override {
    calls.fetch_add(1);
    const auto start = std::chrono::steady_clock::now();
    if (kill_at_index >= 0 && c.index == kill_at_index) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      raise(SIGKILL);
    }
    const std::int64_t x = std::get<std::int64_t>(c.params[0].second);
    if (x == throw_at_x) throw std::runtime_error("boom at x=" + std::to_string(x) + ",\nsecond line");
    // splitmix64 of the seed: a metric that depends only on the case.
    std::uint64_t z = c.seed + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    const double metric = static_cast<double>(z >> 11) / 9007199254740992.0;
    std::this_thread::sleep_for(std::chrono::microseconds(200 + (z % 7) * 300));
    Row row;
    row["metric"] = metric;
    row["metric_sq"] = metric * metric;
    row["note"] = std::string("a, \"quoted\" note");
    row["run_time_s"] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return {row};
  }
  std::vector<std::string> plots() const override { return {"toy_fig1", "toy_missing"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override {
    ClaimResult r;
    r.id = "toy.mean_metric";
    double sum = 0.0;
    int n = 0;
    for (int i = 0; i < table.num_rows(); ++i) {
      const double v = table.Number(i, "metric");
      if (v == v) {
        sum += v;
        ++n;
      }
    }
    r.ours = n > 0 ? sum / n : 0.0;
    r.values["rows"] = table.num_rows();
    ClaimResult rows{"toy.rows"};  // an observation in the report tests' catalogue
    rows.ours = table.num_rows();
    std::vector<ClaimResult> out = {r, rows};
    if (!extra_claim.empty()) {
      out.emplace_back();
      out.back().id = extra_claim;
    }
    return out;
  }
  std::vector<Observation> Observe(const ResultTable& table) const override {
    return {{"rows", "alpha", static_cast<double>(table.num_rows()), "", "all rows"}};
  }

  int kill_at_index = -1;        // raise(SIGKILL) when running this case
  std::int64_t throw_at_x = -1;  // throw for cases with this x
  std::string extra_claim;       // an extra ClaimResult id returned by Summarize (ours NaN)
  mutable std::atomic<int> calls{0};
};

inline const char* kToyConfig = R"(# toy config
[quick]
models = ["alpha", "beta"]
xs = [1, 2, 3, 4, 5]
repeats = 2

[quick.options.alpha]
damping = 0.5

[quick.sweep.alpha]
stiffness = [1e3, 1e4]

[paper]
models = ["alpha"]
xs = [1, 2, 3, 4, 5, 6, 7, 8]
repeats = 3

[paper.sweep.alpha]
stiffness = [1e3, 1e4, 1e5]
)";

/// A quiet run of the toys: config in <root>/configs, results in <root>/<out>.
inline RunOptions ToyRunOptions(const std::string& root, const std::string& out = "results") {
  RunOptions o;
  o.out_dir = root + "/" + out;
  o.config_dir = root + "/configs";
  o.progress = false;
  o.model_registry = &ToyModels();
  return o;
}

inline void WriteFile(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// The table without its timing columns (run_time_s).
inline std::vector<std::vector<std::string>> WithoutTiming(const ResultTable& table) {
  const int t = table.ColumnIndex("run_time_s");
  std::vector<std::vector<std::string>> out;
  for (auto row : table.cells()) {
    if (t >= 0) row.erase(row.begin() + t);
    out.push_back(row);
  }
  return out;
}

}  // namespace arena::testing
