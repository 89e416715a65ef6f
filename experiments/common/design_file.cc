#include "experiments/common/design_file.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "core/common/error.h"

namespace arena {

std::map<std::string, std::vector<Vec3>> ReadDesignFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InvalidArgument("design file " + path + ": cannot be read");
  std::map<std::string, std::vector<Vec3>> objects;
  std::vector<Vec3>* current = nullptr;
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    const std::string where = "line " + std::to_string(line_number);
    std::istringstream fields(line);
    std::string tag;
    fields >> tag;
    if (tag == "o") {
      std::string name;
      fields >> name;
      if (name.empty()) throw ParseError(path, where, "an object without a name");
      if (objects.count(name) > 0) throw ParseError(path, where, "object '" + name + "' appears twice");
      current = &objects[name];
    } else if (tag == "v") {
      if (current == nullptr) throw ParseError(path, where, "a vertex before any object ('o <collider>')");
      Vec3 v;
      if (!(fields >> v.x() >> v.y() >> v.z()) || !v.allFinite()) {
        throw ParseError(path, where, "a vertex needs three finite coordinates: '" + line + "'");
      }
      current->push_back(v);
    }
  }
  if (objects.empty()) throw InvalidArgument("design file " + path + ": no object ('o <collider>' and its 'v' lines)");
  return objects;
}

VecX DesignFromFile(const IncrementalPotentialSimulator& sim, const std::string& path) {
  const std::map<std::string, std::vector<Vec3>> objects = ReadDesignFile(path);
  const std::vector<std::string> names = sim.DesignParameterNames();
  // Points per designed collider, from the parameter names "vertex:<collider>:<row>:<axis>".
  std::map<std::string, int> points;
  std::vector<std::pair<std::string, int>> slot(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::size_t row_at = names[i].rfind(':', names[i].size() - 3);
    const std::string collider = names[i].substr(7, row_at - 7);
    const int row = std::stoi(names[i].substr(row_at + 1));
    slot[i] = {collider, row};
    points[collider] = std::max(points[collider], row + 1);
  }
  for (const auto& [collider, n] : points) {
    const auto it = objects.find(collider);
    if (it == objects.end()) throw InvalidArgument("design file " + path + ": no object '" + collider + "' (a designed collider)");
    if (static_cast<int>(it->second.size()) != n) {
      throw InvalidArgument("design file " + path + ": object '" + collider + "' has " + std::to_string(it->second.size()) +
                            " points, its collider " + std::to_string(n));
    }
  }
  VecX p(static_cast<Eigen::Index>(names.size()));
  for (std::size_t i = 0; i < names.size(); ++i) {
    const char axis = names[i].back();
    p[static_cast<Eigen::Index>(i)] = objects.at(slot[i].first)[static_cast<std::size_t>(slot[i].second)][axis - 'x'];
  }
  return p;
}

}  // namespace arena
