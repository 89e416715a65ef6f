// The collision part of an SRDF (MoveIt's Semantic Robot Description Format, the companion of
// a URDF): <disable_collisions link1="a" link2="b" reason="..."/>, the link pairs that MoveIt's
// setup assistant found never or always in contact (or adjacent). Groups, states, end effectors,
// virtual and passive joints and sphere approximations are planning data and are ignored.
// <disable_default_collisions> and <enable_collisions> (newer MoveIt: a link off against
// everything, then pairs back on) would need a pair allow-list the Scene does not have, so they
// are rejected rather than silently ignored.
#pragma once

#include <string>
#include <vector>

namespace arena {

struct SrdfDisabledPair {
  std::string link1;
  std::string link2;
  int line = 0;  // of the <disable_collisions> element
};

/// Every <disable_collisions> of the file, in file order. Throws ParseError naming the file
/// and the element (its line) for a missing or unreadable file, malformed XML, a root that is
/// not <robot>, a missing or empty link1/link2, or an element we cannot represent.
std::vector<SrdfDisabledPair> ReadSrdfDisabledCollisions(const std::string& path);

}  // namespace arena
