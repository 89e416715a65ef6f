// Signs of life from inside a case that runs for minutes or hours (a paper profile's
// optimisation: ant_push's longrange case is an hour of Adam iterations, and the sweep's own
// progress moves only when a case ends). The runner installs a sink around each case
// (ScopedCaseProgress; thread-local, as the deadline of core/common/deadline.h); loops that can
// run long report what they are doing once an iteration (the optimisers' TraceRecorder), and
// the sink hears at most one report per interval. Without a sink a report costs a thread-local
// read and its text is never built.
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace arena {

class ScopedCaseProgress {
 public:
  /// `sink` receives a report's text at most once every `interval_s` seconds (the first one
  /// after `interval_s` too) on the calling thread, until destroyed; the enclosing sink, if any,
  /// is restored then.
  ScopedCaseProgress(double interval_s, std::function<void(const std::string&)> sink);
  ~ScopedCaseProgress();
  ScopedCaseProgress(const ScopedCaseProgress&) = delete;
  ScopedCaseProgress& operator=(const ScopedCaseProgress&) = delete;

 private:
  struct State {
    std::function<void(const std::string&)> sink;
    std::chrono::steady_clock::duration interval{};
    std::chrono::steady_clock::time_point next{};
  };
  friend void ReportCaseProgress(const std::function<std::string()>& what);
  static State& Current();
  State previous_;
};

/// Passes what() to the calling thread's sink when a report is due; otherwise does nothing
/// (what() is not called).
void ReportCaseProgress(const std::function<std::string()>& what);

}  // namespace arena
