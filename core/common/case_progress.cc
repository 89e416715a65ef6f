#include "core/common/case_progress.h"

#include <utility>

namespace arena {

ScopedCaseProgress::State& ScopedCaseProgress::Current() {
  thread_local State state;
  return state;
}

ScopedCaseProgress::ScopedCaseProgress(double interval_s, std::function<void(const std::string&)> sink)
    : previous_(std::move(Current())) {
  State& s = Current();
  s.sink = std::move(sink);
  s.interval = std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(interval_s));
  s.next = std::chrono::steady_clock::now() + s.interval;
}

ScopedCaseProgress::~ScopedCaseProgress() { Current() = std::move(previous_); }

void ReportCaseProgress(const std::function<std::string()>& what) {
  ScopedCaseProgress::State& s = ScopedCaseProgress::Current();
  if (!s.sink) return;
  const auto now = std::chrono::steady_clock::now();
  if (now < s.next) return;
  s.next = now + s.interval;
  s.sink(what());
}

}  // namespace arena
