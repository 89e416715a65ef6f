#include <fstream>
#include <stdexcept>

#include "tests/fuzz/fuzz_targets.h"
#include "tests/scratch_dir.h"

namespace arena::fuzz {

const std::vector<FuzzTarget>& FuzzTargets() {
  static const std::vector<FuzzTarget> targets = {
      {"urdf", FuzzUrdf}, {"mjcf", FuzzMjcf}, {"stl", FuzzStl}, {"obj", FuzzObj}, {"toml", FuzzToml}};
  return targets;
}

std::string WriteFuzzInput(const std::uint8_t* data, std::size_t size, const std::string& name) {
  // One folder per process, so that parallel fuzzers (libFuzzer -jobs) never share a file; removed
  // when the process exits normally (a crashing input leaves it, beside libFuzzer's crash file).
  static const testing::ScratchDir dir;
  const std::string path = dir / name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out) throw std::runtime_error("fuzz: cannot write " + path);  // the harness, not the input
  return path;
}

}  // namespace arena::fuzz
