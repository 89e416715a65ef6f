// The paper claims an experiment measures, each with its pass criterion as data, in the
// experiment's folder (experiments/<name>/claims.toml; the report reads them all as one list).
//
// A claims.toml holds [[claim]] entries:
//   [[claim]]
//   id = "box_drop.failure_rate.silico"   # unique; Summarize returns a ClaimResult with this id
//   experiment = "box_drop"
//   description = "single-level failure rate over the sweep"
//   paper = "0.001"                       # the paper's value as printed (a string)
//   unit = ""                             # optional
//   source = "000 Fig. 9"                 # optional
//   kind = "claim"                        # optional: "claim" (default) or "observation"
//   criterion = "ours <= 0.005"           # required for a claim; an observation has none
//   decided_at = ["paper"]                # optional: the profiles whose runs decide the claim
//                                         # (default: every profile); at another profile the
//                                         # report says "not decided at this profile"
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/claim_criterion.h"

namespace arena {

/// kClaim: the paper states it, judged by a criterion. kObservation: a number we measure
/// beside the claims that the paper does not state; never judged, never counted as reproduced.
enum class ClaimKind { kClaim, kObservation };
/// "claim", "observation".
std::string_view ToString(ClaimKind kind);
/// Throws InvalidArgument listing the kinds.
ClaimKind ClaimKindFromString(std::string_view text);

struct Claim {
  std::string id;
  std::string experiment;
  std::string description;
  std::string paper;
  std::string unit;
  std::string source;  // seed file and figure/table, e.g. "000 Fig. 9"
  ClaimKind kind = ClaimKind::kClaim;
  std::optional<Criterion> criterion;  // set for every claim, never for an observation
  // The profiles whose runs can decide the claim (empty: every one). A reduced profile too small
  // to show the effect (a loss that moves in its tenth digit, a mesh smaller than the criterion
  // names) is left out, and its runs are reported as not deciding the claim.
  std::vector<std::string> decided_at;
  /// Whether a run at `profile` decides the claim.
  bool DecidedAt(const std::string& profile) const;
};

/// Reads the claims and parses every criterion. `path` is one claims file, or a folder of
/// experiment folders (<repo>/experiments): then every <path>/<experiment>/claims.toml, the
/// experiments of `order` first in that order (the report lists claims as they are read), then
/// any other folder's by name; a claim in another experiment's folder is an error. Throws
/// ParseError naming the file and the entry (missing or mistyped field, unknown field, duplicate
/// id, unknown kind, a claim without a criterion or an observation with one, a criterion that
/// does not parse and why).
std::vector<Claim> LoadClaims(const std::string& path, const std::vector<std::string>& order = {});


}  // namespace arena
