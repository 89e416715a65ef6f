// Where the tests find the repository and their data files. The paths are compiled into one file
// (tests/test_support.cc) rather than onto every test unit's command line, so that no other
// unit's compile holds an absolute path and a clone in another folder hits the compiler cache
// (docs/build.md).
#pragma once

#include <string>

namespace arena::testing {

/// The repository root.
std::string SourceDir();
/// tests/data.
std::string TestDataDir();
/// tests/fuzz (the fuzz targets' corpora and regressions).
std::string FuzzDir();

}  // namespace arena::testing
