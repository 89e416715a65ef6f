#include "core/common/deadline.h"

#include <cmath>

#include "core/common/error.h"
#include "core/common/options.h"

namespace arena {
namespace {

using Clock = std::chrono::steady_clock;

// Budgets beyond this (about 30 years) are no deadline: now + budget would overflow the clock.
constexpr double kLongestBudget = 1e9;  // s

}  // namespace

ScopedDeadline::State& ScopedDeadline::Current() {
  thread_local State state;
  return state;
}

ScopedDeadline::ScopedDeadline(double budget_s, std::string what) {
  if (!(budget_s > 0.0)) {
    throw InvalidArgument(what + " must be > 0 s, got " + options_detail::FormatDouble(budget_s));
  }
  State& current = Current();
  previous_ = current;
  if (budget_s >= kLongestBudget) return;  // no deadline of its own: the enclosing one stays
  const Clock::time_point at =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(budget_s));
  if (current.active && current.at <= at) return;  // the enclosing deadline comes first
  current.active = true;
  current.passed = false;
  current.at = at;
  current.message = what + " of " + options_detail::FormatDouble(budget_s) + " s ran out";
}

ScopedDeadline::~ScopedDeadline() { Current() = previous_; }

bool ScopedDeadline::passed() const { return DeadlinePassed(); }

bool DeadlinePassed() {
  ScopedDeadline::State& s = ScopedDeadline::Current();
  if (!s.active) return false;
  if (s.passed) return true;
  if (Clock::now() < s.at) return false;
  s.passed = true;
  return true;
}

std::string DeadlineMessage() {
  const ScopedDeadline::State& s = ScopedDeadline::Current();
  return s.active && s.passed ? s.message : std::string();
}

}  // namespace arena
