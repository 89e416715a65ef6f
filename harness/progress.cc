#include "harness/progress.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace arena {

Progress::Progress(std::string label, int total, bool enabled)
    : Progress(std::move(label), total, enabled, isatty(STDERR_FILENO) != 0) {}

Progress::Progress(std::string label, int total, bool enabled, bool interactive)
    : label_(std::move(label)), total_(total), enabled_(enabled && total > 0),
      interactive_(interactive), start_(Clock::now()), last_output_(start_) {}

Progress::~Progress() { Finish(); }

std::string Progress::FormatDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  const long s = std::lround(seconds);
  char buf[32];
  if (s >= 3600) {
    std::snprintf(buf, sizeof(buf), "%ldh%02ldm", s / 3600, (s % 3600) / 60);
  } else if (s >= 60) {
    std::snprintf(buf, sizeof(buf), "%ldm%02lds", s / 60, s % 60);
  } else {
    std::snprintf(buf, sizeof(buf), "%lds", s);
  }
  return buf;
}

void Progress::CaseDone(bool failed) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++done_;
  if (failed) ++failed_;
  if (!enabled_) return;
  if (interactive_) {
    Draw(done_ == total_);
  } else if (done_ < total_) {
    Log();
  }
}

void Progress::Draw(bool force) {
  const auto now = Clock::now();
  if (!force && drawn_ && now - last_output_ < std::chrono::milliseconds(100)) return;
  last_output_ = now;
  drawn_ = true;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double fraction = static_cast<double>(done_) / total_;
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(fraction * kWidth);
  std::string bar(filled, '#');
  bar += std::string(kWidth - filled, '-');
  const std::string eta =
      done_ == total_ ? "done in " + FormatDuration(elapsed)
                      : "ETA " + FormatDuration(elapsed / done_ * (total_ - done_));
  std::fprintf(stderr, "\r%s [%s] %d/%d %3d%%  failed %d  %s   ", label_.c_str(), bar.c_str(),
               done_, total_, static_cast<int>(100 * fraction), failed_, eta.c_str());
  std::fflush(stderr);
}

void Progress::Log() {
  const auto now = Clock::now();
  const int decile = done_ * 10 / total_;
  const auto since = now - last_output_;
  // Every ~5 s, or at a new 10 % step if a second has passed; the runner logs the end itself.
  const bool due = since >= std::chrono::seconds(5) ||
                   (decile > last_logged_decile_ && since >= std::chrono::seconds(1));
  if (!due) return;
  last_output_ = now;
  last_logged_decile_ = decile;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const std::string eta = "ETA " + FormatDuration(elapsed / done_ * (total_ - done_));
  spdlog::info("{}: {}/{} cases ({}%), {} failed, {}", label_, done_, total_,
               100 * done_ / total_, failed_, eta);
}

void Progress::CaseNote(const std::string& case_id, const std::string& what) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!enabled_ || finished_) return;
  if (interactive_ && drawn_) std::fputs("\r\033[K", stderr);  // the bar's line, cleared
  spdlog::info("{} {}: {}", label_, case_id, what);
  if (interactive_ && drawn_) Draw(true);
}

void Progress::Finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (finished_) return;
  finished_ = true;
  if (enabled_ && interactive_ && drawn_) {
    std::fputc('\n', stderr);
    std::fflush(stderr);
  }
}

}  // namespace arena
