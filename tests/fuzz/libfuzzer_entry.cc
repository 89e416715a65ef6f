// libFuzzer's entry point for one target, named at compile time (tests/fuzz/CMakeLists.txt
// builds fuzz_<name> with ARENA_FUZZ_NAME="<name>", a name of FuzzTargets()).
#include <algorithm>
#include <cstdlib>

#include "tests/fuzz/fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const arena::fuzz::FuzzFunction run = [] {
    const auto& targets = arena::fuzz::FuzzTargets();
    const auto it = std::find_if(targets.begin(), targets.end(),
                                 [](const auto& t) { return t.name == ARENA_FUZZ_NAME; });
    if (it == targets.end()) std::abort();  // a build error: the CMake list names no target
    return it->run;
  }();
  return run(data, size);
}
