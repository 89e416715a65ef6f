#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "tests/fuzz/fuzz_targets.h"

namespace arena::fuzz {

const std::vector<FuzzTarget>& FuzzTargets() {
  static const std::vector<FuzzTarget> targets = {
      {"urdf", FuzzUrdf}, {"mjcf", FuzzMjcf}, {"stl", FuzzStl}, {"obj", FuzzObj}, {"toml", FuzzToml}};
  return targets;
}

// One folder per process, so that parallel fuzzers (libFuzzer -jobs) never share a file; removed
// when the process exits normally (a crashing input leaves it, beside libFuzzer's crash file).
class FuzzInputDir {
 public:
  FuzzInputDir() {
    const char* tmp = std::getenv("TMPDIR");
    path_ = std::filesystem::path(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") /
            ("arena-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(path_);
  }
  ~FuzzInputDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

std::string WriteFuzzInput(const std::uint8_t* data, std::size_t size, const std::string& name) {
  static const FuzzInputDir input_dir;
  const std::filesystem::path& dir = input_dir.path();
  const std::filesystem::path path = dir / name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out) throw std::runtime_error("fuzz: cannot write " + path.string());  // the harness, not the input
  return path.string();
}

}  // namespace arena::fuzz
