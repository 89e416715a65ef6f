// Limits on the sizes a config can ask for, checked while a sweep is expanded and before the
// cases are allocated, so that a typo (initial_conditions=100000000, duration_s=1e9) is an error
// naming the keys rather than hours of allocation or a step count that overflows.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace arena {

class ProfileConfig;

/// The most steps one case may take: 10^6 (the paper profiles take at most 3,000). Counts read
/// from a config are range-checked against it, so a step count always fits an int.
inline constexpr std::int64_t kMaxStepsPerCase = 1'000'000;

/// The most repetitions a config may ask of one case: optimiser iterations, samples.
inline constexpr std::int64_t kMaxIterationsPerCase = 1'000'000;

/// The most rows one case may write (snapshot rollouts write one per snapshot).
inline constexpr std::int64_t kMaxRowsPerCase = 10'000;

/// One factor of a sweep's size: how it is described in the message ("frequencies_hz" or
/// "models") and how many values it has.
using SweepAxis = std::pair<std::string, double>;

/// Throws InvalidArgument when the product of `axes` exceeds config.max_cases(), naming each
/// axis and its size, before anything is allocated. The product is taken in double, so it
/// cannot overflow. (A sweep of no cases is the runner's error: it lists the skipped models.)
void CheckSweepSize(const ProfileConfig& config, const std::string& experiment,
                    const std::vector<SweepAxis>& axes);

/// The steps of a case that runs `duration_s` at `frequency_hz`: floor(duration * frequency),
/// as FrequencyGridSettings::steps (frequency_sweep.h) and the rollouts count them. Throws InvalidArgument naming
/// both keys when that is less than one step or more than kMaxStepsPerCase.
std::int64_t CheckedSteps(const ProfileConfig& config, const std::string& duration_key, double duration_s,
                          const std::string& frequency_key, double frequency_hz);

}  // namespace arena
