#include "harness/claims.h"

#include <toml++/toml.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/common/error.h"

namespace arena {
namespace fs = std::filesystem;

std::string_view ToString(ClaimKind kind) {
  switch (kind) {
    case ClaimKind::kClaim: return "claim";
    case ClaimKind::kObservation: return "observation";
  }
  return "?";
}

ClaimKind ClaimKindFromString(std::string_view text) {
  for (ClaimKind k : {ClaimKind::kClaim, ClaimKind::kObservation}) {
    if (ToString(k) == text) return k;
  }
  throw InvalidArgument("unknown kind '" + std::string(text) + "'; kinds: claim, observation");
}

namespace {

// One claims file; `ids` holds the ids read so far (a duplicate is an error across files too).
std::vector<Claim> ReadClaimsFile(const std::string& path, std::set<std::string>& ids) {
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    const auto& pos = e.source().begin;
    throw ParseError(path, "line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column),
                     std::string(e.description()));
  }
  for (const auto& [k, v] : root) {
    if (k.str() != "claim") {
      throw ParseError(path, std::string(k.str()), "unknown top-level key; expected [[claim]] entries");
    }
  }
  std::vector<Claim> claims;
  const toml::array* list = root.get_as<toml::array>("claim");
  if (list == nullptr) return claims;
  int index = 0;
  for (const toml::node& node : *list) {
    ++index;
    const std::string where = "claim #" + std::to_string(index) + " (line " +
                              std::to_string(node.source().begin.line) + ")";
    const toml::table* t = node.as_table();
    if (t == nullptr) throw ParseError(path, where, "expected a table ([[claim]])");
    Claim c;
    // The entry, with its id once that is read.
    auto named = [&] { return c.id.empty() ? where : where + " '" + c.id + "'"; };
    auto field = [&](const char* key, bool required) -> std::string {
      const toml::node* f = t->get(key);
      if (f == nullptr) {
        if (required) throw ParseError(path, named(), std::string("missing field '") + key + "'");
        return "";
      }
      auto s = f->value_exact<std::string>();
      if (!s) {
        throw ParseError(path, named(), std::string("field '") + key + "' must be a string" +
                                            (std::string(key) == "paper" ? " (the value as printed)" : ""));
      }
      return *s;
    };
    c.id = field("id", true);
    c.experiment = field("experiment", true);
    c.description = field("description", true);
    c.paper = field("paper", true);
    c.unit = field("unit", false);
    c.source = field("source", false);
    for (const auto& [k, v] : *t) {
      static const std::set<std::string> known = {"id",   "experiment", "description", "paper",     "unit",
                                                   "source", "kind",     "criterion",   "decided_at"};
      if (!known.count(std::string(k.str()))) {
        throw ParseError(path, named(),
                         "unknown field '" + std::string(k.str()) +
                             "'; fields: id, experiment, description, paper, unit, source, kind, criterion, decided_at");
      }
    }
    if (const toml::node* d = t->get("decided_at")) {
      const toml::array* list = d->as_array();
      if (list == nullptr || list->empty()) {
        throw ParseError(path, named(), "field 'decided_at' must be a non-empty array of profile names, e.g. [\"paper\"]");
      }
      for (const toml::node& p : *list) {
        auto name = p.value_exact<std::string>();
        static const std::set<std::string> profiles = {"smoke", "quick", "paper"};
        if (!name || !profiles.count(*name)) {
          throw ParseError(path, named(), "field 'decided_at': each entry must be one of \"smoke\", \"quick\", \"paper\"");
        }
        c.decided_at.push_back(*name);
      }
    }
    if (t->contains("kind")) {
      const std::string kind = field("kind", false);
      try {
        c.kind = ClaimKindFromString(kind);
      } catch (const InvalidArgument& e) {
        throw ParseError(path, named(), e.what());
      }
    }
    const bool has_criterion = t->contains("criterion");
    const std::string criterion = field("criterion", false);
    if (c.kind == ClaimKind::kObservation && has_criterion) {
      throw ParseError(path, named(),
                       "an observation has no criterion (it is not a paper claim and is never judged); "
                       "remove 'criterion' or make it kind = \"claim\"");
    }
    if (c.kind == ClaimKind::kClaim) {
      if (!has_criterion) {
        throw ParseError(path, named(),
                         "missing field 'criterion' (the pass criterion, e.g. \"ours >= 0.95\"; a number the "
                         "paper does not state is kind = \"observation\")");
      }
      try {
        c.criterion = Criterion::Parse(criterion);
      } catch (const InvalidArgument& e) {
        throw ParseError(path, named(), "criterion \"" + criterion + "\": " + e.what());
      }
    }
    if (!ids.insert(c.id).second) throw ParseError(path, where, "duplicate claim id '" + c.id + "'");
    claims.push_back(std::move(c));
  }
  return claims;
}

}  // namespace

bool Claim::DecidedAt(const std::string& profile) const {
  return decided_at.empty() || std::find(decided_at.begin(), decided_at.end(), profile) != decided_at.end();
}

std::vector<Claim> LoadClaims(const std::string& path, const std::vector<std::string>& order) {
  std::set<std::string> ids;
  if (!fs::is_directory(path)) return ReadClaimsFile(path, ids);
  std::vector<std::string> folders = order;
  std::vector<std::string> others;
  for (const auto& entry : fs::directory_iterator(path)) {
    const std::string name = entry.path().filename().string();
    if (fs::exists(entry.path() / "claims.toml") &&
        std::find(order.begin(), order.end(), name) == order.end()) {
      others.push_back(name);
    }
  }
  std::sort(others.begin(), others.end());
  folders.insert(folders.end(), others.begin(), others.end());
  std::vector<Claim> claims;
  for (const std::string& folder : folders) {
    const std::string file = (fs::path(path) / folder / "claims.toml").string();
    if (!fs::exists(file)) continue;
    for (Claim& c : ReadClaimsFile(file, ids)) {
      if (c.experiment != folder) {
        throw ParseError(file, "claim '" + c.id + "'",
                         "experiment '" + c.experiment + "' is not this folder's ('" + folder +
                             "'); a claim lives in its experiment's folder");
      }
      claims.push_back(std::move(c));
    }
  }
  return claims;
}

}  // namespace arena
