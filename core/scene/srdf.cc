// SRDF <disable_collisions> through tinyxml2 (what is read and why the rest is not: srdf.h).
// The element names follow MoveIt's srdfdom (moveit/srdfdom, src/model.cpp).
#include "core/scene/srdf.h"

#include <tinyxml2.h>

#include <set>
#include <string_view>

#include "core/common/error.h"
#include "core/common/input_file.h"

namespace arena {

namespace {

std::string Where(const tinyxml2::XMLElement* e) {
  return "<" + std::string(e->Name()) + "> (line " + std::to_string(e->GetLineNum()) + ")";
}

}  // namespace

std::vector<SrdfDisabledPair> ReadSrdfDisabledCollisions(const std::string& path) {
  CheckInputFile(path, "SRDF file");
  tinyxml2::XMLDocument doc;
  if (doc.LoadFile(path.c_str()) != tinyxml2::XML_SUCCESS) {
    throw ParseError(path, "line " + std::to_string(doc.ErrorLineNum()),
                     std::string("malformed XML: ") + doc.ErrorStr());
  }
  const tinyxml2::XMLElement* robot = doc.RootElement();
  if (robot == nullptr || std::string_view(robot->Name()) != "robot") {
    throw ParseError(path, robot ? Where(robot) : "",
                     "no <robot> root element (not an SRDF file)");
  }
  // Planning data with no bearing on contact.
  static const std::set<std::string_view> kIgnored = {
      "group", "group_state", "end_effector", "virtual_joint", "passive_joint",
      "link_sphere_approximations", "joint_property"};
  std::vector<SrdfDisabledPair> pairs;
  for (const tinyxml2::XMLElement* e = robot->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string_view name = e->Name();
    if (kIgnored.count(name) > 0) continue;
    if (name == "disable_default_collisions" || name == "enable_collisions") {
      throw ParseError(path, Where(e),
                       "not supported: it switches a link's collisions off against everything "
                       "and back on per pair; list the pairs as <disable_collisions> instead");
    }
    if (name != "disable_collisions") {
      throw ParseError(path, Where(e),
                       "unknown SRDF element (expected disable_collisions, or planning data: "
                       "group, group_state, end_effector, virtual_joint, passive_joint, "
                       "link_sphere_approximations, joint_property)");
    }
    SrdfDisabledPair p;
    p.line = e->GetLineNum();
    for (auto [attr, out] : {std::pair{"link1", &p.link1}, std::pair{"link2", &p.link2}}) {
      const char* value = e->Attribute(attr);
      if (value == nullptr || *value == '\0') {
        throw ParseError(path, Where(e) + " / " + attr, "missing or empty (a link name)");
      }
      *out = value;
    }
    pairs.push_back(std::move(p));
  }
  return pairs;
}

}  // namespace arena
