// Checks that an input file (robot description, mesh) can be read before a parser sees it, so
// that a directory, a missing path or a permission problem is reported as such and not as the
// parser's complaint about empty input.
#pragma once

#include <string>

namespace arena {

/// Throws ParseError naming `path` when it does not exist, is a directory or another non-regular
/// file, cannot be opened for reading, or is empty. `kind` names what was expected ("URDF file",
/// "mesh file") and appears in the message, which also says what to do.
void CheckInputFile(const std::string& path, const std::string& kind);

}  // namespace arena
