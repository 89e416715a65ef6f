// A cooperative wall-clock budget for the work running on the calling thread.
//
// The harness runs cases in-process on TBB threads, so a case that runs too long cannot be
// killed; it has to notice. The runner sets a deadline around each case (ScopedDeadline), and
// the places where a case can spend unbounded time ask DeadlinePassed() and stop with a
// failure status of their own: Simulator::Step before every step, the iterative solvers once
// per iteration (interior point, Dantzig, Lemke, PGS) and the optimisers once per iteration.
// Nothing throws: a deadline ends a loop the way its iteration cap does, and the runner then
// records the case as failed with DeadlineMessage().
//
// The deadline is thread-local: work a case hands to other threads does not see it (no model
// does that today), and a thread that waits inside a nested parallel region and picks up
// another case's task runs that task under the other case's deadline, restoring its own after.
#pragma once

#include <chrono>
#include <string>

namespace arena {

/// Sets a deadline `budget_s` seconds from now on the calling thread until destroyed; the
/// enclosing deadline, if any, is restored then. A nested deadline never extends the enclosing
/// one: the earlier of the two applies. `what` names the budget in DeadlineMessage(), e.g.
/// "the case's wall-clock budget" (with the seconds appended). budget_s must be > 0;
/// infinity means no deadline.
class ScopedDeadline {
 public:
  ScopedDeadline(double budget_s, std::string what);
  ~ScopedDeadline();
  ScopedDeadline(const ScopedDeadline&) = delete;
  ScopedDeadline& operator=(const ScopedDeadline&) = delete;

  /// Whether this deadline (or an earlier enclosing one) has passed.
  bool passed() const;

 private:
  struct State {
    bool active = false;
    bool passed = false;  // sticky: once seen, DeadlinePassed() needs no clock read
    std::chrono::steady_clock::time_point at{};
    std::string message;  // "<what> of <budget> s ran out"
  };
  friend bool DeadlinePassed();
  friend std::string DeadlineMessage();
  static State& Current();
  State previous_;
};

/// True when a deadline set on this thread has passed. Without a deadline it reads no clock.
bool DeadlinePassed();

/// "the case's wall-clock budget of 3600 s ran out" for the deadline that passed; empty when
/// none has.
std::string DeadlineMessage();

}  // namespace arena
