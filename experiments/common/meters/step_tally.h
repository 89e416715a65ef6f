// Bookkeeping of a rollout's steps, shared by the seed-000 experiments. As in the paper's code, a
// step that reaches the solver's iteration limit keeps its last iterate and the run goes on (the
// run counts as failed); a non-finite state or another error ends the run. A run that took no
// step has no outcome: it is never a success.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "experiments/experiment.h"
#include "models/simulator.h"

namespace arena {

struct StepTally {
  int attempted = 0;
  int done = 0;            // steps that succeeded
  int failed_steps = 0;    // steps that did not
  int max_iterations = 0;
  double sum_iterations = 0.0;
  double sum_time = 0.0;   // s, the steps' wall time (StepReport::wall_time_s: the whole Step call)
  std::string failure;     // the first failure
  bool stop = false;       // the run must end

  /// Records step k's report.
  void Record(int k, const StepReport& report) {
    ++attempted;
    sum_iterations += report.iterations;
    max_iterations = std::max(max_iterations, report.iterations);
    sum_time += report.wall_time_s;
    if (report.ok()) {
      ++done;
      return;
    }
    ++failed_steps;
    Fail("step " + std::to_string(k) + ": " + std::string(ToString(report.status)) + ": " + report.message);
    stop = report.ends_run();
  }
  /// Ends the run for a reason of the experiment's own (a body escaping).
  void Fail(const std::string& why, bool end_run = false) {
    if (failure.empty()) failure = why;
    stop = stop || end_run;
  }
  double mean_iterations() const { return attempted > 0 ? sum_iterations / attempted : 0.0; }
  double mean_time() const { return attempted > 0 ? sum_time / attempted : 0.0; }

  /// False when a step or a check failed, or no step ran.
  bool succeeded() const { return failure.empty() && attempted > 0; }

  /// steps_done, failed_steps, failed, failure, mean_iterations.
  void WriteTo(Row* row) const {
    (*row)["steps_done"] = std::int64_t{done};
    (*row)["failed_steps"] = std::int64_t{failed_steps};
    (*row)["failed"] = !succeeded();
    (*row)["failure"] = failure.empty() && attempted == 0 ? std::string("no step ran") : failure;
    (*row)["mean_iterations"] = mean_iterations();
  }
};

}  // namespace arena
