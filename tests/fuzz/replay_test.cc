// Replays every fuzz input kept in the repository, without libFuzzer: the seed corpus
// (tests/fuzz/corpus/<target>/) and the inputs that once crashed a target
// (tests/fuzz/regressions/, a folder per target, named after what it found). A regression shows up
// here as a test failure naming the file.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>

#include "tests/fuzz/fuzz_targets.h"
#include "tests/test_paths.h"

namespace arena::fuzz {
namespace replay_test {

namespace fs = std::filesystem;

std::vector<fs::path> Inputs(const std::string& target, const std::string& kind) {
  std::vector<fs::path> files;
  const fs::path dir = fs::path(::arena::testing::FuzzDir()) / kind / target;
  if (!fs::is_directory(dir)) return files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string Read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace replay_test

// gtest names a parameter by this (instead of dumping its bytes).
void PrintTo(const FuzzTarget& target, std::ostream* os) { *os << target.name; }

namespace replay_test {

class Replay : public ::testing::TestWithParam<FuzzTarget> {};

TEST_P(Replay, CorpusAndRegressionsKeepTheContract) {
  const FuzzTarget& target = GetParam();
  const std::vector<fs::path> corpus = Inputs(target.name, "corpus");
  EXPECT_FALSE(corpus.empty()) << "no seed corpus for " << target.name;
  std::vector<fs::path> all = corpus;
  for (const fs::path& p : Inputs(target.name, "regressions")) all.push_back(p);
  for (const fs::path& path : all) {
    const std::string bytes = Read(path);
    try {
      target.run(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    } catch (const std::exception& e) {
      ADD_FAILURE() << path << ": " << e.what();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fuzz, Replay, ::testing::ValuesIn(FuzzTargets()),
                         [](const auto& info) { return info.param.name; });

}  // namespace replay_test
}  // namespace arena::fuzz
