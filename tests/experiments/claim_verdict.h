// Judging a ClaimResult by its claim's criterion in experiments/<name>/claims.toml, as the report does:
// for tests of an experiment's Summarize on hand-made tables.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "experiments/experiment.h"
#include "harness/report.h"
#include "tests/test_paths.h"

namespace arena::testing_config {

/// Whether `r` meets its claim's criterion; a claim missing from claims.toml fails the test.
inline bool Reproduced(const ClaimResult& r) {
  for (const Claim& c : LoadClaims(::arena::testing::SourceDir() + "/experiments")) {
    if (c.id == r.id) return c.criterion->Evaluate(r.ours, r.values).met;
  }
  ADD_FAILURE() << r.id << " is not in claims.toml";
  return false;
}

}  // namespace arena::testing_config
