#include "harness/experiment_folder.h"

#include <filesystem>

#include "config/profile_config.h"
#include "core/common/error.h"
#include "harness/claims.h"
#include "harness/run_info.h"

namespace arena {
namespace fs = std::filesystem;

ExperimentLayout RepositoryLayout() {
  const fs::path repo = SourceDir();
  return {(repo / "experiments").string(), (repo / "plots").string(), (repo / "tests/data/reference").string()};
}

namespace {

void CheckConfig(const fs::path& file, std::vector<std::string>* missing) {
  if (!fs::exists(file)) {
    missing->push_back("config.toml: missing");
    return;
  }
  for (const char* profile : {kQuickProfile, kPaperProfile, kSmokeProfile}) {
    try {
      ProfileConfig::Load(file.string(), profile, {}, {});
    } catch (const Error& e) {
      missing->push_back(std::string("config.toml: profile ") + profile + ": " + e.what());
    }
  }
}

void CheckClaims(const fs::path& file, const std::string& name, std::vector<std::string>* missing) {
  if (!fs::exists(file)) {
    missing->push_back("claims.toml: missing (an experiment without claims says why in a comment)");
    return;
  }
  try {
    for (const Claim& c : LoadClaims(file.string())) {
      if (c.experiment != name) missing->push_back("claims.toml: claim '" + c.id + "' is experiment '" + c.experiment + "'");
    }
  } catch (const Error& e) {
    missing->push_back(std::string("claims.toml: ") + e.what());
  }
}

}  // namespace

std::vector<std::string> MissingFolderParts(const Experiment& experiment, const ExperimentLayout& layout) {
  const std::string name = experiment.name();
  const fs::path folder = fs::path(layout.experiments_dir) / name;
  std::vector<std::string> missing;
  if (!fs::is_directory(folder)) return {"folder " + folder.string() + ": missing"};
  CheckConfig(folder / "config.toml", &missing);
  CheckClaims(folder / "claims.toml", name, &missing);
  if (!fs::exists(folder / "README.md") || fs::file_size(folder / "README.md") == 0) {
    missing.push_back("README.md: missing or empty");
  }
  for (const std::string& script : experiment.plots()) {
    const fs::path p = fs::path(layout.plots_dir) / (script + ".py");
    if (!fs::exists(p)) missing.push_back("plot script " + p.string() + ": missing");
  }
  const fs::path reference = fs::path(layout.references_dir) / name / (name + ".csv");
  if (!fs::exists(reference)) missing.push_back("reference " + reference.string() + ": missing");
  return missing;
}

}  // namespace arena
