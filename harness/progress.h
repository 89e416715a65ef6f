// Progress of a sweep on stderr: one updating line with a bar, done/total, failures and ETA on a
// terminal; otherwise a plain log line at most every ~5 s or 10 % of the cases. A case that runs
// long says what it is doing in between (CaseNote, from core/common/case_progress.h).
#pragma once

#include <chrono>
#include <mutex>
#include <string>

namespace arena {

class Progress {
 public:
  /// `enabled` false prints nothing. `interactive` defaults to isatty(stderr).
  Progress(std::string label, int total, bool enabled);
  Progress(std::string label, int total, bool enabled, bool interactive);
  ~Progress();

  /// Records one finished case. Thread-safe.
  void CaseDone(bool failed);
  /// Logs what a running case is doing ("<label> <case>: <what>"; the bar, if drawn, is redrawn
  /// below it). Thread-safe.
  void CaseNote(const std::string& case_id, const std::string& what);
  /// Ends the bar's line (interactive mode). Called by the destructor too.
  void Finish();

  /// "1h02m", "3m05s", "12s".
  static std::string FormatDuration(double seconds);

 private:
  using Clock = std::chrono::steady_clock;
  void Draw(bool force);
  void Log();  // non-interactive: a line every ~5 s, or per 10 % at most once a second

  std::string label_;
  int total_ = 0;
  bool enabled_ = false;
  bool interactive_ = false;
  int done_ = 0;
  int failed_ = 0;
  bool finished_ = false;
  bool drawn_ = false;
  Clock::time_point start_;
  Clock::time_point last_output_;
  int last_logged_decile_ = 0;
  std::mutex mutex_;
};

}  // namespace arena
