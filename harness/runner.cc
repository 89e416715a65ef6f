#include "harness/runner.h"
#include "core/common/strings.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/file.h>
#include <unistd.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/common/error.h"
#include "harness/config.h"
#include "harness/csv_writer.h"
#include "harness/progress.h"
#include "harness/result_table.h"
#include "harness/run_info.h"

namespace arena {
namespace fs = std::filesystem;
using json = nlohmann::ordered_json;  // the sidecar keeps its keys in a readable order

namespace {

// An exclusive lock on a file, released when the object dies.
class FolderLock {
 public:
  explicit FolderLock(const std::string& path) {
    fd_ = ::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
    if (fd_ < 0) throw Error("cannot open " + path + ": " + std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd_);
      throw Error("another `arena run` is writing " + fs::path(path).parent_path().string() +
                  " (lock " + path + " is held)");
    }
  }
  ~FolderLock() { ::close(fd_); }
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int fd_ = -1;
};

// "key = value " -> "key=value"; the first dotted segment of the key.
struct Override {
  std::string text;
  std::string head;
};

Override Normalize(const std::string& raw) {
  const auto eq = raw.find('=');
  const std::string key = Trim(raw.substr(0, eq));
  Override o;
  o.text = eq == std::string::npos ? key : key + "=" + Trim(raw.substr(eq + 1));
  o.head = key.substr(0, key.find('.'));
  return o;
}

// Whether two option values are the same (numerically when both are numbers).
bool SameOptionValue(const std::string& a, const std::string& b) {
  if (a == b) return true;
  try {
    return options_detail::ParseDouble(a, "") == options_detail::ParseDouble(b, "");
  } catch (const InvalidArgument&) {
    return false;
  }
}

// Rows read back from E.csv or E.partial.csv, checked against the current header.
ResultTable ReadExisting(const std::string& path, const std::vector<std::string>& columns) {
  ResultTable table = ResultTable::ReadCsv(path);
  if (table.columns() != columns) {
    throw Error(path + " has columns (" + Join(table.columns()) +
                ") but the experiment now writes (" + Join(columns) +
                "); rerun with --fresh to discard the old results");
  }
  return table;
}

// Reads the partial file of a killed run. A run killed in the middle of a write may leave a
// truncated last line: it is cut off, together with the complete rows of its case just before
// it (a case's rows are written in one block, so its other rows may be missing), and the file
// is rewritten clean. Returns nullopt when nothing usable is left.
std::optional<ResultTable> ReadPartial(const std::string& path,
                                       const std::vector<std::string>& columns) {
  std::string text;
  {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buf;
    buf << in.rdbuf();
    text = buf.str();
  }
  const bool truncated = !text.empty() && text.back() != '\n';
  std::string fragment;
  if (truncated) {
    const auto last_newline = text.rfind('\n');
    fragment = last_newline == std::string::npos ? text : text.substr(last_newline + 1);
    text = last_newline == std::string::npos ? "" : text.substr(0, last_newline + 1);
  }
  if (text.empty()) {
    fs::remove(path);
    return std::nullopt;
  }
  ResultTable table = ResultTable::ParseCsv(text, path);
  if (table.columns() != columns) {
    throw Error(path + " has columns (" + Join(table.columns()) +
                ") but the experiment now writes (" + Join(columns) +
                "); rerun with --fresh to discard the old results");
  }
  if (truncated) {
    auto cells = table.cells();
    // The cut-off line's case id: its first field, or a prefix of it when the cut came earlier.
    if (!fragment.empty() && fragment.front() == '"') fragment.erase(0, 1);
    const auto comma = fragment.find(',');
    const std::string id_or_prefix = fragment.substr(0, comma);
    if (!cells.empty()) {
      const std::string& last = cells.back()[0];
      const bool same_case = comma != std::string::npos ? last == id_or_prefix
                                                        : last.rfind(id_or_prefix, 0) == 0;
      if (same_case) {
        const std::string last_case = last;
        std::erase_if(cells, [&](const auto& row) { return row[0] == last_case; });
      }
    }
    spdlog::warn("{}: the last write was cut off; its case will be rerun", path);
    table = ResultTable(columns, std::move(cells));
    WriteCsvAtomic(path, columns, table.cells());
  }
  return table;
}

std::optional<json> ReadSidecar(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  try {
    return json::parse(in);
  } catch (const json::exception& e) {
    spdlog::warn("{}: unreadable sidecar ({}); its history is lost", path, e.what());
    return std::nullopt;
  }
}

void WriteJsonAtomic(const std::string& path, const json& j) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    out << j.dump(2) << '\n';
    if (!out) throw Error("cannot write " + tmp);
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) throw Error("cannot rename " + tmp + " to " + path + ": " + ec.message());
}

// Orders model names as the config lists them, then as the registry does: `--models b,a` and
// `--models a,b` give the same sweep and the same bytes.
std::vector<std::string> CanonicalOrder(std::vector<std::string> models,
                                        const std::vector<std::string>& config_models,
                                        const std::vector<ModelInfo>& registry) {
  auto rank = [&](const std::string& m) {
    auto c = std::find(config_models.begin(), config_models.end(), m);
    const long in_config = c == config_models.end() ? LONG_MAX : c - config_models.begin();
    long in_registry = LONG_MAX;
    for (size_t i = 0; i < registry.size(); ++i) {
      if (registry[i].name == m) in_registry = static_cast<long>(i);
    }
    return std::make_tuple(in_config, in_registry, m);
  };
  std::sort(models.begin(), models.end(),
            [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
  models.erase(std::unique(models.begin(), models.end()), models.end());
  return models;
}

struct ResumeState {
  std::vector<std::vector<std::string>> final_rows;    // from E.csv
  std::vector<std::vector<std::string>> partial_rows;  // from E.partial.csv
  std::set<std::string> done;                          // case ids present in either
  std::set<std::string> models;                        // models present in either
};

}  // namespace

std::string ExperimentResultsDir(const std::string& out_dir, const std::string& experiment) {
  const std::string root = out_dir.empty() ? SourceDir() + "/results" : out_dir;
  return (fs::path(root) / experiment).string();
}

namespace {
// One line per option map, for de-duplicating validation.
std::string OptionsKey(const OptionMap& options) {
  std::string key;
  for (const auto& [k, v] : options) key += k + "=" + v + ";";
  return key;
}
}  // namespace

RunSummary RunExperiment(const Experiment& experiment, const RunOptions& options) {
  const auto wall_start = std::chrono::system_clock::now();
  const auto steady_start = std::chrono::steady_clock::now();
  const std::string name = experiment.name();
  const std::vector<ModelInfo>& registry =
      options.model_registry != nullptr ? *options.model_registry : Models();
  std::vector<std::string> registered;
  for (const ModelInfo& m : registry) registered.push_back(m.name);
  auto find_model = [&](const std::string& model) -> const ModelInfo* {
    for (const ModelInfo& m : registry) {
      if (m.name == model) return &m;
    }
    return nullptr;
  };
  auto option_keys = [](const ModelInfo& m) {
    std::vector<std::string> keys;
    for (const OptionInfo& o : m.options()) keys.push_back(o.key);
    return keys;
  };

  // --- Configuration and sweep: every input error surfaces before anything runs. ---
  if (options.profile.empty()) throw InvalidArgument("empty profile name");
  if (options.threads < 0) throw InvalidArgument("--threads must be >= 0");
  std::vector<Override> overrides;
  for (const std::string& raw : options.overrides) {
    Override o = Normalize(raw);
    if (const ModelInfo* m = find_model(o.head)) {
      const std::string key = o.text.substr(0, o.text.find('='));
      const std::string option = key.substr(key.find('.') + 1);
      const auto keys = option_keys(*m);
      if (key.find('.') != std::string::npos &&
          std::find(keys.begin(), keys.end(), option) == keys.end()) {
        throw InvalidArgument("--set " + raw + ": unknown option '" + option + "' for model " +
                              m->name + "; valid options: " + Join(keys));
      }
    }
    overrides.push_back(o);
  }
  const std::string config_dir =
      options.config_dir.empty() ? SourceDir() + "/experiments/configs" : options.config_dir;
  const std::string config_file = (fs::path(config_dir) / (name + ".toml")).string();
  if (!fs::exists(config_file)) {
    throw ParseError(config_file, "", "no config file for experiment '" + name + "'");
  }
  ProfileConfig config =
      ProfileConfig::Load(config_file, options.profile, options.overrides, registered);

  std::vector<std::string> config_models;
  if (config.Has("models")) config_models = config.Strings("models");
  std::vector<std::string> models = options.models.empty() ? config_models : options.models;
  if (models.empty()) {
    throw InvalidArgument("experiment '" + name + "': no models to run (the config's [" +
                          options.profile + "] has no `models` and none were given)");
  }
  for (const std::string& m : models) {
    if (find_model(m) == nullptr) {
      throw InvalidArgument("unknown model '" + m + "'" +
                            (options.models.empty() ? " in " + config_file : std::string()) +
                            "; registered models: " + Join(registered));
    }
  }
  models = CanonicalOrder(models, config_models, registry);
  for (const Override& o : overrides) {
    if (find_model(o.head) != nullptr &&
        std::find(models.begin(), models.end(), o.head) == models.end()) {
      spdlog::warn("{}: --set {} has no effect: model {} is not run", name, o.text, o.head);
    }
  }

  Sweep sweep = experiment.Expand(config, models);
  if (auto unread = config.UnreadKeys(models); !unread.empty()) {
    throw ParseError(config_file, "[" + options.profile + "]",
                     "keys never read by experiment '" + name + "' (misspelled?): " + Join(unread));
  }

  RowFormatter formatter(experiment);
  {
    std::set<std::string> ids;
    std::set<std::string> validated;  // distinct (model, options) already validated
    for (size_t i = 0; i < sweep.cases.size(); ++i) {
      Case& c = sweep.cases[i];
      c.index = static_cast<int>(i);
      if (c.seed == 0) c.seed = DeriveSeed(name, c.id);
      if (c.id.empty()) throw InvalidArgument(name + ": case " + std::to_string(i) + " has no id");
      if (!ids.insert(c.id).second) throw InvalidArgument(name + ": duplicate case id '" + c.id + "'");
      const ModelInfo* m = find_model(c.model);
      if (m == nullptr) {
        throw InvalidArgument(name + ": case '" + c.id + "' uses unknown model '" + c.model +
                              "'; registered models: " + Join(registered));
      }
      const auto keys = option_keys(*m);
      for (const auto& [key, value] : c.model_options) {
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
          throw InvalidArgument(name + ": case '" + c.id + "': unknown option '" + key +
                                "' for model " + c.model + " (from " + config_file + " [" +
                                options.profile + ".options." + c.model + "] or [" +
                                options.profile + ".sweep." + c.model +
                                "]); valid options: " + Join(keys));
        }
      }
      // Values too (non-positive timestep, unparsable number): fail before anything runs.
      if (m->validate && validated.insert(c.model + "\n" + OptionsKey(c.model_options)).second) {
        try {
          m->validate(c.model_options);
        } catch (const InvalidArgument& e) {
          throw InvalidArgument(name + ": case '" + c.id + "': " + e.what());
        }
      }
      for (const auto& [param, value] : c.params) {
        if (!formatter.HasColumn(param) || param == kCaseIdColumn || param == kModelColumn ||
            param == kErrorColumn) {
          throw InvalidArgument(name + ": case '" + c.id + "' has param '" + param +
                                "', which is not one of the experiment's columns");
        }
      }
    }
  }
  for (const std::string& note : sweep.notes) spdlog::info("{}: {}", name, note);

  // --- Output folder, lock, previous results. ---
  const std::string dir = ExperimentResultsDir(options.out_dir, name);
  fs::create_directories(dir);
  FolderLock lock(dir + "/.lock");
  const std::string csv_path = dir + "/" + name + ".csv";
  const std::string partial_path = dir + "/" + name + ".partial.csv";
  const std::string sidecar_path = dir + "/" + name + ".json";

  std::vector<std::string> experiment_overrides;
  std::map<std::string, std::vector<std::string>> model_overrides;
  for (const std::string& m : models) model_overrides[m];
  for (const Override& o : overrides) {
    if (find_model(o.head) != nullptr) {
      model_overrides[o.head].push_back(o.text);
    } else {
      experiment_overrides.push_back(o.text);
    }
  }
  std::sort(experiment_overrides.begin(), experiment_overrides.end());
  for (auto& [m, list] : model_overrides) std::sort(list.begin(), list.end());

  const bool have_results = fs::exists(csv_path) || fs::exists(partial_path);
  std::optional<json> previous = have_results ? ReadSidecar(sidecar_path) : std::nullopt;
  if (options.fresh) {
    if (have_results) spdlog::warn("{}: --fresh: discarding the results in {}", name, dir);
    fs::remove(csv_path);
    fs::remove(partial_path);
    fs::remove(sidecar_path);
    previous.reset();
  } else if (previous) {
    std::vector<std::string> problems;
    const std::string prev_profile = previous->value("profile", "");
    if (prev_profile != options.profile) {
      problems.push_back("they are of profile '" + prev_profile + "', this run is '" +
                         options.profile + "'");
    }
    const auto prev_exp = previous->value("experiment_overrides", std::vector<std::string>{});
    if (prev_exp != experiment_overrides) {
      problems.push_back("they were run with --set " +
                         (prev_exp.empty() ? "(none)" : Join(prev_exp, " ")) + ", this run with " +
                         (experiment_overrides.empty() ? "(none)" : Join(experiment_overrides, " ")));
    }
    const auto prev_models = previous->value("model_overrides",
                                             std::map<std::string, std::vector<std::string>>{});
    for (const std::string& m : models) {
      auto it = prev_models.find(m);
      if (it != prev_models.end() && it->second != model_overrides[m]) {
        problems.push_back("model " + m + " was run with --set " +
                           (it->second.empty() ? "(none)" : Join(it->second, " ")) +
                           ", this run with " +
                           (model_overrides[m].empty() ? "(none)" : Join(model_overrides[m], " ")));
      }
    }
    if (!problems.empty()) {
      // Not resumable: keep the old results out of the way rather than mixing or deleting them.
      std::string stamp = previous->value("start", IsoTimeUtc(wall_start));
      std::erase_if(stamp, [](char ch) { return ch == ':' || ch == '-'; });
      const std::string base = stamp + "-" + (prev_profile.empty() ? "unknown" : prev_profile);
      fs::path archive = fs::path(dir) / "superseded" / base;
      for (int n = 2; fs::exists(archive); ++n) {
        archive = fs::path(dir) / "superseded" / (base + "-" + std::to_string(n));
      }
      fs::create_directories(archive);
      for (const std::string& f : {csv_path, partial_path, sidecar_path}) {
        if (fs::exists(f)) fs::rename(f, archive / fs::path(f).filename());
      }
      spdlog::warn("{}: existing results are not resumable ({}); moved them to {}", name,
                   Join(problems, "; "), archive.string());
      previous.reset();
    }
  } else if (have_results) {
    spdlog::warn("{}: no readable sidecar next to the existing results; resuming without "
                 "checking their profile and overrides", name);
  }

  const std::vector<std::string>& columns = formatter.columns();
  ResumeState resume;
  if (fs::exists(csv_path)) resume.final_rows = ReadExisting(csv_path, columns).cells();
  if (fs::exists(partial_path)) {
    if (auto partial = ReadPartial(partial_path, columns)) resume.partial_rows = partial->cells();
  }
  const size_t error_col = columns.size() - 1;
  if (options.retry_failed) {
    std::set<std::string> failed;
    for (const auto* rows : {&resume.final_rows, &resume.partial_rows}) {
      for (const auto& row : *rows) {
        if (!row[error_col].empty()) failed.insert(row[0]);
      }
    }
    if (!failed.empty()) {
      for (auto* rows : {&resume.final_rows, &resume.partial_rows}) {
        std::erase_if(*rows, [&](const auto& row) { return failed.count(row[0]) > 0; });
      }
      if (fs::exists(partial_path)) WriteCsvAtomic(partial_path, columns, resume.partial_rows);
      spdlog::info("{}: --retry-failed: rerunning {} failed cases", name, failed.size());
    }
  }
  for (const auto* rows : {&resume.final_rows, &resume.partial_rows}) {
    for (const auto& row : *rows) {
      resume.done.insert(row[0]);
      resume.models.insert(row[1]);
    }
  }

  std::vector<const Case*> todo;
  for (const Case& c : sweep.cases) {
    if (!resume.done.count(c.id)) todo.push_back(&c);
  }

  RunSummary summary;
  summary.csv_path = csv_path;
  summary.sidecar_path = sidecar_path;
  summary.cases_total = static_cast<int>(sweep.cases.size());
  summary.cases_skipped = summary.cases_total - static_cast<int>(todo.size());
  summary.notes = sweep.notes;

  tbb::task_arena arena(options.threads > 0 ? options.threads : tbb::task_arena::automatic);
  arena.initialize();
  summary.threads = arena.max_concurrency();

  // --- Sidecar. ---
  const GitInfo git = QueryGit(SourceDir());
  const MachineInfo machine = QueryMachine();
  json sidecar;
  sidecar["experiment"] = name;
  sidecar["paper"] = experiment.paper();
  sidecar["status"] = "running";
  sidecar["git_commit"] = git.commit;
  sidecar["git_dirty"] = git.dirty;
  sidecar["hostname"] = machine.hostname;
  sidecar["cpu"] = machine.cpu;
  sidecar["cores"] = machine.cores;
  sidecar["compiler"] = machine.compiler;
  sidecar["build_type"] = machine.build_type;
  sidecar["config_file"] = config_file;
  sidecar["profile"] = options.profile;
  sidecar["threads"] = summary.threads;
  sidecar["models"] = models;
  sidecar["overrides"] = options.overrides;
  sidecar["experiment_overrides"] = experiment_overrides;
  {
    // Accumulated over every run whose rows the CSV holds: checked by the next resume.
    auto all = previous ? previous->value("model_overrides",
                                          std::map<std::string, std::vector<std::string>>{})
                        : std::map<std::string, std::vector<std::string>>{};
    for (const auto& [m, list] : model_overrides) all[m] = list;
    sidecar["model_overrides"] = all;
  }
  {
    // Options differing from the model's default; a swept option lists its distinct values.
    json non_default = json::object();
    for (const std::string& m : models) {
      std::map<std::string, std::string> defaults;
      for (const OptionInfo& o : find_model(m)->options()) defaults[o.key] = o.default_value;
      std::map<std::string, std::vector<std::string>> values;
      for (const Case& c : sweep.cases) {
        if (c.model != m) continue;
        for (const auto& [key, value] : c.model_options) {
          if (SameOptionValue(value, defaults[key])) continue;
          auto& list = values[key];
          if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
        }
      }
      json entry = json::object();
      for (const auto& [key, list] : values) {
        entry[key] = list.size() == 1 ? json(list[0]) : json(list);
      }
      non_default[m] = entry;
    }
    sidecar["model_options"] = non_default;
  }
  sidecar["notes"] = sweep.notes;
  {
    json seeds = json::object();
    for (const Case& c : sweep.cases) seeds[c.id] = c.seed;
    sidecar["seeds"] = seeds;
  }
  sidecar["cases"] = {{"total", summary.cases_total},
                      {"run", 0},
                      {"skipped", summary.cases_skipped},
                      {"failed", 0}};
  sidecar["start"] = IsoTimeUtc(wall_start);
  sidecar["end"] = nullptr;
  sidecar["duration_s"] = nullptr;
  {
    json history = json::array();
    if (previous) {
      if (previous->contains("previous_runs") && (*previous)["previous_runs"].is_array()) {
        history = (*previous)["previous_runs"];
      }
      json last = *previous;
      last.erase("previous_runs");
      last.erase("seeds");
      history.push_back(last);
    }
    sidecar["previous_runs"] = history;
  }
  WriteJsonAtomic(sidecar_path, sidecar);

  if (summary.cases_skipped > 0) {
    spdlog::info("{}: {} of {} cases already done (resume)", name, summary.cases_skipped,
                 summary.cases_total);
  }

  // --- Run. ---
  std::atomic<int> failed{0};
  std::string first_failure;
  if (!todo.empty()) {
    CsvAppender partial(partial_path, columns);
    std::mutex write_mutex;
    Progress progress(name, static_cast<int>(todo.size()), options.progress);
    auto run_case = [&](const Case& c) {
      std::string lines;
      bool case_failed = false;
      std::string message;
      try {
        const std::vector<Row> rows = experiment.Run(c);
        if (rows.empty()) throw Error("Run returned no rows");
        lines = formatter.Format(c, rows);
      } catch (const std::exception& e) {
        message = e.what();
        case_failed = true;
      } catch (...) {
        message = "unknown exception";
        case_failed = true;
      }
      if (case_failed) lines = formatter.FormatError(c, message);
      std::lock_guard<std::mutex> guard(write_mutex);
      partial.Append(lines);
      if (case_failed) {
        if (failed++ == 0) first_failure = "case '" + c.id + "': " + message;
      }
      progress.CaseDone(case_failed);
    };
    arena.execute([&] {
      tbb::parallel_for(
          tbb::blocked_range<size_t>(0, todo.size(), 1),
          [&](const tbb::blocked_range<size_t>& range) {
            for (size_t i = range.begin(); i != range.end(); ++i) run_case(*todo[i]);
          },
          tbb::simple_partitioner());
    });
  }
  summary.cases_run = static_cast<int>(todo.size());
  summary.cases_failed = failed.load();

  // --- Final table: old rows + new rows, sorted by case index. ---
  std::vector<std::vector<std::string>> rows = resume.final_rows;
  if (fs::exists(partial_path)) {
    const ResultTable partial = ReadExisting(partial_path, columns);
    rows.insert(rows.end(), partial.cells().begin(), partial.cells().end());
  }
  std::map<std::string, size_t> order;
  for (const Case& c : sweep.cases) order[c.id] = static_cast<size_t>(c.index);
  {
    // Rows of models run before but not now are placed as a sweep of every model would place
    // them, so the bytes do not depend on the order in which models were added.
    std::vector<std::string> all_models = models;
    for (const std::string& m : resume.models) {
      if (find_model(m) != nullptr && std::find(models.begin(), models.end(), m) == models.end()) {
        all_models.push_back(m);
      }
    }
    if (all_models.size() > models.size()) {
      try {
        all_models = CanonicalOrder(all_models, config_models, registry);
        ProfileConfig again =
            ProfileConfig::Load(config_file, options.profile, options.overrides, registered);
        const Sweep full = experiment.Expand(again, all_models);
        order.clear();
        for (size_t i = 0; i < full.cases.size(); ++i) order.emplace(full.cases[i].id, i);
      } catch (const std::exception& e) {
        spdlog::warn("{}: cannot expand the sweep of every model in the table ({}); rows of "
                     "models not run now are written last", name, e.what());
      }
    }
  }
  std::vector<size_t> keys(rows.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    auto it = order.find(rows[r][0]);
    keys[r] = it == order.end() ? order.size() : it->second;
  }
  std::vector<size_t> perm(rows.size());
  for (size_t r = 0; r < perm.size(); ++r) perm[r] = r;
  std::stable_sort(perm.begin(), perm.end(), [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  std::vector<std::vector<std::string>> sorted;
  sorted.reserve(rows.size());
  for (size_t r : perm) sorted.push_back(std::move(rows[r]));
  WriteCsvAtomic(csv_path, columns, sorted);
  fs::remove(partial_path);

  const auto wall_end = std::chrono::system_clock::now();
  summary.duration_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - steady_start).count();
  sidecar["status"] = "complete";
  sidecar["cases"] = {{"total", summary.cases_total},
                      {"run", summary.cases_run},
                      {"skipped", summary.cases_skipped},
                      {"failed", summary.cases_failed}};
  sidecar["end"] = IsoTimeUtc(wall_end);
  sidecar["duration_s"] = summary.duration_s;
  WriteJsonAtomic(sidecar_path, sidecar);

  spdlog::info("{}: {} cases ({} run, {} already done, {} failed) in {:.1f} s -> {}", name,
               summary.cases_total, summary.cases_run, summary.cases_skipped, summary.cases_failed,
               summary.duration_s, csv_path);
  if (summary.cases_failed > 0) {
    spdlog::warn("{}: {} cases failed (error column of {}); first: {}", name,
                 summary.cases_failed, csv_path, first_failure);
  }
  return summary;
}

}  // namespace arena
