#include "tests/test_paths.h"

namespace arena::testing {

std::string SourceDir() { return ARENA_SOURCE_DIR; }
std::string TestDataDir() { return ARENA_SOURCE_DIR "/tests/data"; }
std::string FuzzDir() { return ARENA_SOURCE_DIR "/tests/fuzz"; }

}  // namespace arena::testing
