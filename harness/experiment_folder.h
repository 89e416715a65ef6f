// An experiment's folder, experiments/<name>/: what the harness and the tests read from it, and a
// check that a registered experiment has every part (docs/adding_an_experiment.md):
//   config.toml   profiles [quick], [paper] and [smoke] (what shrinks quick to seconds);
//   claims.toml   the paper claims it measures, each with its criterion (may hold none);
//   README.md     what the paper says, our setup, what we measured, what differs and why;
// and beside the folder, its figures' scripts (plots/<script>.py, Experiment::plots()) and its
// committed quick-profile reference (tests/data/reference/<name>/<name>.csv). The code may live
// in the folder or, for a family of experiments sharing one class (push, gather and sort), in
// the family's folder (experiments/rod_tasks/).
#pragma once

#include <string>
#include <vector>

#include "experiments/experiment.h"

namespace arena {

struct ExperimentLayout {
  std::string experiments_dir;  // holds <name>/config.toml, claims.toml, README.md
  std::string plots_dir;        // holds <script>.py
  std::string references_dir;   // holds <name>/<name>.csv
};

/// The repository's own: <repo>/experiments, <repo>/plots, <repo>/tests/data/reference.
ExperimentLayout RepositoryLayout();

/// What `experiment` lacks of its parts, one line each ("config.toml: no profile [smoke]",
/// "README.md: missing"); empty when it has them all.
std::vector<std::string> MissingFolderParts(const Experiment& experiment, const ExperimentLayout& layout);

}  // namespace arena
