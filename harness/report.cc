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
#include "experiments/result_table.h"
#include "harness/run_info.h"
#include "harness/runner.h"

namespace arena {
namespace fs = std::filesystem;

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
std::string MarkdownCell(const std::string& s) {
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

std::string_view ToString(Verdict verdict) {
  switch (verdict) {
    case Verdict::kReproduced: return "reproduced";
    case Verdict::kDiffers: return "differs";
    case Verdict::kObserved: return "observed";
    case Verdict::kNotRun: return "not_run";
    case Verdict::kNotDecided: return "not_decided";
  }
  return "?";
}

Judgement JudgeResults(const std::string& results_dir, const std::string& claims_file, const ReportOptions& options) {
  const auto& experiments = options.experiments != nullptr ? *options.experiments : Experiments();
  Judgement judgement;
  judgement.claims = LoadClaims(claims_file, ExperimentNames(experiments));
  const std::vector<Claim>& claims = judgement.claims;

  std::map<std::string, const Claim*> by_id;
  for (const Claim& c : claims) by_id[c.id] = &c;

  std::map<std::string, ExperimentResults>& state = judgement.experiments;
  std::map<std::string, ClaimResult> results;
  std::map<std::string, std::string> summarize_errors;  // experiment -> message
  std::vector<std::string> unknown;
  ReportSummary& summary = judgement.summary;

  for (const auto& e : experiments) {
    const std::string name = e->name();
    ExperimentResults& s = state[name];
    s.experiment = e.get();
    const std::string dir = (fs::path(results_dir) / name).string();
    const std::string csv = dir + "/" + name + ".csv";
    if (!fs::exists(csv)) continue;
    s.ran = true;
    if (std::ifstream in(dir + "/" + name + ".json"); in) {
      try {
        const nlohmann::json sidecar = nlohmann::json::parse(in);
        std::string commit = sidecar.value("git_commit", "unknown").substr(0, 10);
        if (sidecar.value("git_dirty", false)) commit += " (dirty)";
        s.profile = sidecar.value("profile", "");
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
  std::vector<std::string> unmeasured;
  for (const auto& [id, r] : results) {
    const Claim& c = *by_id[id];
    if (!c.criterion) continue;
    for (const std::string& name : c.criterion->Names()) {
      if (!r.values.count(name)) unmeasured.push_back(id + " reads '" + name + "'");
    }
  }
  if (!unmeasured.empty()) {
    throw Error("criteria in " + claims_file + " read values their experiment's Summarize did not measure: " +
                Join(unmeasured) + " (set ClaimResult::values or fix the criterion)");
  }

  for (const Claim& c : claims) {
    ReportEntry entry;
    entry.claim = c;
    auto s = state.find(c.experiment);
    if (auto r = results.find(c.id); r != results.end()) {
      entry.note = r->second.note;
      entry.ours_value = r->second.ours;
      entry.values = r->second.values;
      entry.ours = !r->second.ours_text.empty()   ? r->second.ours_text
                   : std::isfinite(r->second.ours) ? FormatNumber(r->second.ours)
                                                   : "";
      if (c.kind == ClaimKind::kObservation) {
        entry.verdict = Verdict::kObserved;
      } else {
        const std::string& profile = s != state.end() ? s->second.profile : std::string();
        if (!profile.empty() && !c.DecidedAt(profile)) {
          entry.verdict = Verdict::kNotDecided;
          entry.note = "not decided at the " + profile + " profile (decided at: " + Join(c.decided_at) + ")" +
                       (entry.note.empty() ? "" : "; " + entry.note);
        } else {
          const Criterion::Outcome outcome = c.criterion->Evaluate(r->second.ours, r->second.values);
          entry.verdict = outcome.met ? Verdict::kReproduced : Verdict::kDiffers;
          if (!outcome.met) entry.note = outcome.reason + (entry.note.empty() ? "" : "; " + entry.note);
        }
      }
    } else if (s == state.end()) {
      entry.note = "experiment not implemented yet";
    } else if (!s->second.ran) {
      entry.note = "experiment not run";
    } else if (summarize_errors.count(c.experiment)) {
      entry.note = "summary failed: " + summarize_errors[c.experiment];
    } else {
      entry.note = "not measured: model not implemented yet or not run";
    }
    if (c.kind == ClaimKind::kObservation) {
      ++(entry.verdict == Verdict::kObserved ? summary.observed : summary.observations_not_run);
    } else {
      switch (entry.verdict) {
        case Verdict::kReproduced: ++summary.reproduced; break;
        case Verdict::kDiffers: ++summary.differs; break;
        case Verdict::kObserved: break;  // only observations
        case Verdict::kNotRun: ++summary.not_run; break;
        case Verdict::kNotDecided: ++summary.not_decided; break;
      }
    }
    summary.entries.push_back(std::move(entry));
  }
  return judgement;
}

ReportSummary WriteReport(const std::string& results_dir, const std::string& claims_file,
                          const ReportOptions& options) {
  const auto& experiments = options.experiments != nullptr ? *options.experiments : Experiments();
  const std::string plots_dir =
      options.plots_dir.empty() ? SourceDir() + "/plots/out" : options.plots_dir;
  Judgement judgement = JudgeResults(results_dir, claims_file, options);
  const std::vector<Claim>& claims = judgement.claims;
  const std::map<std::string, ExperimentResults>& state = judgement.experiments;
  ReportSummary& summary = judgement.summary;

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
    // Non-finite values are null (JSON has no NaN).
    nlohmann::ordered_json values = nlohmann::ordered_json::object();
    for (const auto& [name, v] : e.values) values[name] = std::isfinite(v) ? nlohmann::ordered_json(v) : nullptr;
    list.push_back(nlohmann::ordered_json{{"id", e.claim.id},
                    {"experiment", e.claim.experiment},
                    {"kind", std::string(ToString(e.claim.kind))},
                    {"description", e.claim.description},
                    {"paper", e.claim.paper},
                    {"source", e.claim.source},
                    {"ours", ours},
                    {"ours_value", std::isfinite(e.ours_value) ? nlohmann::ordered_json(e.ours_value) : nullptr},
                    {"values", values},
                    {"unit", e.claim.unit},
                    {"criterion", e.claim.criterion ? nlohmann::ordered_json(e.claim.criterion->text()) : nullptr},
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
  md << "| not_run | " << summary.not_run << " |\n";
  md << "| not_decided (a profile too small for the claim) | " << summary.not_decided << " |\n\n";
  md << "Observations in the claim tables (numbers the papers do not state; no criterion, never "
        "counted as reproduced): "
     << summary.observed << " observed, " << summary.observations_not_run << " not run.\n\n";

  // Experiments in registry order, then catalogue experiments that are not registered.
  std::vector<std::string> order = ExperimentNames(experiments);
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
    if (exp != nullptr) md << " — " << MarkdownCell(exp->paper());
    md << "\n\n";
    if (exp != nullptr) md << exp->description() << "\n\n";
    if (ran && !s->second.run_info.empty()) md << "Results: " << s->second.run_info << ".\n\n";
    if (!ran) md << "_Not run._\n\n";
    bool any = false;
    for (const ReportEntry& e : summary.entries) {
      if (e.claim.experiment != name) continue;
      if (!any) md << "| claim | paper | ours | criterion | verdict | note |\n|---|---|---|---|---|---|\n";
      any = true;
      const std::string criterion =
          e.claim.criterion ? "`" + MarkdownCell(e.claim.criterion->text()) + "`" : "none (observation)";
      md << "| " << MarkdownCell(e.claim.description) << " (`" << MarkdownCell(e.claim.id) << "`) | "
         << MarkdownCell(WithUnit(e.claim.paper, e.claim.unit))
         << (e.claim.source.empty() ? "" : " (" + MarkdownCell(e.claim.source) + ")") << " | "
         << MarkdownCell(WithUnit(e.ours, std::isfinite(e.ours_value) ? e.claim.unit : "")) << " | " << criterion << " | " << ToString(e.verdict) << " | "
         << MarkdownCell(e.note) << " |\n";
    }
    if (any) md << "\n";
    if (ran && !s->second.observations.empty()) {
      md << "Observations (not paper claims):\n\n";
      md << "| quantity | model | value | note |\n|---|---|---|---|\n";
      for (const Observation& o : s->second.observations) {
        const std::string value =
            std::isfinite(o.value) ? WithUnit(FormatNumber(o.value), o.unit) : "-";
        md << "| " << MarkdownCell(o.quantity) << " | " << MarkdownCell(ModelLabel(o.model)) << " | " << MarkdownCell(value) << " | "
           << MarkdownCell(o.note) << " |\n";
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
  return std::move(judgement.summary);
}

}  // namespace arena
