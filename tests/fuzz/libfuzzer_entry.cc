// libFuzzer's entry point for one target, chosen at compile time (tests/fuzz/CMakeLists.txt
// builds fuzz_<name> with ARENA_FUZZ_TARGET=Fuzz<Name>).
#include "tests/fuzz/fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return arena::fuzz::ARENA_FUZZ_TARGET(data, size);
}
