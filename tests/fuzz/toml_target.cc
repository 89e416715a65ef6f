// The experiment config (experiments/*/config.toml and --set): the input is a TOML document,
// optionally followed by a line "---" and one --set override per line. Every getter is tried on
// every key, as experiments read them; a wrong type or range must be an arena error.
#include <string_view>

#include "config/profile_config.h"
#include "core/common/error.h"
#include "tests/fuzz/fuzz_targets.h"

namespace arena::fuzz {
namespace {

// Two made-up models with the options the seed corpus sets.
const ModelOptionKeys& FuzzModels() {
  static const ModelOptionKeys models = {{"alpha", {"stiffness", "timestep"}}, {"beta", {"rho"}}};
  return models;
}

void SplitInput(std::string_view input, std::string* toml, std::vector<std::string>* overrides) {
  const std::size_t cut = input.find("\n---\n");
  *toml = std::string(input.substr(0, cut));
  if (cut == std::string_view::npos) return;
  std::string_view rest = input.substr(cut + 5);
  while (!rest.empty()) {
    const std::size_t end = rest.find('\n');
    overrides->emplace_back(rest.substr(0, end));
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  }
}

template <typename Get>
void Try(Get get) {
  try {
    get();
  } catch (const Error&) {
    // wrong type, out of range, missing: reported to the user, as intended
  }
}

void ReadEverything(const ProfileConfig& config) {
  for (const std::string& key : config.Keys()) {
    Try([&] { config.Double(key); });
    Try([&] { config.Int(key); });
    Try([&] { config.Bool(key); });
    Try([&] { config.String(key); });
    Try([&] { config.Doubles(key); });
    Try([&] { config.Ints(key); });
    Try([&] { config.Strings(key); });
    Try([&] { config.Int(key, 0, 1000); });
    Try([&] { config.SweepDoubles(key, NumberRange::Positive()); });
    Try([&] { config.SweepStrings(key); });
  }
  for (const auto& entry : FuzzModels()) {
    Try([&] { config.ModelOptions(entry.first); });
    Try([&] { config.ModelSweep(entry.first); });
  }
  config.UnreadKeys({"alpha"});
}

}  // namespace

int FuzzToml(const std::uint8_t* data, std::size_t size) {
  std::string toml;
  std::vector<std::string> overrides;
  SplitInput(std::string_view(reinterpret_cast<const char*>(data), size), &toml, &overrides);
  try {
    const ProfileConfig config = ProfileConfig::Parse(toml, "fuzz.toml", "quick", overrides, FuzzModels());
    ReadEverything(config);
  } catch (const Error&) {
  }
  return 0;
}

}  // namespace arena::fuzz
