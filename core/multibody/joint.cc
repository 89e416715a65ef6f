#include "core/multibody/joint.h"

#include <array>

namespace arena {

namespace {
constexpr std::array<std::pair<JointType, std::string_view>, 6> kNames = {{
    {JointType::kFixed, "fixed"},
    {JointType::kRevolute, "revolute"},
    {JointType::kPrismatic, "prismatic"},
    {JointType::kBall, "ball"},
    {JointType::kPlanar, "planar"},
    {JointType::kFree, "free"},
}};
}  // namespace

std::string_view ToString(JointType type) {
  for (const auto& [t, name] : kNames) {
    if (t == type) return name;
  }
  return "?";
}

int JointNq(JointType type) {
  switch (type) {
    case JointType::kFixed: return 0;
    case JointType::kRevolute:
    case JointType::kPrismatic: return 1;
    case JointType::kBall: return 4;
    case JointType::kPlanar: return 3;
    case JointType::kFree: return 7;
  }
  return 0;
}

int JointNv(JointType type) {
  switch (type) {
    case JointType::kFixed: return 0;
    case JointType::kRevolute:
    case JointType::kPrismatic: return 1;
    case JointType::kBall: return 3;
    case JointType::kPlanar: return 3;
    case JointType::kFree: return 6;
  }
  return 0;
}

}  // namespace arena
