// Every registered experiment has its folder's parts (harness/experiment_folder.h), and adding an
// experiment is one folder: a toy experiment whose config, claims and README are only files in
// its folder runs through the harness and is judged by the report.
#include "harness/experiment_folder.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/common/strings.h"
#include "experiments/registry.h"
#include "harness/report.h"
#include "tests/harness/toy_experiment.h"

namespace arena {
namespace experiment_folder_test {

namespace fs = std::filesystem;

TEST(ExperimentFolder, EveryRegisteredExperimentHasItsParts) {
  const ExperimentLayout layout = RepositoryLayout();
  for (const auto& e : Experiments()) {
    EXPECT_EQ(Join(MissingFolderParts(*e, layout), "; "), "") << "experiments/" << e->name() << "/";
  }
}

// The toy experiment's folder, as docs/adding_an_experiment.md says to write one.
class ToyFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    layout_ = {dir_ / "experiments", dir_ / "plots", dir_ / "reference"};
    testing::WriteFile(dir_ / "experiments/toy/config.toml",
                       std::string(testing::kToyConfig) + "\n[smoke]\nxs = [1]\nrepeats = 1\n");
    testing::WriteFile(dir_ / "experiments/toy/claims.toml",
                       "[[claim]]\nid = \"toy.mean_metric\"\nexperiment = \"toy\"\ndescription = \"mean metric\"\n"
                       "paper = \"0.5\"\ncriterion = \"between 0 and 1\"\n\n"
                       "[[claim]]\nid = \"toy.rows\"\nexperiment = \"toy\"\nkind = \"observation\"\n"
                       "description = \"rows\"\npaper = \"not reported\"\n");
    testing::WriteFile(dir_ / "experiments/toy/README.md", "# toy\n\nA toy experiment.\n");
    testing::WriteFile(dir_ / "plots/toy_fig1.py", "");
    testing::WriteFile(dir_ / "plots/toy_missing.py", "");
    testing::WriteFile(dir_ / "reference/toy/toy.csv", "case_id,model\n");
  }
  testing::ScratchDir dir_;
  ExperimentLayout layout_;
  testing::ToyExperiment toy_;
};

TEST_F(ToyFolder, IsCompleteAndRunsAndIsJudged) {
  EXPECT_EQ(Join(MissingFolderParts(toy_, layout_), "; "), "");
  RunOptions options = testing::ToyRunOptions(dir_.path());
  options.config_dir = layout_.experiments_dir;
  options.profile = kSmokeProfile;
  const RunSummary run = RunExperiment(toy_, options);
  EXPECT_EQ(run.cases_total, 3);  // alpha: 1 x x 2 stiffnesses x 1 repeat; beta: 1
  std::vector<std::unique_ptr<Experiment>> experiments;
  experiments.push_back(std::make_unique<testing::ToyExperiment>());
  ReportOptions report;
  report.plots_dir = dir_ / "plots/out";
  report.experiments = &experiments;
  const ReportSummary s = WriteReport(dir_ / "results", layout_.experiments_dir, report);
  ASSERT_EQ(s.entries.size(), 2u);
  EXPECT_EQ(s.entries[0].claim.id, "toy.mean_metric");
  EXPECT_EQ(s.reproduced, 1);
  EXPECT_EQ(s.observed, 1);
}

TEST_F(ToyFolder, NamesEachMissingPart) {
  fs::remove(dir_ / "experiments/toy/README.md");
  fs::remove(dir_ / "plots/toy_missing.py");
  fs::remove(dir_ / "reference/toy/toy.csv");
  testing::WriteFile(dir_ / "experiments/toy/config.toml", testing::kToyConfig);  // no [smoke]
  testing::WriteFile(dir_ / "experiments/toy/claims.toml",
                     "[[claim]]\nid = \"x.y\"\nexperiment = \"other\"\ndescription = \"d\"\npaper = \"1\"\n"
                     "criterion = \"ours == 1\"\n");
  const std::string missing = Join(MissingFolderParts(toy_, layout_), "; ");
  for (const char* part : {"README.md", "toy_missing.py", "toy.csv", "profile smoke", "is experiment 'other'"}) {
    EXPECT_TRUE(testing::Contains(missing, part));
  }
  fs::remove_all(dir_ / "experiments/toy");
  EXPECT_TRUE(testing::Contains(Join(MissingFolderParts(toy_, layout_), "; "), "folder"));
}

}  // namespace experiment_folder_test
}  // namespace arena
