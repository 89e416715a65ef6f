// push, gather and sort — seed 004 (long-range contact, Ye et al., ICLR 2025) Sec. 6, Figs. 7-8,
// App. A.6: a rod under receding-horizon control pushes cubes to targets (experiments/rod_tasks/
// rod_task.h), every model head-to-head. From rest the rod is far from the cubes: a contact
// force that vanishes at a distance gives every window a zero gradient and the rod never moves;
// the paper's long-range model goes around the cube (push), gathers the cubes (gather) and sorts
// them (sort). One experiment per task, with its own config and claim:
//   push.goes_around      did longrange bring the cube to its target, and how many others did;
//   gather.longrange_only how many cubes longrange gathered, and the most any other did;
//   sort.longrange_only   did longrange sort all ten, and how many others did.
#pragma once

#include <string>
#include <vector>

#include "experiments/experiment.h"

namespace arena {

class RodTaskExperiment final : public Experiment {
 public:
  /// `task`: push, gather or sort.
  explicit RodTaskExperiment(std::string task) : task_(std::move(task)) {}
  std::string name() const override { return task_; }
  std::string paper() const override;
  std::string description() const override;
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  std::vector<std::string> plots() const override;
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
  std::vector<Observation> Observe(const ResultTable& table) const override;

 private:
  std::string task_;
};

}  // namespace arena
