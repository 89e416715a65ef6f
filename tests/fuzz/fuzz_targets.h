// Fuzz targets of the input loaders (issue 19): URDF, MJCF, STL, OBJ and the TOML profile
// config. Each takes arbitrary bytes and holds the loaders to their contract: bad input is an
// arena::Error (ParseError, InvalidArgument, Unsupported) with a message, never a crash, a hang,
// another exception or a scene that fails its own validation. Any other outcome escapes the
// target: libFuzzer reports it (tests/fuzz/libfuzzer_entry.cc) and the replay test fails on it
// (tests/fuzz/replay_test.cc, run by `make test` on the seed corpus and every pinned crash).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace arena::fuzz {

using FuzzFunction = int (*)(const std::uint8_t* data, std::size_t size);

struct FuzzTarget {
  std::string name;  // fuzz_<name> executable; corpus in tests/fuzz/corpus/<name>/
  FuzzFunction run;
};

int FuzzUrdf(const std::uint8_t* data, std::size_t size);
int FuzzMjcf(const std::uint8_t* data, std::size_t size);
int FuzzStl(const std::uint8_t* data, std::size_t size);
int FuzzObj(const std::uint8_t* data, std::size_t size);
int FuzzToml(const std::uint8_t* data, std::size_t size);

/// Every target, in a fixed order.
const std::vector<FuzzTarget>& FuzzTargets();

/// Writes the bytes to a file named `name` in a folder of this process under $TMPDIR (the
/// loaders read paths, and some choose the parser by the extension) and returns its path.
std::string WriteFuzzInput(const std::uint8_t* data, std::size_t size, const std::string& name);

}  // namespace arena::fuzz
