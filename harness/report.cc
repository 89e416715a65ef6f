#include "harness/report.h"
#include "core/common/strings.h"

#include <spdlog/spdlog.h>
#include <toml++/toml.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/common/error.h"
#include "experiments/registry.h"
#include "models/registry.h"
#include "harness/result_table.h"
#include "harness/run_info.h"
#include "harness/runner.h"

namespace arena {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// A model's name in the report, marking wrapped engines (MuJoCo, DART) as such.
std::string ModelLabel(const std::string& model) {
  for (const ModelInfo& m : Models()) {
    if (m.name == model) return m.capabilities.engine ? model + " (engine)" : model;
  }
  return model;
}

std::string FormatNumber(double x) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.4g", x);
  return buf;
}

// A Markdown table cell: no pipes or line breaks.
std::string Cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string WithUnit(const std::string& value, const std::string& unit) {
  return value.empty() || unit.empty() ? value : value + " " + unit;
}

void WriteFileAtomic(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out) throw Error("cannot write " + tmp);
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) throw Error("cannot rename " + tmp + " to " + path + ": " + ec.message());
}

}  // namespace

std::vector<Claim> LoadClaims(const std::string& path) {
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    const auto& pos = e.source().begin;
    throw ParseError(path, "line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column),
                     std::string(e.description()));
  }
  for (const auto& [k, v] : root) {
    if (k.str() != "claim") {
      throw ParseError(path, std::string(k.str()), "unknown top-level key; expected [[claim]] entries");
    }
  }
  std::vector<Claim> claims;
  const toml::array* list = root.get_as<toml::array>("claim");
  if (list == nullptr) return claims;
  std::set<std::string> ids;
  int index = 0;
  for (const toml::node& node : *list) {
    ++index;
    const std::string where = "claim #" + std::to_string(index) + " (line " +
                              std::to_string(node.source().begin.line) + ")";
    const toml::table* t = node.as_table();
    if (t == nullptr) throw ParseError(path, where, "expected a table ([[claim]])");
    auto field = [&](const char* key, bool required) -> std::string {
      const toml::node* f = t->get(key);
      if (f == nullptr) {
        if (required) throw ParseError(path, where, std::string("missing field '") + key + "'");
        return "";
      }
      auto s = f->value_exact<std::string>();
      if (!s) {
        throw ParseError(path, where, std::string("field '") + key +
                                          "' must be a string (the value as printed)");
      }
      return *s;
    };
    Claim c;
    c.id = field("id", true);
    c.experiment = field("experiment", true);
    c.description = field("description", true);
    c.paper = field("paper", true);
    c.unit = field("unit", false);
    c.source = field("source", false);
    for (const auto& [k, v] : *t) {
      static const std::set<std::string> known = {"id", "experiment", "description", "paper", "unit",
                                                   "source"};
      if (!known.count(std::string(k.str()))) {
        throw ParseError(path, where + " '" + c.id + "'",
                         "unknown field '" + std::string(k.str()) +
                             "'; fields: id, experiment, description, paper, unit, source");
      }
    }
    if (!ids.insert(c.id).second) throw ParseError(path, where, "duplicate claim id '" + c.id + "'");
    claims.push_back(std::move(c));
  }
  return claims;
}

ReportSummary WriteReport(const std::string& results_dir, const std::string& claims_file,
                          const ReportOptions& options) {
  const auto& experiments = options.experiments != nullptr ? *options.experiments : Experiments();
  const std::string plots_dir =
      options.plots_dir.empty() ? SourceDir() + "/plots/out" : options.plots_dir;
  const std::vector<Claim> claims = LoadClaims(claims_file);

  std::map<std::string, const Claim*> by_id;
  for (const Claim& c : claims) by_id[c.id] = &c;

  struct ExperimentState {
    const Experiment* experiment = nullptr;
    bool ran = false;
    std::string run_info;  // from the sidecar
    std::vector<Observation> observations;
  };
  std::map<std::string, ExperimentState> state;
  std::map<std::string, ClaimResult> results;
  std::map<std::string, std::string> summarize_errors;  // experiment -> message
  std::vector<std::string> unknown;
  ReportSummary summary;

  for (const auto& e : experiments) {
    const std::string name = e->name();
    ExperimentState& s = state[name];
    s.experiment = e.get();
    const std::string dir = (fs::path(results_dir) / name).string();
    const std::string csv = dir + "/" + name + ".csv";
    if (!fs::exists(csv)) continue;
    s.ran = true;
    if (std::ifstream in(dir + "/" + name + ".json"); in) {
      try {
        const json sidecar = json::parse(in);
        std::string commit = sidecar.value("git_commit", "unknown").substr(0, 10);
        if (sidecar.value("git_dirty", false)) commit += " (dirty)";
        s.run_info = "profile " + sidecar.value("profile", "?") + ", commit " + commit + ", " +
                     sidecar.value("end", sidecar.value("start", "?")) + ", " +
                     sidecar.value("hostname", "?");
      } catch (const std::exception&) {
        s.run_info = "sidecar unreadable";
      }
    }
    try {
      const ResultTable table = ResultTable::ReadCsv(csv);
      for (ClaimResult& r : e->Summarize(table)) {
        if (!by_id.count(r.id) || by_id[r.id]->experiment != name) {
          unknown.push_back(name + ": " + r.id);
        } else if (results.count(r.id)) {
          unknown.push_back(name + ": " + r.id + " (returned twice)");
        } else {
          results[r.id] = std::move(r);
        }
      }
      s.observations = e->Observe(table);
    } catch (const std::exception& ex) {
      summarize_errors[name] = ex.what();
      summary.errors.push_back(name + ": " + ex.what());
      spdlog::error("report: {}: {}", name, ex.what());
    }
  }
  if (!unknown.empty()) {
    throw Error("Summarize returned claims that are not in " + claims_file +
                " under their experiment: " + Join(unknown) +
                " (add them to the catalogue or fix the id)");
  }

  for (const Claim& c : claims) {
    ReportEntry entry;
    entry.claim = c;
    auto s = state.find(c.experiment);
    if (auto r = results.find(c.id); r != results.end()) {
      entry.verdict = r->second.verdict;
      entry.note = r->second.note;
      entry.ours_value = r->second.ours;
      entry.ours = !r->second.ours_text.empty()   ? r->second.ours_text
                   : std::isfinite(r->second.ours) ? FormatNumber(r->second.ours)
                                                   : "";
      if (entry.verdict == Verdict::kNotRun && entry.note.empty()) entry.note = "model not run";
    } else if (s == state.end()) {
      entry.note = "experiment not implemented yet";
    } else if (!s->second.ran) {
      entry.note = "experiment not run";
    } else if (summarize_errors.count(c.experiment)) {
      entry.note = "summary failed: " + summarize_errors[c.experiment];
    } else {
      entry.note = "not measured: model not implemented yet or not run";
    }
    switch (entry.verdict) {
      case Verdict::kReproduced: ++summary.reproduced; break;
      case Verdict::kDiffers: ++summary.differs; break;
      case Verdict::kNotRun: ++summary.not_run; break;
    }
    summary.entries.push_back(std::move(entry));
  }

  // report.json
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const ReportEntry& e : summary.entries) {
    // A number when the value is numeric, the text otherwise, null when not measured.
    nlohmann::ordered_json ours = nullptr;
    if (std::isfinite(e.ours_value) && e.ours == FormatNumber(e.ours_value)) {
      ours = e.ours_value;
    } else if (!e.ours.empty()) {
      ours = e.ours;
    }
    list.push_back(nlohmann::ordered_json{{"id", e.claim.id},
                    {"experiment", e.claim.experiment},
                    {"description", e.claim.description},
                    {"paper", e.claim.paper},
                    {"source", e.claim.source},
                    {"ours", ours},
                    {"unit", e.claim.unit},
                    {"verdict", std::string(ToString(e.verdict))},
                    {"note", e.note}});
  }
  fs::create_directories(results_dir);
  summary.json_path = (fs::path(results_dir) / "report.json").string();
  WriteFileAtomic(summary.json_path, list.dump(2) + "\n");

  // REPORT.md
  const GitInfo git = QueryGit(SourceDir());
  std::ostringstream md;
  md << "# ContactArena reproduction report\n\n";
  md << "Generated " << IsoTimeUtc(std::chrono::system_clock::now()) << " from commit `"
     << git.commit << "`" << (git.dirty ? " (uncommitted changes)" : "") << ".\n\n";
  md << "## Summary\n\n| verdict | claims |\n|---|---|\n";
  md << "| reproduced | " << summary.reproduced << " |\n";
  md << "| differs | " << summary.differs << " |\n";
  md << "| not_run | " << summary.not_run << " |\n\n";

  // Experiments in registry order, then catalogue experiments that are not registered.
  std::vector<std::string> order;
  for (const auto& e : experiments) order.push_back(e->name());
  for (const Claim& c : claims) {
    if (std::find(order.begin(), order.end(), c.experiment) == order.end()) {
      order.push_back(c.experiment);
    }
  }
  std::vector<std::string> not_run;
  for (const std::string& name : order) {
    auto s = state.find(name);
    const Experiment* exp = s == state.end() ? nullptr : s->second.experiment;
    const bool ran = s != state.end() && s->second.ran;
    if (!ran) {
      not_run.push_back("`" + name + "`" + (exp ? " (" + exp->paper() + "): no results yet — `arena run " + name + "`"
                                                : ": not implemented yet"));
    }
    md << "## " << name;
    if (exp != nullptr) md << " — " << Cell(exp->paper());
    md << "\n\n";
    if (exp != nullptr) md << exp->description() << "\n\n";
    if (ran && !s->second.run_info.empty()) md << "Results: " << s->second.run_info << ".\n\n";
    if (!ran) md << "_Not run._\n\n";
    bool any = false;
    for (const ReportEntry& e : summary.entries) {
      if (e.claim.experiment != name) continue;
      if (!any) md << "| claim | paper | ours | verdict | note |\n|---|---|---|---|---|\n";
      any = true;
      md << "| " << Cell(e.claim.description) << " (`" << Cell(e.claim.id) << "`) | "
         << Cell(WithUnit(e.claim.paper, e.claim.unit))
         << (e.claim.source.empty() ? "" : " (" + Cell(e.claim.source) + ")") << " | "
         << Cell(WithUnit(e.ours, e.claim.unit)) << " | " << ToString(e.verdict) << " | "
         << Cell(e.note) << " |\n";
    }
    if (any) md << "\n";
    if (ran && !s->second.observations.empty()) {
      md << "Observations (not paper claims):\n\n";
      md << "| quantity | model | value | note |\n|---|---|---|---|\n";
      for (const Observation& o : s->second.observations) {
        const std::string value =
            std::isfinite(o.value) ? WithUnit(FormatNumber(o.value), o.unit) : "-";
        md << "| " << Cell(o.quantity) << " | " << Cell(ModelLabel(o.model)) << " | " << Cell(value) << " | "
           << Cell(o.note) << " |\n";
      }
      md << "\n";
    }
    if (ran && exp != nullptr) {
      for (const std::string& plot : exp->plots()) {
        const fs::path png = fs::path(plots_dir) / (plot + ".png");
        if (!fs::exists(png)) continue;
        const std::string link =
            fs::proximate(fs::absolute(png), fs::absolute(results_dir)).generic_string();
        md << "![" << plot << "](" << link << ")\n\n";
      }
    }
  }
  md << "## Experiments not run\n\n";
  if (not_run.empty()) md << "None.\n";
  for (const std::string& line : not_run) md << "- " << line << "\n";
  summary.markdown_path = (fs::path(results_dir) / "REPORT.md").string();
  WriteFileAtomic(summary.markdown_path, md.str());
  return summary;
}

}  // namespace arena
