// An experiment = a config (experiments/<name>/config.toml, profiles `quick`, `paper` and `smoke`) plus
// a pure function Run(const Case&) -> rows. The harness expands the sweep, schedules cases with
// TBB, writes rows and sidecars, and asks the experiment to summarize its table into claims.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/common/options.h"
#include "experiments/common/meters/outcome_limits.h"

namespace arena {

class ProfileConfig;  // config/profile_config.h
class ResultTable;    // experiments/result_table.h

/// A CSV cell. monostate is an empty cell.
using Value = std::variant<std::monostate, bool, std::int64_t, double, std::string>;
std::string ToText(const Value& value);

/// What a column's cells hold. The harness checks every value a row sets against it when it
/// writes the row, and every cell it reads back when it resumes: a cell that does not parse as
/// its type (failed=maybe, max_penetration_m=notanumber) makes its case run again. An empty cell
/// is allowed in every column.
enum class ColumnType {
  kNumber,  // an int64 or a double Value; written as the shortest text that reads back ("nan", "inf")
  kBool,    // a bool Value: true / false
  kText,    // anything (a string, or a param that is a number for some cases and text for others)
};
std::string_view ToString(ColumnType type);

struct Column {
  std::string name;      // snake_case, unit as suffix: step_time_s, penetration_m
  std::string doc;
  bool timing = false;   // wall-clock: varies between runs, excluded from determinism checks
  ColumnType type = ColumnType::kNumber;
};

/// Whether `value` may be written to a column of `type` (monostate always may).
bool Fits(const Value& value, ColumnType type);
/// Whether a cell's text read back from a CSV is a value of `type` ("" always is).
bool CellFits(const std::string& text, ColumnType type);

struct Case {
  int index = 0;                 // position in the expanded sweep: the final CSV's sort key
  std::string id;                // stable and unique: "penalty/planar/f=10/k=1e4/ic=3"
  std::string model;             // registry name
  OptionMap model_options;       // passed to MakeSimulator; includes "timestep"
  std::vector<std::pair<std::string, Value>> params;  // sweep coordinates, written as columns
  std::uint64_t seed = 0;        // DeriveSeed(experiment, id) unless the experiment chooses
};

/// Column name -> value. Columns the row does not set are written empty.
using Row = std::map<std::string, Value>;

struct Sweep {
  std::vector<Case> cases;
  std::vector<std::string> notes;  // e.g. "mujoco: skipped variant planar (2D shapes unsupported)"
};

/// What an experiment measured for one claim of experiments/<name>/claims.toml (`id`). Summarize only
/// measures: the report judges the result with the claim's criterion (harness/claim_criterion.h),
/// which reads `ours` and the named `values`.
struct ClaimResult {
  ClaimResult() = default;
  explicit ClaimResult(std::string claim_id) : id(std::move(claim_id)) {}
  std::string id;
  double ours = std::numeric_limits<double>::quiet_NaN();
  std::string ours_text;   // shown instead of the number when it says more ("faster on 2 of 3 problems")
  std::map<std::string, double> values;  // other measured numbers a criterion may name ("compared")
  std::string note;        // how it was measured and the numbers behind ours
};

/// A measured quantity the report shows beside the claims: a model's own result on the
/// experiment that is not a paper claim (e.g. the penalty baseline's failure rate).
struct Observation {
  std::string quantity;    // "failure_rate"
  std::string model;
  double value = std::numeric_limits<double>::quiet_NaN();
  std::string unit;
  std::string note;        // conditions: "variant planar, stiffness 1e4 N/m"
};

/// A command an experiment offers besides its cases, for work that is no case: it may write
/// files and take long (tpush's planner writes the sequences its cases replay). The CLI offers
/// each as `arena <name> [--<key> <value> ...]` without knowing what it does.
struct ExperimentCommand {
  struct Option {
    std::string key;            // the CLI's --<key>
    std::string default_value;  // text, as given on the command line
    std::string help;
    bool source_path = false;   // the default is a path relative to the repository's root
  };
  std::string name;             // CLI subcommand, unique over the registry and the CLI's own
  std::string description;      // one line
  std::vector<Option> options;
  /// Runs with every option's value (its default where not given), sending progress lines to
  /// `log`; returns the exit code. Throws InvalidArgument for a bad value.
  std::function<int(const std::map<std::string, std::string>& values, const std::function<void(const std::string&)>& log)>
      run;
};

class Experiment {
 public:
  virtual ~Experiment() = default;
  virtual std::string name() const = 0;
  virtual std::string paper() const = 0;        // "seed 000 (Silico) Fig. 9"
  virtual std::string description() const = 0;
  /// Every column the rows may set, in CSV order (after the harness's case_id and model, and
  /// before its error column). Case params are columns too.
  virtual std::vector<Column> columns() const = 0;
  /// Expands one profile into cases for `models` (the config's list unless the CLI overrides).
  /// Reads only through `config`; a key it never reads is reported as unknown.
  virtual Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const = 0;
  /// Runs one case. Pure: no file I/O, no global state, no threads; deterministic given
  /// the case. Throwing is allowed: the harness records the message as a failed row.
  virtual std::vector<Row> Run(const Case& c) const = 0;
  /// True for timing experiments: the runner then runs their cases on one thread.
  virtual bool serial() const { return false; }
  /// Plot scripts (names under plots/, without .py) that read this experiment's CSV.
  virtual std::vector<std::string> plots() const { return {}; }
  /// Measures the claims it can from the finished table (rows of every model run so far);
  /// the report judges them by their criteria in experiments/<name>/claims.toml.
  virtual std::vector<ClaimResult> Summarize(const ResultTable& table) const = 0;
  /// What a run may not do (a body deeper in another than this, energy gained, escaped); the
  /// experiment fails such rows itself, and the harness's tests check that no success row breaks
  /// them. Default: only the escape radius.
  virtual OutcomeLimits outcome_limits() const { return {}; }
  /// Commands this experiment offers besides its cases (none by default).
  virtual std::vector<ExperimentCommand> commands() const { return {}; }
  /// Model results worth a line in the report that are not paper claims.
  virtual std::vector<Observation> Observe(const ResultTable& table) const {
    (void)table;
    return {};
  }
};

/// A 64-bit seed from (experiment, key): identical on every machine and thread count.
std::uint64_t DeriveSeed(std::string_view experiment, std::string_view key);

}  // namespace arena
