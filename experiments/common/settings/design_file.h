// A design file: what `arena export-design` writes (a Wavefront OBJ), read back as a co-design
// experiment's start design (`arena run spider --set design=<file>`): per object, named after a
// designed collider, its design points as the vertices in their order (faces are ignored).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "models/simulator.h"

namespace arena {

/// Object name -> its vertices, in file order. Throws ParseError naming the file and line (a
/// vertex before any object, a malformed or non-finite coordinate, an object twice) and
/// InvalidArgument when the file cannot be read or holds no object.
std::map<std::string, std::vector<Vec3>> ReadDesignFile(const std::string& path);

/// `sim`'s design parameters (its DesignVertexIds, x y z each) from a design file. Throws
/// InvalidArgument naming the file and the collider when one of the designed colliders is not an
/// object of the file or has another number of points.
VecX DesignFromFile(const Simulator& sim, const std::string& path);

}  // namespace arena
